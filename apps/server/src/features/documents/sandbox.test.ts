import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, INSPECT_SANDBOX_LIMITS, inspectPdf, WHOLE_FILE_INSPECTION_SWITCH } from './sandbox';
import { CORPUS } from '../../test/corpus';

const BOMB = `${CORPUS}huge-8400pt-jbig2-bomb.pdf`;
const BOOK = `${CORPUS}pages-352-freeculture.pdf`;

/**
 * A valid one-page PDF of `megabytes` MB: most of it one image stream of zeros, left as a hole in
 * a sparse file so the test writes almost nothing to disk; `filler` puts text in it at a file offset.
 */
function writeLargePdf(file: string, megabytes: number, filler?: { at: number; text: string }): void {
  const fd = fs.openSync(file, 'w');
  let offset = 0;
  const offsets: number[] = [];
  const write = (text: string) => {
    offset += fs.writeSync(fd, Buffer.from(text, 'latin1'), 0, undefined, offset);
  };
  const object = (id: number, body: string) => {
    offsets[id] = offset;
    write(`${id} 0 obj\n${body}\nendobj\n`);
  };
  write('%PDF-1.7\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Big 4 0 R >> >> >>');
  const length = megabytes * 1024 * 1024;
  offsets[4] = offset;
  write(`4 0 obj\n<< /Type /XObject /Subtype /Image /Width ${length} /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${length} >>\nstream\n`);
  const data = offset;
  if (filler) fs.writeSync(fd, Buffer.from(filler.text, 'latin1'), 0, undefined, filler.at);
  offset = data + length;
  write('\nendstream\nendobj\n');
  const xref = offset;
  write(`xref\n0 5\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  write(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  fs.closeSync(fd);
}

const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-large-'));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the sandbox that parses untrusted files', () => {
  it('reads the decompression bomb without decoding its image: one 8400 pt page', async () => {
    const result = await inspectPdf(BOMB, 10);
    expect(result).toMatchObject({ ok: true, pageCount: 1, pages: [{ width: 8400, height: 8400, rotate: 0 }] });
  });

  it('stops a child that takes too long, and says so', async () => {
    const result = await inspectPdf(BOOK, 1000, { ...DEFAULT_SANDBOX_LIMITS, timeoutMs: 100 });
    expect(result).toEqual({ ok: false, reason: 'tooLarge', message: expect.stringMatching(/more time/) });
  });

  it.skipIf(!fs.existsSync('/proc/self/statm'))('stops a child whose resident memory passes the limit', async () => {
    // Node alone needs more than 20 MB resident, so the watchdog must fire.
    const result = await inspectPdf(BOOK, 1000, { ...DEFAULT_SANDBOX_LIMITS, rssMb: 20 });
    expect(result).toEqual({ ok: false, reason: 'tooLarge', message: expect.stringMatching(/more memory/) });
  });

  it.skipIf(!fs.existsSync('/proc/self/statm'))('reads a PDF larger than its memory limit by ranges, where reading it whole is stopped', async () => {
    const folder = scratch();
    const file = path.join(folder, 'large.pdf');
    writeLargePdf(file, 200);
    // Node and pdf.js alone take some 60-90 MB; the file is more than the whole limit.
    const limits = { ...INSPECT_SANDBOX_LIMITS, rssMb: 180 };
    try {
      expect(await inspectPdf(file, 10, limits)).toEqual({ ok: true, pageCount: 1, pages: [{ x: 0, y: 0, width: 595, height: 842, rotate: 0 }], encrypted: false, formFields: [] });
      vi.stubEnv(WHOLE_FILE_INSPECTION_SWITCH, '1');
      expect(await inspectPdf(file, 10, limits)).toEqual({ ok: false, reason: 'tooLarge', message: expect.stringMatching(/more memory .*\(180 MB\)/) });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('finds /Encrypt anywhere in the file, also across the slices it is read in', async () => {
    const folder = scratch();
    const file = path.join(folder, 'mentions-encrypt.pdf');
    // The scan reads 1 MB at a time: the word starts 3 bytes before the first slice ends.
    writeLargePdf(file, 2, { at: 1024 * 1024 - 3, text: '/Encrypt' });
    const plain = path.join(folder, 'plain.pdf');
    writeLargePdf(plain, 2);
    try {
      expect(await inspectPdf(file, 10)).toMatchObject({ ok: true, encrypted: true });
      expect(await inspectPdf(plain, 10)).toMatchObject({ ok: true, encrypted: false });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers a failure, not an exception, when the child dies of its heap limit', async () => {
    const result = await inspectPdf(BOOK, 1000, { ...DEFAULT_SANDBOX_LIMITS, heapMb: 4 });
    expect(result.ok).toBe(false);
  });

  it('answers in full when the answer is longer than the pipe holds at once (thousands of form fields)', async () => {
    // The child exits only once its answer has gone out; an answer cut at 64 KB would refuse the
    // upload as unreadable.
    const pdf = await PDFDocument.create();
    const form = pdf.getForm();
    for (let page = 0; page < 40; page++) {
      const sheet = pdf.addPage([595, 842]);
      for (let row = 0; row < 50; row++) {
        form.createTextField(`page${page}.line${row}.a-rather-long-field-name-to-fill-the-answer`).addToPage(sheet, { x: 40, y: 20 + row * 16, width: 200, height: 12 });
      }
    }
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-fields-'));
    const file = path.join(folder, 'fields.pdf');
    fs.writeFileSync(file, await pdf.save());
    try {
      const result = await inspectPdf(file, 100);
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.formFields).toHaveLength(2000);
      expect(JSON.stringify(result).length).toBeGreaterThan(64 * 1024);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
