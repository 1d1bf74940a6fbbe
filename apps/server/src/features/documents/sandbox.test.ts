import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, inspectPdf } from './sandbox';
import { CORPUS } from '../../test/corpus';

const BOMB = `${CORPUS}huge-8400pt-jbig2-bomb.pdf`;
const BOOK = `${CORPUS}pages-352-freeculture.pdf`;

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
