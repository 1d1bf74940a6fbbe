/**
 * The decisive check: a real PDF carrying a PAdES signature from this module, judged by poppler's
 * pdfsig (NSS underneath), the way a reader of the document would check it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_ALGORITHMS, buildSignedPdf, createSealFixture, nssDatabaseTrusting, run, type SealFixture } from '../../test/signing-support';

describe.each(KEY_ALGORITHMS)('a PAdES signature checked by pdfsig (%s)', (keyAlgorithm) => {
  let f: SealFixture;
  let pdfFile: string;
  let pdf: Buffer;
  beforeAll(async () => {
    f = await createSealFixture(keyAlgorithm);
    pdf = await buildSignedPdf(f);
    pdfFile = path.join(f.dir, 'signed.pdf');
    fs.writeFileSync(pdfFile, pdf);
  });
  afterAll(() => f.cleanup());

  it('is a valid ETSI.CAdES.detached signature over the whole document', () => {
    const out = run('pdfsig', ['-nssdir', nssDatabaseTrusting(f.dir, null), pdfFile]).stdout;
    expect(out).toContain('Signature Validation: Signature is Valid.');
    // poppler names the SubFilter; later versions may call it PAdES.
    expect(out).toMatch(/Signature Type: (ETSI\.CAdES\.detached|PAdES)/);
    expect(out).toContain('Signing Hash Algorithm: SHA-256');
    expect(out).toContain('Signer Certificate Common Name: Acme Ltd document seal');
    expect(out).toContain('Total document signed');
    // Untrusted root: the signature holds, the issuer is simply unknown to this NSS database.
    expect(out).toContain("Certificate Validation: Certificate issuer isn't Trusted.");
  });

  it('is trusted where the tenant CA is trusted', () => {
    const out = run('pdfsig', ['-nssdir', nssDatabaseTrusting(f.dir, f.caPem), pdfFile]).stdout;
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toContain('Certificate Validation: Certificate is Trusted.');
  });

  it('fails once a signed byte changes', () => {
    const tampered = Buffer.from(pdf);
    // The header's version digit: inside the first signed range, and the file still parses.
    expect(tampered.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    tampered.write('6', 7, 'latin1');
    const tamperedFile = path.join(f.dir, 'tampered.pdf');
    fs.writeFileSync(tamperedFile, tampered);
    const out = run('pdfsig', ['-nssdir', nssDatabaseTrusting(f.dir, f.caPem), tamperedFile]).stdout;
    expect(out).not.toContain('Signature is Valid.');
    expect(out).toContain('Signature Validation: Digest Mismatch.');
  });
});
