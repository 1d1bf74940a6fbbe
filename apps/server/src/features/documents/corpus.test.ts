import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DocumentSummary, type TokenGrant, downloadDocument, uploadDocument } from '@pakt/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { CORPUS } from '../../test/corpus';
import { inject } from '../../test/inject';

/**
 * Every file of the shared corpus of real-world PDFs goes through the real upload: accepted with
 * the page count, sizes and rotations poppler's pdfinfo reports, or refused with -59 and a message
 * that says why. Nothing in between.
 */
const files = fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')).sort() : [];

/** Refused, and the words the message must contain. */
const REFUSED: Record<string, RegExp> = {
  'bad-header-only-44b.pdf': /not a readable PDF/,
  'broken-no-xref-no-trailer.pdf': /not a readable PDF/,
  'not-a-pdf-png.pdf': /named \.pdf but its content is a PNG image/,
  'not-a-pdf-text.pdf': /named \.pdf but its content is of no known kind/,
  'enc-userpw-aes256-view.pdf': /protected by a password/,
  'enc-userpw-rc4-openpassword.pdf': /protected by a password/,
  // Certified "no changes allowed": refused at upload, not at the first signature (issue 20).
  'signed-certified-p1-encrypted.pdf': /certified with "no changes allowed"/,
  'signed-pades-certified-p1-16p.pdf': /certified with "no changes allowed"/,
};

interface PopplerPage {
  width: number;
  height: number;
  rotate: number;
}

/** What poppler says of each page: the visible (crop) box size and /Rotate. */
function pdfinfoPages(file: string): PopplerPage[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', file], { encoding: 'utf8' });
  const pages: PopplerPage[] = [];
  for (const match of out.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    pages[Number(match[1]) - 1] = { width: Number(match[2]), height: Number(match[3]), rotate: 0 };
  }
  for (const match of out.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) pages[Number(match[1]) - 1]!.rotate = Number(match[2]);
  return pages;
}

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  const { user, tenant } = await makeMember(t.database.db, { role: 'custodian' });
  const grant: TokenGrant = await signIn(t.app, user.email, GOOD_PASSWORD);
  headers = { ...bearer(grant), 'x-tenant-id': tenant.id };
});
afterAll(() => t.close());

describe('the real-world corpus', () => {
  it('is there to test against', () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  it.concurrent.each(files)('%s is accepted as poppler reads it, or refused with the reason', async (name) => {
    const res = await inject(t.app, uploadDocument, { headers, file: { bytes: fs.readFileSync(path.join(CORPUS, name)), name, type: 'application/pdf' } });
    const refused = REFUSED[name];
    if (refused) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: -59, message: expect.stringMatching(refused) });
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    const document = DocumentSummary.parse(res.json().data);
    const expected = pdfinfoPages(path.join(CORPUS, name));
    expect(document.pageCount).toBe(expected.length);
    document.pages.forEach((page, index) => {
      const want = expected[index]!;
      expect(page.width, `${name} page ${index + 1} width`).toBeCloseTo(want.width, 1);
      expect(page.height, `${name} page ${index + 1} height`).toBeCloseTo(want.height, 1);
      expect(page.rotate, `${name} page ${index + 1} rotation`).toBe(want.rotate);
    });
    // Stored as uploaded: a PDF is never rewritten (its signatures must stay valid).
    const stored = await inject(t.app, downloadDocument, { params: { documentId: document.documentId }, headers });
    expect(stored.rawPayload.equals(fs.readFileSync(path.join(CORPUS, name)))).toBe(true);
    expect(document.encrypted).toBe(name.startsWith('enc-'));
  });
});
