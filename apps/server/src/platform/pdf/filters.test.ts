import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PdfStructureError } from './errors';
import { applyPredictor, decodeStreamData, inflate } from './filters';
import { pdfArray, pdfDict, pdfName, pdfNumber, PDF_NULL } from './objects';

const params = (predictor: number, colors: number, bits: number, columns: number) =>
  pdfDict({ Predictor: pdfNumber(predictor), Colors: pdfNumber(colors), BitsPerComponent: pdfNumber(bits), Columns: pdfNumber(columns) });

function paeth(a: number, b: number, c: number) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The PNG encoder side (RFC 2083 §6), one filter type per row. */
function pngEncode(rows: Buffer[], pixelBytes: number, types: number[]): Buffer {
  return Buffer.concat(
    rows.map((row, r) => {
      const prior = r > 0 ? rows[r - 1]! : Buffer.alloc(row.length);
      const type = types[r % types.length]!;
      const out = Buffer.alloc(row.length + 1);
      out[0] = type;
      for (let i = 0; i < row.length; i++) {
        const left = i >= pixelBytes ? row[i - pixelBytes]! : 0;
        const up = prior[i]!;
        const upLeft = i >= pixelBytes ? prior[i - pixelBytes]! : 0;
        const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type]!;
        out[i + 1] = (row[i]! - predicted) & 0xff;
      }
      return out;
    }),
  );
}

/** The TIFF predictor 2 encoder: each sample minus the same colour's sample to its left. */
function tiffEncode(data: Buffer, colors: number, bits: number, columns: number): Buffer {
  const rowBytes = Math.ceil((colors * bits * columns) / 8);
  const out = Buffer.from(data);
  const mask = bits === 16 ? 0xffff : (1 << bits) - 1;
  for (let start = 0; start + rowBytes <= data.length; start += rowBytes) {
    const read = (buf: Buffer, i: number) => (bits === 16 ? buf.readUInt16BE(start + i * 2) : (buf[start + ((i * bits) >> 3)]! >> (8 - bits - ((i * bits) & 7))) & mask);
    const write = (i: number, value: number) => {
      if (bits === 16) return out.writeUInt16BE(value, start + i * 2);
      const at = start + ((i * bits) >> 3);
      const shift = 8 - bits - ((i * bits) & 7);
      out[at] = (out[at]! & ~(mask << shift)) | ((value & mask) << shift);
    };
    for (let i = colors; i < columns * colors; i++) write(i, (read(data, i) - read(data, i - colors)) & mask);
  }
  return out;
}

describe('PNG predictors', () => {
  it('undoes every row type, mixed in one stream', () => {
    const rows = [Buffer.from([1, 2, 3, 250, 251, 252]), Buffer.from([9, 8, 7, 6, 5, 4]), Buffer.from([0, 255, 0, 255, 0, 255]), Buffer.from([100, 0, 100, 0, 100, 0]), Buffer.from([1, 1, 1, 1, 1, 1])];
    const encoded = pngEncode(rows, 2, [0, 1, 2, 3, 4]);
    expect(applyPredictor(encoded, params(12, 2, 8, 3))).toEqual(Buffer.concat(rows));
    // /Predictor 10–15 only says "PNG": the row bytes choose.
    expect(applyPredictor(encoded, params(15, 2, 8, 3))).toEqual(Buffer.concat(rows));
  });

  it('round-trips any data (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 2, 4, 8, 16),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
        (colors, bits, columns, rowCount, types, bytes) => {
          const rowBytes = Math.ceil((colors * bits * columns) / 8);
          const iterator = bytes[Symbol.iterator]();
          const rows = Array.from({ length: rowCount }, () => Buffer.from(Array.from({ length: rowBytes }, () => iterator.next().value as number)));
          const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
          expect(applyPredictor(pngEncode(rows, pixelBytes, types), params(12, colors, bits, columns))).toEqual(Buffer.concat(rows));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses an unknown row type and absurd parameters', () => {
    expect(() => applyPredictor(Buffer.from([7, 1, 2]), params(12, 1, 8, 2))).toThrow(/unknown PNG predictor row type 7/);
    expect(() => applyPredictor(Buffer.from([0, 1]), params(12, 1, 3, 2))).toThrow(/invalid predictor parameters/);
    expect(() => applyPredictor(Buffer.from([0, 1]), params(5, 1, 8, 2))).toThrow(/unknown predictor 5/);
  });

  it('leaves data alone with /Predictor 1 or none', () => {
    expect(applyPredictor(Buffer.from([1, 2, 3]), pdfDict())).toEqual(Buffer.from([1, 2, 3]));
    expect(applyPredictor(Buffer.from([1, 2, 3]), params(1, 1, 8, 1))).toEqual(Buffer.from([1, 2, 3]));
  });
});

describe('TIFF predictor 2', () => {
  it('round-trips any data at every depth (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 2, 4, 8, 16),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 5 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
        (colors, bits, columns, rowCount, bytes) => {
          const rowBytes = Math.ceil((colors * bits * columns) / 8);
          const iterator = bytes[Symbol.iterator]();
          const data = Buffer.from(Array.from({ length: rowBytes * rowCount }, () => iterator.next().value as number));
          expect(applyPredictor(tiffEncode(data, colors, bits, columns), params(2, colors, bits, columns))).toEqual(data);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('adds left neighbours per colour', () => {
    expect(applyPredictor(Buffer.from([10, 20, 1, 2, 1, 2]), params(2, 2, 8, 3))).toEqual(Buffer.from([10, 20, 11, 22, 12, 24]));
  });
});

describe('inflate', () => {
  const text = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(50));

  it('inflates zlib data, with or without its checksum', () => {
    const deflated = zlib.deflateSync(text);
    expect(inflate(deflated)).toEqual(text);
    expect(inflate(deflated.subarray(0, deflated.length - 4))).toEqual(text);
    expect(inflate(Buffer.alloc(0))).toEqual(Buffer.alloc(0));
  });

  it('returns what it can of data cut short', () => {
    const deflated = zlib.deflateSync(text);
    const partial = inflate(deflated.subarray(0, Math.floor(deflated.length / 2)));
    expect(text.subarray(0, partial.length)).toEqual(partial);
  });

  it('accepts raw deflate without a zlib header', () => {
    expect(inflate(zlib.deflateRawSync(text))).toEqual(text);
  });

  it('refuses garbage and bombs', () => {
    expect(() => inflate(Buffer.from('definitely not deflate data'))).toThrow(PdfStructureError);
    const bomb = zlib.deflateSync(Buffer.alloc(10_000_000));
    expect(() => inflate(bomb, 1_000_000)).toThrow(/inflates to more than 1000000 bytes/);
  });
});

describe('decodeStreamData', () => {
  const rows = [Buffer.from([1, 0, 0, 15, 0]), Buffer.from([1, 0, 1, 20, 0])];
  const encoded = zlib.deflateSync(pngEncode(rows, 1, [2]));

  it('decodes FlateDecode with predictors, as a name or in arrays', () => {
    const decodeParms = params(12, 1, 8, 5);
    expect(decodeStreamData(encoded, pdfDict({ Filter: pdfName('FlateDecode'), DecodeParms: decodeParms }))).toEqual(Buffer.concat(rows));
    expect(decodeStreamData(encoded, pdfDict({ Filter: pdfArray([pdfName('FlateDecode')]), DecodeParms: pdfArray([decodeParms]) }))).toEqual(Buffer.concat(rows));
    expect(decodeStreamData(encoded, pdfDict({ Filter: pdfArray([pdfName('FlateDecode')]), DecodeParms: pdfArray([PDF_NULL]) }))).toEqual(pngEncode(rows, 1, [2]));
    const twice = zlib.deflateSync(zlib.deflateSync(Buffer.from('x')));
    expect(decodeStreamData(twice, pdfDict({ Filter: pdfArray([pdfName('FlateDecode'), pdfName('Fl')]) }))).toEqual(Buffer.from('x'));
  });

  it('passes unfiltered data through', () => {
    expect(decodeStreamData(Buffer.from('abc'), pdfDict())).toEqual(Buffer.from('abc'));
    expect(decodeStreamData(Buffer.from('abc'), pdfDict({ Filter: pdfArray() }))).toEqual(Buffer.from('abc'));
  });

  it('resolves indirect filters through the given resolver', () => {
    const dict = pdfDict({ Filter: { kind: 'ref', num: 5, gen: 0 } });
    expect(decodeStreamData(zlib.deflateSync(Buffer.from('y')), dict, { resolve: (v) => (v.kind === 'ref' ? pdfName('FlateDecode') : v) })).toEqual(Buffer.from('y'));
  });

  it('refuses other filters by name', () => {
    expect(() => decodeStreamData(Buffer.from('abc'), pdfDict({ Filter: pdfName('LZWDecode') }))).toThrow('stream filter /LZWDecode is not supported here (only /FlateDecode)');
    expect(() => decodeStreamData(Buffer.from('abc'), pdfDict({ Filter: pdfArray([pdfName('FlateDecode'), pdfName('DCTDecode')]) }))).toThrow(/DCTDecode/);
    expect(() => decodeStreamData(Buffer.from('abc'), pdfDict({ Filter: pdfNumber(3) }))).toThrow(/holds a number, not a name/);
  });
});
