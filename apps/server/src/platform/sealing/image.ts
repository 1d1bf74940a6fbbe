import zlib from 'node:zlib';
import { PNG } from 'pngjs';
import { pdfDict, pdfName, pdfNumber, type PdfDict, type PdfRef } from '../pdf/objects';
import { num, rotationMatrix, type Appearance, type Rotation } from './appearance';
import { SealError } from './seal-error';

/**
 * Images a signer's revision draws (a drawn or uploaded signature, an image tag, a letterhead):
 * PNG or JPEG, the two kinds tags accept. A JPEG goes in as it is (DCTDecode); a PNG is decoded
 * and stored as deflated RGB with its alpha as a soft mask, so transparent signatures stay
 * transparent over the page.
 */

export interface ImageXObject {
  readonly width: number;
  readonly height: number;
  /** The image's dictionary and data, and, for a PNG with transparency, its soft mask's. */
  readonly image: { readonly dict: PdfDict; readonly data: Buffer };
  readonly mask?: { readonly dict: PdfDict; readonly data: Buffer };
}

/** Width, height and components of a baseline or progressive JPEG, from its SOF marker. */
function jpegInfo(data: Buffer): { width: number; height: number; components: number } {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) throw new SealError('The image is not a JPEG.');
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) throw new SealError('The JPEG is damaged.');
    const marker = data[at + 1]!;
    const length = data.readUInt16BE(at + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7), components: data[at + 9]! };
    }
    at += 2 + length;
  }
  throw new SealError('The JPEG has no frame header.');
}

export function imageXObject(data: Buffer, format: 'png' | 'jpeg'): ImageXObject {
  if (format === 'jpeg') {
    const info = jpegInfo(data);
    const colorSpace = info.components === 1 ? 'DeviceGray' : info.components === 4 ? 'DeviceCMYK' : 'DeviceRGB';
    const dict = pdfDict([
      ['Type', pdfName('XObject')],
      ['Subtype', pdfName('Image')],
      ['Width', pdfNumber(info.width)],
      ['Height', pdfNumber(info.height)],
      ['ColorSpace', pdfName(colorSpace)],
      ['BitsPerComponent', pdfNumber(8)],
      ['Filter', pdfName('DCTDecode')],
    ]);
    return { width: info.width, height: info.height, image: { dict, data } };
  }
  let png: PNG;
  try {
    png = PNG.sync.read(data);
  } catch {
    throw new SealError('The image is not a readable PNG.');
  }
  const pixels = png.width * png.height;
  const rgb = Buffer.alloc(pixels * 3);
  const alpha = Buffer.alloc(pixels);
  let transparent = false;
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = png.data[i * 4]!;
    rgb[i * 3 + 1] = png.data[i * 4 + 1]!;
    rgb[i * 3 + 2] = png.data[i * 4 + 2]!;
    alpha[i] = png.data[i * 4 + 3]!;
    if (alpha[i] !== 255) transparent = true;
  }
  const base = (colorSpace: string): PdfDict =>
    pdfDict([
      ['Type', pdfName('XObject')],
      ['Subtype', pdfName('Image')],
      ['Width', pdfNumber(png.width)],
      ['Height', pdfNumber(png.height)],
      ['ColorSpace', pdfName(colorSpace)],
      ['BitsPerComponent', pdfNumber(8)],
      ['Filter', pdfName('FlateDecode')],
    ]);
  return {
    width: png.width,
    height: png.height,
    image: { dict: base('DeviceRGB'), data: zlib.deflateSync(rgb) },
    ...(transparent ? { mask: { dict: base('DeviceGray'), data: zlib.deflateSync(alpha) } } : {}),
  };
}

/** The image's key in the appearance's resources. */
export const APPEARANCE_IMAGE_KEY = 'PaktImg';

/**
 * An appearance showing the image as large as fits the box (as shown), centred, keeping its
 * proportions, turned against the page's rotation like text appearances.
 */
export function imageAppearance(options: { width: number; height: number; rotate: Rotation; image: { width: number; height: number } }): Appearance {
  const { width, height } = options;
  const scale = Math.min(width / options.image.width, height / options.image.height);
  const w = options.image.width * scale;
  const h = options.image.height * scale;
  const content = `q ${num(w)} 0 0 ${num(h)} ${num((width - w) / 2)} ${num((height - h) / 2)} cm /${APPEARANCE_IMAGE_KEY} Do Q`;
  return {
    content: Buffer.from(content, 'latin1'),
    bbox: [0, 0, width, height],
    matrix: rotationMatrix(options.rotate, { width, height }),
    usesFont: false,
    unencodable: [],
  };
}

/** The soft mask is referred to from the image's dictionary. */
export function withSoftMask(dict: PdfDict, mask: PdfRef | undefined): PdfDict {
  if (!mask) return dict;
  const copy = pdfDict(dict.entries);
  copy.entries.set('SMask', mask);
  return copy;
}
