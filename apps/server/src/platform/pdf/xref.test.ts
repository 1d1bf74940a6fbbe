import { describe, expect, it } from 'vitest';
import { PdfStructureError } from './errors';
import { pdfName, pdfNumber, pdfRef } from './objects';
import { openPdfFile } from './pdf-file';
import { TestPdfBuilder, writeOnePageBody, type TestEntry } from '../../test/test-pdf-builder';
import { findStartxref, readXref } from './xref';

function classicFile(eol = '\r\n') {
  const pdf = new TestPdfBuilder();
  writeOnePageBody(pdf);
  pdf.object(4, '<</Producer (test)>>');
  pdf.xrefTable([[0, { type: 'f' }], ...pdf.entriesFor([1, 2, 3, 4])], '<</Size 5 /Root 1 0 R /Info 4 0 R>>', { eol });
  return pdf;
}

describe('classic cross-reference tables', () => {
  it('reads entries and the trailer', () => {
    const pdf = classicFile();
    const xref = readXref(pdf.toBuffer());
    expect(xref.kind).toBe('table');
    expect(xref.size).toBe(5);
    expect(xref.baseOffset).toBe(0);
    expect(xref.sections).toHaveLength(1);
    expect(xref.entries.get(0)).toEqual({ type: 'f', gen: 65535 });
    expect(xref.entries.get(3)).toEqual({ type: 'n', offset: pdf.offsets.get(3), gen: 0 });
    expect([...xref.trailer.entries.keys()]).toEqual(['Size', 'Root', 'Info']);
    expect(xref.trailer.entries.get('Root')).toEqual(pdfRef(1));
  });

  it.each([[' \n'], ['\r\n'], [' \r'], ['\n'], ['\r'], ['   \r\n']])('accepts entries ending in %j', (eol) => {
    const xref = readXref(classicFile(eol).toBuffer());
    expect(xref.entries.size).toBe(5);
    expect(openPdfFile(classicFile(eol).toBuffer()).pages()).toHaveLength(1);
  });

  it('reads several subsections, with numbers that skip', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.object(10, '(ten)');
    pdf.object(11, '(eleven)');
    pdf.xrefTable([[0, { type: 'f' }], ...pdf.entriesFor([1, 2, 3, 10, 11])], '<</Size 12 /Root 1 0 R>>');
    const text = pdf.toBuffer().toString('latin1');
    expect(text).toMatch(/xref\n0 4\n[\s\S]*\n10 2\n/);
    const file = openPdfFile(pdf.toBuffer());
    expect(file.lookup(11)).toEqual({ kind: 'string', bytes: Buffer.from('eleven'), hex: false });
    expect(file.lookup(5)).toEqual({ kind: 'null' });
  });

  it('takes the size from the highest number when a writer left /Size out', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.object(9, 'null');
    pdf.xrefTable(pdf.entriesFor([1, 2, 3, 9]), '<</Root 1 0 R>>');
    expect(readXref(pdf.toBuffer()).size).toBe(10);
  });

  it('finds startxref past trailing junk and whitespace before the table', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    const at = pdf.raw('\n\n');
    pdf.xrefTable(pdf.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R>>', { startxref: false });
    pdf.startxref(at); // points at the blank lines before `xref`, as some writers do
    pdf.raw('junk after %%EOF\n'.repeat(10));
    const buf = pdf.toBuffer();
    expect(findStartxref(buf)).toBe(at);
    expect(readXref(buf).entries.size).toBe(3);
  });

  it('refuses malformed tables with a clear error', () => {
    const bad = (mutate: (text: string) => string) => {
      const text = classicFile().toBuffer().toString('latin1');
      return () => readXref(Buffer.from(mutate(text), 'latin1'));
    };
    expect(bad((t) => t.replace(/ 00000 n\r\n/, ' 00000 x\r\n'))).toThrow(/entry 1 is neither "n" nor "f"/);
    expect(bad((t) => t.replace('trailer', 'trailor'))).toThrow(PdfStructureError);
    expect(bad((t) => t.replace(/startxref\n\d+/, 'startxref\n3'))).toThrow(/startxref points to offset 3, where there is no cross-reference section/);
    expect(bad((t) => t.replace(/startxref\n\d+/, 'startxref\n999999'))).toThrow(/startxref points to offset 999999/);
    expect(bad((t) => t.replace(/startxref\n\d+/, 'startxref\nabc'))).toThrow(/not followed by an offset/);
    expect(bad((t) => t.replace(/startxref[\s\S]*$/, ''))).toThrow(/no "startxref"/);
    expect(bad((t) => t.replace('%PDF-', '%XYZ-'))).toThrow(/no "%PDF-" header/);
    expect(bad((t) => t.replace('<</Size 5 /Root 1 0 R /Info 4 0 R>>', '[1 2]'))).toThrow(/not followed by a dictionary/);
  });
});

describe('cross-reference streams', () => {
  function streamFile(options: { predictor?: boolean; widths?: [number, number, number] } = {}) {
    const pdf = new TestPdfBuilder();
    pdf.object(1, '<</Type /Catalog /Pages 2 0 R>>');
    pdf.objectStream(5, [
      [2, '<</Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 595 842]>>'],
      [3, '<</Type /Page /Parent 2 0 R>>'],
      [4, '<</Type /Page /Parent 2 0 R /Rotate -90>>'],
    ]);
    pdf.xrefStream(
      6,
      [
        [0, { type: 'f', gen: 65535 }],
        ...pdf.entriesFor([1, 5]),
        [2, { type: 'c', streamNum: 5, index: 0 }],
        [3, { type: 'c', streamNum: 5, index: 1 }],
        [4, { type: 'c', streamNum: 5, index: 2 }],
      ],
      '/Size 7 /Root 1 0 R',
      options,
    );
    return pdf;
  }

  type StreamOptions = { predictor?: boolean; widths?: [number, number, number] };
  it.each<[string, StreamOptions]>([
    ['without a predictor', {}],
    ['with PNG Up rows (/Predictor 12)', { predictor: true }],
    ['with wide fields and a predictor', { predictor: true, widths: [2, 8, 3] }],
    ['with no type field (type 1 by default)', { widths: [0, 4, 2] }],
  ])('reads one %s', (_, options) => {
    if (options.widths?.[0] === 0) {
      // Without a type field every row is an in-use object: only uncompressed objects then.
      const pdf = new TestPdfBuilder();
      writeOnePageBody(pdf);
      pdf.xrefStream(4, pdf.entriesFor([1, 2, 3]), '/Size 5 /Root 1 0 R', options);
      expect(openPdfFile(pdf.toBuffer()).pages()).toHaveLength(1);
      return;
    }
    const pdf = streamFile(options);
    const xref = readXref(pdf.toBuffer());
    expect(xref.kind).toBe('stream');
    expect(xref.entries.get(3)).toEqual({ type: 'c', streamNum: 5, index: 1 });
    expect(xref.entries.get(6)).toEqual({ type: 'n', offset: pdf.offsets.get(6), gen: 0 });
    // Stream-only keys are not part of the document's trailer.
    expect([...xref.trailer.entries.keys()]).toEqual(['Size', 'Root']);
    const file = openPdfFile(pdf.toBuffer());
    expect(file.pages().map((page) => [page.ref.num, page.rotate, page.mediaBox])).toEqual([
      [3, 0, [0, 0, 595, 842]],
      [4, 270, [0, 0, 595, 842]],
    ]);
  });

  it('puts the stream itself where it was read, whatever its own row says', () => {
    // Acrobat wrote the IRS forms' update streams with their own row at offset 0.
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.xrefStream(4, [...pdf.entriesFor([1, 2, 3]), [4, { type: 'n', offset: 0 }]], '/Size 5 /Root 1 0 R');
    const buf = pdf.toBuffer();
    expect(readXref(buf).entries.get(4)).toEqual({ type: 'n', offset: pdf.offsets.get(4), gen: 0 });
    expect(openPdfFile(buf).lookup(4).kind).toBe('stream');
  });

  it('refuses streams it cannot read', () => {
    const text = streamFile().toBuffer().toString('latin1');
    const with_ = (from: string | RegExp, to: string) => () => readXref(Buffer.from(text.replace(from, to), 'latin1'));
    expect(with_('/W [1 4 2]', '/W [1 4]')).toThrow(/invalid \/W/);
    expect(with_('/Type /XRef', '/Type /XObj')).toThrow(/not a cross-reference stream/);
    expect(with_('/Filter /FlateDecode /Size', '/Filter /LZWDecode /Size')).toThrow(/filter \/LZWDecode is not supported/);
    expect(with_(/\/Index \[[^\]]*\]/, '/Index [0 50]')).toThrow(/too few for 50 entries/);
  });
});

describe('hybrid files (/XRefStm)', () => {
  it('takes compressed objects from the stream over the table’s free entries', () => {
    const pdf = new TestPdfBuilder();
    pdf.object(1, '<</Type /Catalog /Pages 2 0 R>>');
    pdf.object(2, '<</Type /Pages /Kids [3 0 R] /Count 1>>');
    pdf.objectStream(5, [
      [3, '<</Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Rotate 180>>'],
      [4, '<</Author (hybrid)>>'],
    ]);
    // The stream lists only the compressed objects; older readers ignore it and see 3, 4 free.
    const streamAt = pdf.xrefStream(
      6,
      [
        [3, { type: 'c', streamNum: 5, index: 0 }],
        [4, { type: 'c', streamNum: 5, index: 1 }],
      ],
      '/Size 7',
      { predictor: true, startxref: false },
    );
    pdf.xrefTable(
      [[0, { type: 'f', next: 3 }], ...pdf.entriesFor([1, 2, 5]), [3, { type: 'f', next: 4 }], [4, { type: 'f', next: 0 }]],
      `<</Size 7 /Root 1 0 R /Info 4 0 R /XRefStm ${streamAt}>>`,
    );
    const xref = readXref(pdf.toBuffer());
    expect(xref.kind).toBe('table');
    expect(xref.sections[0]?.xrefStm).toBe(streamAt);
    expect(xref.entries.get(3)).toEqual({ type: 'c', streamNum: 5, index: 0 });
    expect(xref.entries.get(1)?.type).toBe('n');
    expect(xref.trailer.entries.has('XRefStm')).toBe(false);
    const file = openPdfFile(pdf.toBuffer());
    expect(file.pages()[0]).toMatchObject({ rotate: 180, mediaBox: [0, 0, 300, 400] });
    expect(file.get(file.resolve(file.trailer.entries.get('Info')) as never, 'Author')).toMatchObject({ bytes: Buffer.from('hybrid') });
  });

  it('refuses an /XRefStm that points nowhere', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.xrefTable(pdf.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R /XRefStm 17>>');
    expect(() => readXref(pdf.toBuffer())).toThrow(/XRefStm of the section at offset \d+ points to offset 17/);
  });
});

describe('incremental updates (/Prev)', () => {
  function updated(kinds: ['table' | 'stream', 'table' | 'stream']) {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.object(4, '<</Title (first)>>');
    const first =
      kinds[0] === 'table'
        ? pdf.xrefTable([[0, { type: 'f' }], ...pdf.entriesFor([1, 2, 3, 4])], '<</Size 5 /Root 1 0 R /Info 4 0 R /ID [<01> <02>]>>')
        : pdf.xrefStream(5, pdf.entriesFor([1, 2, 3, 4]), '/Size 6 /Root 1 0 R /Info 4 0 R /ID [<01> <02>]');
    const size = kinds[0] === 'table' ? 5 : 6;
    // The update rotates the page, deletes the info dictionary and adds an object.
    pdf.object(3, '<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 90>>');
    pdf.object(size, '(new)');
    const entries: Array<[number, TestEntry]> = [...pdf.entriesFor([3, size]), [4, { type: 'f', gen: 1 }]];
    if (kinds[1] === 'table') pdf.xrefTable(entries, `<</Size ${size + 1} /Root 1 0 R /Prev ${first} /ID [<01> <03>]>>`);
    else pdf.xrefStream(size + 1, entries, `/Size ${size + 2} /Root 1 0 R /Prev ${first} /ID [<01> <03>]`);
    return { pdf, first, size };
  }

  it.each([
    ['table', 'table'],
    ['table', 'stream'],
    ['stream', 'table'],
    ['stream', 'stream'],
  ] as const)('reads a %s revision updated with a %s', (firstKind, lastKind) => {
    const { pdf, first, size } = updated([firstKind, lastKind]);
    const xref = readXref(pdf.toBuffer());
    expect(xref.kind).toBe(lastKind);
    expect(xref.sections.map((section) => section.kind)).toEqual([lastKind, firstKind]);
    expect(xref.sections[1]?.offset).toBe(first);
    // The newest entry wins, free ones included; the trailer merges newest first.
    expect(xref.entries.get(3)).toMatchObject({ type: 'n', offset: pdf.offsets.get(3) });
    expect(xref.entries.get(4)).toEqual({ type: 'f', gen: 1 });
    expect(xref.entries.get(1)).toMatchObject({ type: 'n' });
    expect(xref.trailer.entries.get('Info')).toEqual(pdfRef(4));
    expect(xref.trailer.entries.get('ID')).toMatchObject({ items: [{ bytes: Buffer.from([1]) }, { bytes: Buffer.from([3]) }] });
    expect(xref.trailer.entries.has('Prev')).toBe(false);
    expect(xref.size).toBe(lastKind === 'table' ? size + 1 : size + 2);
    const file = openPdfFile(pdf.toBuffer());
    expect(file.pages()[0]?.rotate).toBe(90);
    expect(file.lookup(4)).toEqual({ kind: 'null' });
    expect(file.lookup(pdfRef(3, 1))).toEqual({ kind: 'null' }); // not the current generation
    expect(file.id?.[1].bytes).toEqual(Buffer.from([3]));
  });

  it('refuses a /Prev loop, however long', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    const first = pdf.length + 1000; // not known yet: patched below
    const a = pdf.xrefTable(pdf.entriesFor([1, 2, 3]), `<</Size 4 /Root 1 0 R /Prev ${String(first).padStart(6, '0')}>>`);
    const b = pdf.xrefTable(pdf.entriesFor([3]), `<</Size 4 /Root 1 0 R /Prev ${a}>>`);
    const text = pdf.toBuffer().toString('latin1').replace(`/Prev ${String(first).padStart(6, '0')}`, `/Prev ${String(b).padStart(6, '0')}`);
    expect(() => readXref(Buffer.from(text, 'latin1'))).toThrow(/loops back to offset/);
    const self = new TestPdfBuilder();
    writeOnePageBody(self);
    const at = self.length;
    self.xrefTable(self.entriesFor([1, 2, 3]), `<</Size 4 /Root 1 0 R /Prev ${at}>>`);
    expect(() => readXref(self.toBuffer())).toThrow(`the cross-reference chain loops back to offset ${at}`);
  });

  it('refuses a /Prev outside the file or at something else', () => {
    const outside = new TestPdfBuilder();
    writeOnePageBody(outside);
    outside.xrefTable(outside.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R /Prev 123456789>>');
    expect(() => readXref(outside.toBuffer())).toThrow(/expected at offset 123456789, outside the file/);
    const elsewhere = new TestPdfBuilder();
    writeOnePageBody(elsewhere);
    elsewhere.xrefTable(elsewhere.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R /Prev 1>>');
    expect(() => readXref(elsewhere.toBuffer())).toThrow(/expected at offset 1, where there is no cross-reference section/);
    const notNumber = new TestPdfBuilder();
    writeOnePageBody(notNumber);
    notNumber.xrefTable(notNumber.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R /Prev /Nowhere>>');
    expect(() => readXref(notNumber.toBuffer())).toThrow(/invalid \/Prev/);
  });
});

describe('offsets counted from a header after leading junk', () => {
  it('shifts every offset by the junk’s length and says so', () => {
    const pdf = classicFile();
    const junk = Buffer.from('# printer job header\r\n'.repeat(20), 'latin1');
    const buf = Buffer.concat([junk, pdf.toBuffer()]);
    const xref = readXref(buf);
    expect(xref.baseOffset).toBe(junk.length);
    expect(xref.startxref).toBe(findStartxref(buf));
    const file = openPdfFile(buf);
    expect(file.baseOffset).toBe(junk.length);
    expect(file.pages()).toHaveLength(1);
    expect(file.get(file.lookup(4) as never, 'Producer')).toMatchObject({ bytes: Buffer.from('test') });
  });

  it('keeps offsets from the start of the file when they are right from there', () => {
    const pdf = new TestPdfBuilder('% junk line\n%PDF-1.4\n');
    writeOnePageBody(pdf);
    pdf.xrefTable(pdf.entriesFor([1, 2, 3]), '<</Size 4 /Root 1 0 R>>');
    expect(readXref(pdf.toBuffer()).baseOffset).toBe(0);
    expect(openPdfFile(pdf.toBuffer()).pages()).toHaveLength(1);
  });
});

describe('entries that lead nowhere', () => {
  it('says which object and which offset', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.xrefTable([...pdf.entriesFor([1, 2]), [3, { type: 'n', offset: pdf.offsets.get(2)! }], [7, { type: 'n', offset: 10_000_000 }]], '<</Size 8 /Root 1 0 R>>');
    const file = openPdfFile(pdf.toBuffer());
    expect(() => file.pages()).toThrow(`the cross-reference entry of object 3 0 points to offset ${pdf.offsets.get(2)}, where object 2 0 starts`);
    expect(() => file.lookup(7)).toThrow(/object 7 \(at offset 10000000.*outside the file/);
  });

  it('resolves a stream whose /Length is an object after it, and one whose /Length is itself', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.object(4, '<</Length 5 0 R>>\nstream\nhello\nendstream');
    pdf.object(5, '5');
    pdf.object(6, '<</Length 6 0 R>>\nstream\nloop\nendstream');
    pdf.xrefTable(pdf.entriesFor([1, 2, 3, 4, 5, 6]), '<</Size 7 /Root 1 0 R>>');
    const file = openPdfFile(pdf.toBuffer());
    const four = file.lookup(4);
    const six = file.lookup(6);
    expect(four.kind === 'stream' && file.streamData(four).toString()).toBe('hello');
    expect(six.kind === 'stream' && file.streamData(six).toString()).toBe('loop');
    expect(pdfNumber(5)).toEqual(file.lookup(5));
    expect(pdfName('Catalog')).toEqual(file.catalog.dict.entries.get('Type'));
  });
});
