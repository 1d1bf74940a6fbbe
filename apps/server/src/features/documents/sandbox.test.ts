import fs from 'node:fs';
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
});
