/**
 * Shared by the signing tests only: a tenant CA and seal written to a temporary folder for the
 * command-line judges (openssl, pdfsig, certutil), and a minimal signed PDF made without the
 * production PDF writer, so these tests judge the signing module on its own.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import type { SealKeyAlgorithm } from '../platform/signing/algorithms';
import { maxCmsSize, signDigest } from '../platform/signing/cms';
import { createTenantCa, issueSealCertificate, type TenantCertificate } from '../platform/signing/tenant-ca';

export const KEY_ALGORITHMS: SealKeyAlgorithm[] = ['rsa-3072', 'ecdsa-p256'];

export interface SealFixture {
  dir: string;
  ca: TenantCertificate;
  seal: TenantCertificate;
  /** Paths of the PEM files in dir. */
  caPem: string;
  sealPem: string;
  sealKey: string;
  cleanup(): void;
}

export async function createSealFixture(keyAlgorithm: SealKeyAlgorithm, tenantName = 'Acme Ltd'): Promise<SealFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-signing-'));
  const ca = await createTenantCa({ tenantName, keyAlgorithm });
  const seal = await issueSealCertificate({ ca, tenantName });
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };
  return {
    dir,
    ca,
    seal,
    caPem: write('ca.pem', ca.certificatePem),
    sealPem: write('seal.pem', seal.certificatePem),
    sealKey: write('seal.key', seal.privateKeyPkcs8Pem),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs a command and returns what it printed; never throws, so tests can assert on failures. */
export function run(command: string, args: string[], input?: Buffer): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', input });
  if (result.error) throw result.error; // the tool is missing: a set-up problem, not a test result
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An NSS database in dir/nss that trusts the tenant CA for e-mail signing, as pdfsig checks. */
export function nssDatabaseTrusting(dir: string, caPemFile: string | null): string {
  const db = path.join(dir, `nss-${Math.random().toString(36).slice(2)}`);
  fs.mkdirSync(db);
  const created = run('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
  if (created.status !== 0) throw new Error(`certutil -N failed: ${created.stderr}`);
  if (caPemFile) {
    // "CT,C,C": a trusted CA for SSL, e-mail (NSS's usage for document signers) and object signing.
    const added = run('certutil', ['-A', '-d', `sql:${db}`, '-n', 'tenant-ca', '-t', 'CT,C,C', '-i', caPemFile]);
    if (added.status !== 0) throw new Error(`certutil -A failed: ${added.stderr}`);
  }
  return `sql:${db}`;
}

/**
 * A one-page PDF carrying one PAdES signature by the fixture's seal, made the way any signer
 * does it: save the file with a zero-filled /Contents and a /ByteRange placeholder wide enough
 * for the real numbers, patch /ByteRange in place, hash the bytes around /Contents, sign, and
 * write the CMS as hex into the placeholder. Saved without object streams so the signature
 * dictionary is plain text in the file, where byte offsets mean something.
 */
export async function buildSignedPdf(fixture: SealFixture, options: { signingTime?: Date } = {}): Promise<Buffer> {
  const chain = [fixture.ca.certificatePem];
  const contentsBytes = maxCmsSize({ certificate: fixture.seal.certificatePem, chain });
  const placeholder = 9_999_999_999; // ten digits: room for any offset of a file below 10 GB

  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Pakt signing test', { x: 72, y: 760, size: 18 });
  const signature = doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.CAdES.detached',
      ByteRange: [0, placeholder, placeholder, placeholder],
      Contents: PDFHexString.of('0'.repeat(contentsBytes * 2)),
      M: PDFString.fromDate(options.signingTime ?? new Date()),
    }),
  );
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      V: signature,
      T: PDFString.of('Pakt seal 1'),
      F: 132, // Print + Locked
      P: page.ref,
    }),
  );
  page.node.set(PDFName.of('Annots'), doc.context.obj([widget]));
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ SigFlags: 3, Fields: [widget] }));
  const pdf = Buffer.from(await doc.save({ useObjectStreams: false }));

  const byteRangeText = `[ 0 ${placeholder} ${placeholder} ${placeholder} ]`;
  const byteRangeAt = pdf.indexOf(byteRangeText, 0, 'latin1');
  const contentsStart = pdf.indexOf('/Contents <', 0, 'latin1') + '/Contents '.length; // at '<'
  const contentsEnd = pdf.indexOf('>', contentsStart, 'latin1') + 1; // after '>'
  if (byteRangeAt < 0 || contentsStart < '/Contents '.length || contentsEnd - contentsStart !== contentsBytes * 2 + 2) {
    throw new Error('placeholders not found in the saved PDF');
  }
  const byteRange = [0, contentsStart, contentsEnd, pdf.length - contentsEnd];
  pdf.write(`[${byteRange.join(' ')}]`.padEnd(byteRangeText.length, ' '), byteRangeAt, 'latin1');

  const digest = createHash('sha256').update(pdf.subarray(0, contentsStart)).update(pdf.subarray(contentsEnd)).digest();
  const cms = signDigest({ digest, key: fixture.seal.privateKeyPkcs8Pem, certificate: fixture.seal.certificatePem, chain });
  pdf.write(cms.toString('hex').padEnd(contentsBytes * 2, '0'), contentsStart + 1, 'latin1');
  return pdf;
}
