import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfEncryptionError, PdfStructureError } from './errors';
import { cloneValue, decodeTextString, pdfName, pdfNumber, pdfRef, serializeIndirect, type PdfDict } from './objects';
import { openPdfFile, type PdfFile } from './pdf-file';
import { TestPdfBuilder, writeOnePageBody } from '../../test/test-pdf-builder';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-pdf-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The decoded text of a page's (first) content stream. */
function firstContentStream(pdf: PdfFile, page: PdfDict): string {
  const contents = pdf.get(page, 'Contents');
  const stream = contents.kind === 'array' ? pdf.resolve(contents.items[0]) : contents;
  if (stream.kind !== 'stream') throw new Error(`the page's contents are a ${stream.kind}`);
  return pdf.streamData(stream).toString('latin1');
}

/** A file whose objects are `objects` (number → source) with a classic table; 1 is the catalog. */
function fileOf(objects: Record<number, string>): Buffer {
  const pdf = new TestPdfBuilder();
  const nums = Object.keys(objects).map(Number);
  for (const num of nums) pdf.object(num, objects[num]!);
  pdf.xrefTable(pdf.entriesFor(nums), `<</Size ${Math.max(...nums) + 1} /Root 1 0 R>>`);
  return pdf.toBuffer();
}

describe('the page tree', () => {
  it('inherits MediaBox, CropBox, Rotate and Resources, nearest ancestor first', () => {
    const pdf = openPdfFile(
      fileOf({
        1: '<</Type /Catalog /Pages 2 0 R>>',
        2: '<</Type /Pages /Kids [3 0 R 4 0 R] /Count 4 /MediaBox [0 0 600 800] /Rotate 90 /Resources <</Font <<>>>>>>',
        3: '<</Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 2 /CropBox [10 10 590 790] /Resources 9 0 R>>',
        4: '<</Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Rotate -90 /UserUnit 2>>',
        5: '<</Type /Page /Parent 3 0 R>>',
        6: '<</Type /Page /Parent 3 0 R /Rotate 450 /MediaBox [300 400 0 0] /CropBox [-50 -50 1000 1000]>>',
        9: '<</XObject <<>>>>',
      }),
    );
    const pages = pdf.pages();
    expect(pages.map((page) => page.ref.num)).toEqual([5, 6, 4]);
    expect(pages.map((page) => page.index)).toEqual([0, 1, 2]);
    expect(pages[0]).toMatchObject({ mediaBox: [0, 0, 600, 800], cropBox: [10, 10, 590, 790], rotate: 90, userUnit: 1 });
    expect(pages[0]!.resources?.entries.has('XObject')).toBe(true);
    // Reversed corners are normalised; a CropBox bigger than the MediaBox takes its extent.
    expect(pages[1]).toMatchObject({ mediaBox: [0, 0, 300, 400], cropBox: [0, 0, 300, 400], rotate: 90 });
    expect(pages[2]).toMatchObject({ mediaBox: [0, 0, 200, 100], cropBox: [0, 0, 200, 100], rotate: 270, userUnit: 2 });
    expect(pages[2]!.resources?.entries.has('Font')).toBe(true);
    expect(pdf.pages()).toBe(pages); // walked once
  });

  it('clips a CropBox to the MediaBox, and falls back to US Letter without any box', () => {
    const pdf = openPdfFile(
      fileOf({
        1: '<</Type /Catalog /Pages 2 0 R>>',
        2: '<</Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3>>',
        3: '<</Type /Page /Parent 2 0 R>>',
        4: '<</Type /Page /Parent 2 0 R /MediaBox [0 0 500 500] /CropBox [100 -20 400 450] /Rotate 45>>',
        5: '<</Type /Page /Parent 2 0 R /MediaBox [0 0 0 0] /CropBox [0 0 10 10 20] /Rotate /Ninety>>',
      }),
    );
    expect(pdf.pages().map(({ mediaBox, cropBox, rotate }) => ({ mediaBox, cropBox, rotate }))).toEqual([
      { mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 612, 792], rotate: 0 },
      { mediaBox: [0, 0, 500, 500], cropBox: [100, 0, 400, 450], rotate: 0 },
      { mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 612, 792], rotate: 0 },
    ]);
  });

  it('resolves indirect boxes, kids arrays and numbers', () => {
    const pdf = openPdfFile(
      fileOf({
        1: '<</Type /Catalog /Pages 2 0 R>>',
        2: '<</Type /Pages /Kids 4 0 R /Count 1>>',
        3: '<</Type /Page /Parent 2 0 R /MediaBox 5 0 R /Rotate 6 0 R>>',
        4: '[3 0 R]',
        5: '[0 0 7 0 R 400]',
        6: '180',
        7: '300',
      }),
    );
    expect(pdf.pages()[0]).toMatchObject({ mediaBox: [0, 0, 300, 400], rotate: 180 });
  });

  it('refuses a cycle, a kid that is not a reference, and a missing tree', () => {
    const cyclic = openPdfFile(
      fileOf({
        1: '<</Type /Catalog /Pages 2 0 R>>',
        2: '<</Type /Pages /Kids [3 0 R] /Count 1>>',
        3: '<</Type /Pages /Kids [4 0 R 2 0 R] /Count 1>>',
        4: '<</Type /Page /Parent 3 0 R>>',
      }),
    );
    expect(() => cyclic.pages()).toThrow(/the page tree reaches object 2 twice/);
    const inline = openPdfFile(fileOf({ 1: '<</Type /Catalog /Pages 2 0 R>>', 2: '<</Type /Pages /Kids [<</Type /Page>>] /Count 1>>' }));
    expect(() => inline.pages()).toThrow(/has a kid that is not a reference/);
    expect(() => openPdfFile(fileOf({ 1: '<</Type /Catalog>>' })).pages()).toThrow(/no page tree/);
    expect(openPdfFile(fileOf({ 1: '<</Type /Catalog /Pages 2 0 R>>', 2: '<</Type /Pages /Count 0>>' })).pages()).toEqual([]);
  });

  it('refuses a file without a usable catalog', () => {
    const noRoot = new TestPdfBuilder();
    writeOnePageBody(noRoot);
    noRoot.xrefTable(noRoot.entriesFor([1, 2, 3]), '<</Size 4>>');
    expect(() => openPdfFile(noRoot.toBuffer())).toThrow(/no \/Root reference/);
    expect(() => openPdfFile(fileOf({ 1: '[1 2 3]' }))).toThrow(/catalog \(object 1\) is not a dictionary/);
    expect(() => openPdfFile(fileOf({ 2: '<<>>' }))).toThrow(PdfStructureError);
  });
});

describe('objects', () => {
  it('follows references, returns null for missing ones and caches what it read', () => {
    const pdf = openPdfFile(fileOf({ 1: '<</Type /Catalog /Pages 2 0 R /Extra 3 0 R>>', 2: '<</Type /Pages /Count 0>>', 3: '4 0 R', 4: '(deep)' }));
    expect(pdf.resolve(pdf.catalog.dict.entries.get('Extra'))).toMatchObject({ kind: 'string', bytes: Buffer.from('deep') });
    expect(pdf.lookup(pdfRef(99))).toEqual({ kind: 'null' });
    expect(pdf.get(pdf.catalog.dict, 'Missing')).toEqual({ kind: 'null' });
    expect(pdf.lookup(2)).toBe(pdf.lookup(pdfRef(2, 0)));
    expect(pdf.catalog.ref).toEqual(pdfRef(1));
    expect(pdf.encrypted).toBe(false);
    expect(pdf.security).toBeNull();
    expect(pdf.id).toBeNull();
  });

  it('refuses a reference loop', () => {
    const pdf = openPdfFile(fileOf({ 1: '<</Type /Catalog /Loop 2 0 R>>', ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [i + 2, `${i + 3} 0 R`])), 42: '2 0 R' }));
    expect(() => pdf.get(pdf.catalog.dict, 'Loop')).toThrow(/reference chain from object \d+ is too long/);
  });
});

describe('forms and signature fields', () => {
  const form = (acroForm: string) =>
    openPdfFile(
      fileOf({
        1: `<</Type /Catalog /Pages 2 0 R /AcroForm ${acroForm}>>`,
        2: '<</Type /Pages /Kids [3 0 R] /Count 1>>',
        3: '<</Type /Page /Parent 2 0 R /Annots [5 0 R 7 0 R 8 0 R]>>',
        4: '<</Fields [5 0 R 6 0 R 10 0 R] /SigFlags 3>>',
        // A signed field that is its own widget.
        5: '<</FT /Sig /T (Signer 1) /V 9 0 R /Subtype /Widget /Rect [0 0 10 10] /P 3 0 R>>',
        // A parent with the inheritable /FT and two named kids, one with its widget as a kid.
        6: '<</FT /Sig /T <FEFF0939093E0938>/Kids [7 0 R 11 0 R]>>',
        7: '<</T (a) /Subtype /Widget /Rect [0 0 1 1] /Parent 6 0 R>>',
        11: '<</T (b) /Kids [8 0 R] /Parent 6 0 R>>',
        8: '<</Subtype /Widget /Rect [0 0 1 1] /Parent 11 0 R>>',
        9: '<</Type /Sig /Filter /Adobe.PPKLite /Contents <3082> /ByteRange [0 1 2 3]>>',
        10: '<</FT /Tx /T (name)>>',
      }),
    );

  it('reads an indirect AcroForm and its fields', () => {
    const acroForm = form('4 0 R').acroForm();
    expect(acroForm?.ref).toEqual(pdfRef(4));
    expect(acroForm?.fields).toEqual([pdfRef(5), pdfRef(6), pdfRef(10)]);
    expect(acroForm?.dict.entries.get('SigFlags')).toEqual(pdfNumber(3));
  });

  it('reads a direct AcroForm, and says when there is none', () => {
    const acroForm = form('<</Fields [10 0 R]>>').acroForm();
    expect(acroForm).toEqual({ dict: expect.objectContaining({ kind: 'dict' }), fields: [pdfRef(10)] });
    expect(openPdfFile(fileOf({ 1: '<</Type /Catalog>>' })).acroForm()).toBeNull();
    expect(openPdfFile(fileOf({ 1: '<</Type /Catalog>>' })).signatureFields()).toEqual([]);
  });

  it('lists signature fields with full names, values and widgets', () => {
    expect(form('4 0 R').signatureFields()).toEqual([
      { ref: pdfRef(5), name: 'Signer 1', signed: true, valueRef: pdfRef(9), widgets: [pdfRef(5)] },
      { ref: pdfRef(7), name: 'हास.a', signed: false, widgets: [pdfRef(7)] },
      { ref: pdfRef(11), name: 'हास.b', signed: false, widgets: [pdfRef(8)] },
    ]);
  });
});

describe('files pdf-lib writes', () => {
  async function manyPages(count: number, useObjectStreams: boolean): Promise<Buffer> {
    const doc = await PDFDocument.create();
    const sizes: Array<[number, number]> = [
      [595.28, 841.89],
      [612, 792],
      [842, 595],
      [200.5, 300.25],
    ];
    for (let i = 0; i < count; i++) {
      const page = doc.addPage(sizes[i % sizes.length]);
      page.setRotation(degrees((i % 4) * 90));
      page.drawText(`Page ${i + 1}`, { x: 20, y: 20, size: 12 });
    }
    doc.setTitle('Fünfhundert Seiten');
    return Buffer.from(await doc.save({ useObjectStreams }));
  }

  it.each([
    ['object streams', true],
    ['a classic table', false],
  ])('opens a 500-page file with %s and lists its pages', async (_, useObjectStreams) => {
    const buf = await manyPages(500, useObjectStreams);
    const pdf = openPdfFile(buf);
    expect(pdf.xrefKind).toBe(useObjectStreams ? 'stream' : 'table');
    const pages = pdf.pages();
    expect(pages).toHaveLength(500);
    expect(pages[0]).toMatchObject({ mediaBox: [0, 0, 595.28, 841.89], rotate: 0 });
    expect(pages[2]).toMatchObject({ mediaBox: [0, 0, 842, 595], rotate: 180 });
    expect(pages[499]).toMatchObject({ mediaBox: [0, 0, 200.5, 300.25], rotate: 270 });
    expect(new Set(pages.map((page) => page.ref.num)).size).toBe(500);
    const info = pdf.get(pdf.trailer, 'Info');
    expect(info.kind === 'dict' && decodeTextString(pdf.get(info, 'Title') as never)).toBe('Fünfhundert Seiten');
    // A page's content stream decodes on demand.
    expect(firstContentStream(pdf, pages[0]!.dict)).toMatch(/Tj/);
  });

  it('reads an incremental update written with serializeIndirect, as poppler does', async () => {
    const original = await manyPages(3, false);
    const pdf = openPdfFile(original);
    // Rotate page 2 and add an object: the changed page and the new object, a table, a trailer.
    const page = pdf.pages()[1]!;
    const changed = cloneValue(page.dict);
    changed.entries.set('Rotate', pdfNumber(270));
    changed.entries.set('PieceInfo', pdfRef(pdf.size));
    const parts: Buffer[] = [original, Buffer.from('\n')];
    let at = original.length + 1;
    const offsets: Array<[number, number]> = [];
    for (const [num, value] of [
      [page.ref.num, changed],
      [pdf.size, { kind: 'dict', entries: new Map([['Note', pdfName('Added')]]) } as PdfDict],
    ] as const) {
      const bytes = serializeIndirect(num, 0, value);
      offsets.push([num, at]);
      parts.push(bytes);
      at += bytes.length;
    }
    const table = offsets.map(([num, offset]) => `${num} 1\n${String(offset).padStart(10, '0')} 00000 n\r\n`).join('');
    parts.push(Buffer.from(`xref\n${table}trailer\n<</Size ${pdf.size + 1} /Root ${pdf.catalog.ref.num} 0 R /Prev ${pdf.startxref}>>\nstartxref\n${at}\n%%EOF\n`));
    const updated = Buffer.concat(parts);

    const reread = openPdfFile(updated);
    expect(reread.xref.sections).toHaveLength(2);
    expect(reread.size).toBe(pdf.size + 1);
    expect(reread.pages().map((p) => p.rotate)).toEqual([0, 270, 180]);
    expect(reread.lookup(pdf.size)).toEqual({ kind: 'dict', entries: new Map([['Note', pdfName('Added')]]) });
    const file = path.join(tmp, 'updated.pdf');
    fs.writeFileSync(file, updated);
    expect(execFileSync('pdfinfo', ['-f', '2', '-l', '2', file], { encoding: 'utf8' })).toMatch(/Page\s+2 rot:\s+270/);
  });
});

describe('encrypted files (made by qpdf)', () => {
  const variants: Array<[string, string[]]> = [
    ['RC4 40-bit (R2)', ['--allow-weak-crypto', '--encrypt', '', 'owner', '40', '--']],
    ['RC4 128-bit (R3)', ['--allow-weak-crypto', '--encrypt', '', 'owner', '128', '--use-aes=n', '--']],
    ['AES-128 (V4 R4)', ['--encrypt', '', 'owner', '128', '--use-aes=y', '--']],
    ['AES-128 (V4 R4), clear metadata', ['--encrypt', '', 'owner', '128', '--use-aes=y', '--cleartext-metadata', '--']],
    ['AES-256 (R5)', ['--allow-weak-crypto', '--encrypt', '', 'owner', '256', '--force-R5', '--']],
    ['AES-256 (R6)', ['--encrypt', '', 'owner', '256', '--']],
    ['AES-256 (R6), clear metadata', ['--encrypt', '', 'owner', '256', '--cleartext-metadata', '--']],
    ['AES-256 (R6) with a user password', ['--encrypt', 'secret', 'owner', '256', '--']],
    ['RC4 128-bit (R3) with a user password', ['--allow-weak-crypto', '--encrypt', 'secret', 'owner', '128', '--use-aes=n', '--']],
  ];

  let source: Buffer | undefined;
  async function encrypted(name: string, args: string[]): Promise<Buffer> {
    if (!source) {
      const doc = await PDFDocument.create();
      for (const size of [
        [300, 400],
        [500, 200],
      ] as Array<[number, number]>) {
        doc.addPage(size).drawText('secret text', { x: 10, y: 10 });
      }
      doc.setTitle('Geheim – ü');
      doc.catalog.set(PDFName.of('Lang'), PDFString.of('de'));
      source = Buffer.from(await doc.save({ useObjectStreams: false }));
    }
    const input = path.join(tmp, 'plain.pdf');
    fs.writeFileSync(input, source);
    const output = path.join(tmp, `${name.replace(/\W+/g, '-')}.pdf`);
    // Object streams make the page tree itself encrypted stream data.
    execFileSync('qpdf', ['--object-streams=generate', ...args, input, output]);
    return fs.readFileSync(output);
  }

  it.each(variants)('decrypts %s', async (name, args) => {
    const buf = await encrypted(name, args);
    const needsPassword = args.includes('secret');
    if (needsPassword) {
      expect(() => openPdfFile(buf)).toThrow(PdfEncryptionError);
      expect(() => openPdfFile(buf, { password: 'wrong' })).toThrow(expect.objectContaining({ reason: 'password' }));
    }
    for (const [password, openedWith] of [[needsPassword ? 'secret' : undefined, 'user'], ['owner', 'owner']] as const) {
      const pdf = openPdfFile(buf, password === undefined ? {} : { password });
      expect(pdf.encrypted).toBe(true);
      expect(pdf.security?.openedWith).toBe(openedWith);
      expect(pdf.pages().map((page) => page.mediaBox)).toEqual([
        [0, 0, 300, 400],
        [0, 0, 500, 200],
      ]);
      expect(pdf.get(pdf.catalog.dict, 'Lang')).toMatchObject({ bytes: Buffer.from('de') });
      const info = pdf.get(pdf.trailer, 'Info');
      expect(info.kind === 'dict' && decodeTextString(pdf.get(info, 'Title') as never)).toBe('Geheim – ü');
      expect(firstContentStream(pdf, pdf.pages()[0]!.dict)).toMatch(/Tj/);
      // What the writer will need: strings encrypted for a new object decrypt back.
      const security = pdf.security!;
      for (const target of ['string', 'stream'] as const) {
        const plain = Buffer.from(`new object's ${target}`);
        expect(security.decrypt(security.encrypt(plain, 42, 0, target), 42, 0, target)).toEqual(plain);
      }
    }
  });

  it('refuses a security handler it does not know', () => {
    const pdf = new TestPdfBuilder();
    writeOnePageBody(pdf);
    pdf.object(4, '<</Filter /FancyHandler /V 4 /R 4>>');
    pdf.xrefTable(pdf.entriesFor([1, 2, 3, 4]), '<</Size 5 /Root 1 0 R /Encrypt 4 0 R /ID [<00> <00>]>>');
    expect(() => openPdfFile(pdf.toBuffer())).toThrow(expect.objectContaining({ reason: 'unsupported', message: expect.stringMatching(/\/FancyHandler/) }));
  });
});
