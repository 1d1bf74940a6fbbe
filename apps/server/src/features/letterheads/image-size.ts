import { PNG } from 'pngjs';

/**
 * The kind and size of an uploaded image, told from its bytes alone (the name and declared type
 * are the sender's word only). Every read is bounds-checked: the input is untrusted.
 */
export type ImageKind = 'image/png' | 'image/jpeg';

export interface ImageSize {
  readonly contentType: ImageKind;
  readonly width: number;
  readonly height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG or JPEG by the first bytes, or undefined. */
export function sniffImage(bytes: Buffer): ImageKind | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Width and height from the first chunk, which the format requires to be IHDR. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Width and height from the frame header (SOF0..SOF15 except DHT C4, JPG C8, DAC CC). */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return undefined;
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/**
 * The image's kind and size, or undefined when it is not a PNG or JPEG that can be drawn later:
 * no header, a zero side, a side over `maxSide` (a small file can unpack to a huge bitmap), or,
 * for a PNG, data that does not decode (sealing decodes it fully, so a broken one must be
 * refused now, not when a signer's seal fails).
 */
export function readImageSize(bytes: Buffer, maxSide: number): ImageSize | undefined {
  const contentType = sniffImage(bytes);
  if (!contentType) return undefined;
  const size = contentType === 'image/png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size.width < 1 || size.height < 1 || size.width > maxSide || size.height > maxSide) return undefined;
  if (contentType === 'image/png') {
    try {
      PNG.sync.read(bytes);
    } catch {
      return undefined;
    }
  }
  return { contentType, ...size };
}
