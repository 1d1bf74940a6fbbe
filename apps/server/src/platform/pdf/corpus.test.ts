import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PdfEncryptionError, PdfStructureError } from './errors';
import { openPdfFile, type PdfBox, type PdfFile } from './pdf-file';
import { CORPUS } from '../../test/corpus';

/**
 * The shared corpus of real-world PDFs against poppler: every file pdfinfo reads must open with
 * the same pages, boxes and rotations, and every in-use cross-reference entry must resolve. Files
 * pdfinfo refuses must be refused too, with a PdfStructureError or PdfEncryptionError.
 */
const files = fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')).sort() : [];

/**
 * Damaged files poppler reads only by rebuilding the cross-reference table from a scan of the
 * file. We refuse to guess (see xref.ts), so these are refused with the reason.
 */
const REFUSED_THOUGH_POPPLER_REBUILDS: Record<string, RegExp> = {
  // Every offset in the file is 19 bytes too large (bytes lost from its start).
  'broken-xref-offset-word.pdf': /startxref points to offset 45022, where there is no cross-reference section/,
  // The PDF Association's header-relative sample, with its binary comment line mangled by a text
  // conversion: offsets are 4 bytes off even counted from the header.
  'leading-junk-pdf20.pdf': /startxref points to offset 4248, where there is no cross-reference section/,
};

/** The passwords MANIFEST.md gives for the files that need one. */
const PASSWORDS: Record<string, string> = {
  'enc-userpw-rc4-openpassword.pdf': 'openpassword',
  'enc-userpw-aes256-view.pdf': 'view',
};

interface PopplerPage {
  width: number;
  height: number;
  rotate: number;
  mediaBox: number[];
  cropBox: number[];
}

/** pdfinfo's page list, or undefined when poppler cannot open the file. */
function pdfinfo(file: string, password?: string): PopplerPage[] | undefined {
  const args = password ? ['-upw', password] : [];
  let summary: string;
  try {
    summary = execFileSync('pdfinfo', [...args, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  const count = Number(/^Pages:\s+(\d+)/m.exec(summary)?.[1] ?? 0);
  if (count === 0) return [];
  const out = execFileSync('pdfinfo', [...args, '-f', '1', '-l', String(count), '-box', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const pages = Array.from({ length: count }, (): PopplerPage => ({ width: NaN, height: NaN, rotate: NaN, mediaBox: [], cropBox: [] }));
  const page = (n: string) => pages[Number(n) - 1]!;
  for (const m of out.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) Object.assign(page(m[1]!), { width: Number(m[2]), height: Number(m[3]) });
  for (const m of out.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) page(m[1]!).rotate = Number(m[2]);
  for (const m of out.matchAll(/^Page\s+(\d+) (MediaBox|CropBox):\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/gm)) {
    page(m[1]!)[m[2] === 'MediaBox' ? 'mediaBox' : 'cropBox'] = [m[3], m[4], m[5], m[6]].map(Number);
  }
  return pages;
}

/** Numbers of in-use entries whose objects do not resolve, with why. */
function unresolvable(pdf: PdfFile): string[] {
  const failures: string[] = [];
  for (const [num, entry] of pdf.xref.entries) {
    if (entry.type === 'f') continue;
    try {
      pdf.lookup(num);
    } catch (error) {
      failures.push(`object ${num}: ${(error as Error).message}`);
    }
  }
  return failures;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 0.01;
const boxNear = (ours: PdfBox, theirs: number[]) => theirs.length === 4 && ours.every((value, i) => near(value, theirs[i]!));

function expectSamePages(name: string, pdf: PdfFile, expected: PopplerPage[]) {
  const pages = pdf.pages();
  expect(pages.length, `${name} page count`).toBe(expected.length);
  const mismatches: string[] = [];
  pages.forEach((page, i) => {
    const want = expected[i]!;
    const [x1, y1, x2, y2] = page.cropBox;
    if (!near(x2 - x1, want.width) || !near(y2 - y1, want.height)) mismatches.push(`page ${i + 1} size ${x2 - x1} x ${y2 - y1}, poppler ${want.width} x ${want.height}`);
    if (page.rotate !== want.rotate) mismatches.push(`page ${i + 1} rotation ${page.rotate}, poppler ${want.rotate}`);
    if (!boxNear(page.mediaBox, want.mediaBox)) mismatches.push(`page ${i + 1} MediaBox ${page.mediaBox.join(' ')}, poppler ${want.mediaBox.join(' ')}`);
    if (!boxNear(page.cropBox, want.cropBox)) mismatches.push(`page ${i + 1} CropBox ${page.cropBox.join(' ')}, poppler ${want.cropBox.join(' ')}`);
  });
  expect(mismatches, name).toEqual([]);
}

describe('the real-world corpus', () => {
  it('is there to test against', () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  it.each(files)('%s opens as poppler reads it, or is refused', (name) => {
    const file = path.join(CORPUS, name);
    const buf = fs.readFileSync(file);
    const expected = pdfinfo(file);
    const refusal = REFUSED_THOUGH_POPPLER_REBUILDS[name];
    if (!expected || refusal) {
      let error: unknown;
      try {
        openPdfFile(buf).pages();
      } catch (caught) {
        error = caught;
      }
      expect(error, `${name} should be refused`).toBeDefined();
      expect(error instanceof PdfStructureError || error instanceof PdfEncryptionError, String(error)).toBe(true);
      if (refusal) expect((error as Error).message).toMatch(refusal);
      return;
    }
    const pdf = openPdfFile(buf);
    expectSamePages(name, pdf, expected);
    expect(unresolvable(pdf), name).toEqual([]);
    expect(pdf.encrypted).toBe(name.startsWith('enc-') || name === 'signed-certified-p1-encrypted.pdf');
  });

  it.each(Object.entries(PASSWORDS))('%s needs its password, and opens with it', (name, password) => {
    const file = path.join(CORPUS, name);
    if (!fs.existsSync(file)) return;
    const buf = fs.readFileSync(file);
    expect(() => openPdfFile(buf)).toThrow(expect.objectContaining({ reason: 'password', message: expect.stringMatching(/protected by a password/) }));
    expect(() => openPdfFile(buf, { password: 'not it' })).toThrow(/password is wrong/);
    const pdf = openPdfFile(buf, { password });
    expect(pdf.security?.openedWith).toBe('user');
    expectSamePages(name, pdf, pdfinfo(file, password)!);
    expect(unresolvable(pdf), name).toEqual([]);
  });

  it('opens the RC4 file with its owner password too', () => {
    const file = path.join(CORPUS, 'enc-userpw-rc4-openpassword.pdf');
    if (!fs.existsSync(file)) return;
    const pdf = openPdfFile(fs.readFileSync(file), { password: 'permissionpassword' });
    expect(pdf.security?.openedWith).toBe('owner');
    expect(pdf.pages()).toHaveLength(1);
  });

  it('finds the signature fields of the signed files', () => {
    const expected: Record<string, { count: number; signed: number }> = {
      'form-empty-signature-field.pdf': { count: 1, signed: 0 },
      'signed-pkcs7-1sig.pdf': { count: 1, signed: 1 },
      'signed-pkcs7-2sigs.pdf': { count: 2, signed: 2 },
      'signed-pades-b.pdf': { count: 1, signed: 1 },
      'signed-pades-lta.pdf': { count: 3, signed: 3 },
      'signed-pades-certified-p1-16p.pdf': { count: 1, signed: 1 },
      'signed-certified-p1-encrypted.pdf': { count: 1, signed: 1 },
      'plain-1p-pdftex.pdf': { count: 0, signed: 0 },
      'form-libreoffice.pdf': { count: 0, signed: 0 },
    };
    for (const [name, want] of Object.entries(expected)) {
      const file = path.join(CORPUS, name);
      if (!fs.existsSync(file)) continue;
      const fields = openPdfFile(fs.readFileSync(file)).signatureFields();
      expect({ name, count: fields.length, signed: fields.filter((field) => field.signed).length }).toEqual({ name, ...want });
      for (const field of fields) {
        expect(field.name, name).not.toBe('');
        expect(field.widgets.length, `${name} ${field.name}`).toBeGreaterThan(0);
      }
    }
  });

  it('reads a signature value of an encrypted file in clear, /Contents untouched', () => {
    const file = path.join(CORPUS, 'signed-certified-p1-encrypted.pdf');
    if (!fs.existsSync(file)) return;
    const pdf = openPdfFile(fs.readFileSync(file));
    const [field] = pdf.signatureFields();
    const value = pdf.lookup(field!.valueRef!);
    expect(value.kind).toBe('dict');
    if (value.kind !== 'dict') return;
    const filter = pdf.get(value, 'Filter');
    expect(filter).toEqual({ kind: 'name', value: 'Adobe.PPKLite' });
    // /Contents is a DER-encoded CMS SignedData: a SEQUENCE, so it starts with 0x30 in clear.
    const contents = pdf.get(value, 'Contents');
    expect(contents.kind === 'string' && contents.bytes[0]).toBe(0x30);
  });
});
