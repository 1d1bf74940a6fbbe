import zlib from 'node:zlib';
import { PdfStructureError } from './errors';
import type { PdfDict, PdfValue } from './objects';

/*
 * Stream decoding for the streams the reader itself must read: cross-reference streams and
 * object streams. Both are FlateDecode in every writer we know of (the standard allows others, but
 * nobody uses them there), so that is all this implements; anything else is refused by name rather
 * than misread. Content streams and images are never decoded here.
 */

/** Guards against a decompression bomb posing as an object stream (ours are kilobytes). */
export const DEFAULT_MAX_DECODED_BYTES = 256 * 1024 * 1024;

export interface DecodeOptions {
  /** Resolves an indirect /Filter or /DecodeParms (they must be direct in xref streams). */
  resolve?: (value: PdfValue) => PdfValue;
  maxOutputLength?: number;
}

/** The stream's data after its filters: only FlateDecode (with predictors), or none. */
export function decodeStreamData(raw: Buffer, dict: PdfDict, options: DecodeOptions = {}): Buffer {
  const resolve = options.resolve ?? ((value: PdfValue) => value);
  const filterValue = dict.entries.get('Filter');
  const paramsValue = dict.entries.get('DecodeParms') ?? dict.entries.get('DP');
  const filter = filterValue === undefined ? undefined : resolve(filterValue);
  const params = paramsValue === undefined ? undefined : resolve(paramsValue);
  const filters = filter === undefined || filter.kind === 'null' ? [] : filter.kind === 'array' ? filter.items.map(resolve) : [filter];
  const paramsList = params?.kind === 'array' ? params.items.map(resolve) : [params];

  let data = raw;
  filters.forEach((item, index) => {
    if (item.kind !== 'name') throw new PdfStructureError(`stream /Filter holds a ${item.kind}, not a name`);
    if (item.value !== 'FlateDecode' && item.value !== 'Fl') {
      throw new PdfStructureError(`stream filter /${item.value} is not supported here (only /FlateDecode)`);
    }
    data = inflate(data, options.maxOutputLength ?? DEFAULT_MAX_DECODED_BYTES);
    const itemParams = paramsList[index];
    if (itemParams?.kind === 'dict') data = applyPredictor(data, itemParams, resolve);
  });
  return data;
}

/**
 * zlib inflate that accepts what real files hold: data cut short or without its Adler-32 checksum
 * (Z_SYNC_FLUSH returns what was decoded instead of failing), and raw deflate with no zlib header.
 */
export function inflate(data: Buffer, maxOutputLength = DEFAULT_MAX_DECODED_BYTES): Buffer {
  if (data.length === 0) return Buffer.alloc(0);
  const options = { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength };
  try {
    return zlib.inflateSync(data, options);
  } catch (error) {
    if (isTooLarge(error)) throw new PdfStructureError(`a FlateDecode stream inflates to more than ${maxOutputLength} bytes`);
    try {
      return zlib.inflateRawSync(data, options);
    } catch {
      throw new PdfStructureError(`FlateDecode data is corrupt (${(error as Error).message})`);
    }
  }
}

const isTooLarge = (error: unknown) =>
  error instanceof RangeError || (error as { code?: string } | null)?.code === 'ERR_BUFFER_TOO_LARGE';

function integerParam(params: PdfDict, key: string, fallback: number, resolve: (value: PdfValue) => PdfValue): number {
  const raw = params.entries.get(key);
  const value = raw === undefined ? undefined : resolve(raw);
  return value?.kind === 'number' && Number.isInteger(value.value) ? value.value : fallback;
}

/** Undoes a TIFF (2) or PNG (10–15) predictor (§7.4.4.4). */
export function applyPredictor(data: Buffer, params: PdfDict, resolve: (value: PdfValue) => PdfValue = (value) => value): Buffer {
  const predictor = integerParam(params, 'Predictor', 1, resolve);
  if (predictor === 1) return data;
  const colors = integerParam(params, 'Colors', 1, resolve);
  const bits = integerParam(params, 'BitsPerComponent', 8, resolve);
  const columns = integerParam(params, 'Columns', 1, resolve);
  if (colors < 1 || colors > 32 || ![1, 2, 4, 8, 16].includes(bits) || columns < 1 || columns > 1 << 24) {
    throw new PdfStructureError(`invalid predictor parameters (Colors ${colors}, BitsPerComponent ${bits}, Columns ${columns})`);
  }
  if (predictor === 2) return tiffPredictor(data, colors, bits, columns);
  if (predictor >= 10 && predictor <= 15) return pngPredictor(data, colors, bits, columns);
  throw new PdfStructureError(`unknown predictor ${predictor}`);
}

function pngPredictor(data: Buffer, colors: number, bits: number, columns: number): Buffer {
  // Each row is one filter-type byte and then the row; the filter may change from row to row,
  // whatever /Predictor says (10–15 only announce "PNG").
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowBytes = Math.ceil((colors * bits * columns) / 8);
  const rows = Math.ceil(data.length / (rowBytes + 1));
  const out = Buffer.alloc(rows * rowBytes);
  let outPos = 0;
  for (let inPos = 0; inPos < data.length; inPos += rowBytes + 1) {
    const type = data[inPos]!;
    const row = out.subarray(outPos, outPos + rowBytes);
    const prior = outPos >= rowBytes ? out.subarray(outPos - rowBytes, outPos) : undefined;
    const count = Math.min(rowBytes, data.length - inPos - 1);
    for (let i = 0; i < count; i++) {
      const raw = data[inPos + 1 + i]!;
      const left = i >= pixelBytes ? row[i - pixelBytes]! : 0;
      const up = prior ? prior[i]! : 0;
      const upLeft = prior && i >= pixelBytes ? prior[i - pixelBytes]! : 0;
      let value: number;
      switch (type) {
        case 0: value = raw; break;
        case 1: value = raw + left; break;
        case 2: value = raw + up; break;
        case 3: value = raw + ((left + up) >> 1); break;
        case 4: value = raw + paeth(left, up, upLeft); break;
        default: throw new PdfStructureError(`unknown PNG predictor row type ${type}`);
      }
      row[i] = value & 0xff;
    }
    outPos += rowBytes;
  }
  return out;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

function tiffPredictor(data: Buffer, colors: number, bits: number, columns: number): Buffer {
  const rowBytes = Math.ceil((colors * bits * columns) / 8);
  const out = Buffer.from(data);
  const mask = bits === 16 ? 0xffff : (1 << bits) - 1;
  for (let rowStart = 0; rowStart + rowBytes <= out.length; rowStart += rowBytes) {
    if (bits === 8) {
      for (let i = colors; i < rowBytes; i++) out[rowStart + i] = (out[rowStart + i]! + out[rowStart + i - colors]!) & 0xff;
      continue;
    }
    // Other depths: each sample adds the same colour's sample of the pixel to its left.
    const sample = (index: number): number => {
      if (bits === 16) return out.readUInt16BE(rowStart + index * 2);
      const bit = index * bits;
      return (out[rowStart + (bit >> 3)]! >> (8 - bits - (bit & 7))) & mask;
    };
    const setSample = (index: number, value: number) => {
      if (bits === 16) return out.writeUInt16BE(value, rowStart + index * 2);
      const bit = index * bits;
      const shift = 8 - bits - (bit & 7);
      const at = rowStart + (bit >> 3);
      out[at] = (out[at]! & ~(mask << shift)) | ((value & mask) << shift);
    };
    for (let index = colors; index < columns * colors; index++) setSample(index, (sample(index) + sample(index - colors)) & mask);
  }
  return out;
}
