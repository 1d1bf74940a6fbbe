import { formatUtcTimestamp, type VerificationReport } from '@pakt/domain';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Db } from '../../platform/db/database';
import { textAppearance } from '../../platform/sealing/appearance';
import { sealRevision } from '../../platform/sealing/seal';
import type { SealKeyAlgorithm } from '../../platform/signing/algorithms';
import { maxCmsSize, signDigest } from '../../platform/signing/cms';
import { ensureInstallSeal, INSTALL_SEAL_NAME } from '../../platform/signing/install-seal';
import type { KeyVault } from '../../platform/signing/key-vault';
import { toWinAnsi } from '../epaks';

/**
 * The verifier's report as a PDF (issue 20), sealed with the install's own seal
 * (platform/signing/install-seal.ts): what the file showed when this install checked it, in a
 * form that cannot be changed unseen. Drawn in Helvetica (WinAnsi: other scripts are
 * transliterated or shown as "?", as on the certificate of completion); its numbers are the JSON
 * report's.
 */

const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const WIDTH = PAGE[0] - 2 * MARGIN;
const SEAL_BOX = { width: 220, height: 54 };
const ACCENT = rgb(0.13, 0.25, 0.5);
const MUTED = rgb(0.4, 0.43, 0.5);
const VERDICTS: Record<VerificationReport['verdict'], string> = {
  valid: 'Valid: every signature is intact, and whatever was added after a signature is allowed.',
  changed: 'Changed after signing: the signatures are intact, but something not allowed came after a signature.',
  invalid: 'Not valid: at least one signature does not hold.',
  unsigned: 'Not signed: the file carries no digital signature.',
  unknown: 'Cannot be checked here: a signature is of a kind this install cannot check.',
};

class Lines {
  page: PDFPage;
  y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont; mono: PDFFont },
  ) {
    this.page = doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  private room(height: number) {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage(PAGE);
      this.y = PAGE[1] - MARGIN;
    }
  }

  /** Text wrapped to the width (by words, or by characters for hashes and names of fields). */
  write(text: string, options: { size?: number; font?: 'regular' | 'bold' | 'mono'; color?: ReturnType<typeof rgb>; indent?: number; gap?: number } = {}) {
    const size = options.size ?? 9.5;
    const font = this.fonts[options.font ?? 'regular'];
    const width = WIDTH - (options.indent ?? 0);
    const words = toWinAnsi(text).split(/(\s+)/);
    const lines: string[] = [];
    let line = '';
    for (const word of words) {
      const next = line + word;
      if (font.widthOfTextAtSize(next, size) <= width) line = next;
      else {
        if (line.trim()) lines.push(line.trimEnd());
        line = word.trimStart();
        // A word wider than the line (a hash) is cut by characters.
        while (font.widthOfTextAtSize(line, size) > width) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
    }
    if (line.trim()) lines.push(line.trimEnd());
    for (const text of lines) {
      this.room(size * 1.35);
      this.page.drawText(text, { x: MARGIN + (options.indent ?? 0), y: this.y - size, size, font, color: options.color ?? rgb(0.1, 0.1, 0.12) });
      this.y -= size * 1.35;
    }
    this.y -= options.gap ?? 2;
  }

  heading(text: string) {
    this.room(40);
    this.y -= 8;
    this.write(text, { size: 12.5, font: 'bold', color: ACCENT, gap: 4 });
  }

  /** Room for the seal's box at the end; answers where it goes. */
  sealBox(): { pageIndex: number; rect: [number, number, number, number] } {
    this.room(SEAL_BOX.height + 16);
    const top = this.y - 12;
    return { pageIndex: this.doc.getPageCount() - 1, rect: [MARGIN, top - SEAL_BOX.height, MARGIN + SEAL_BOX.width, top] };
  }
}

async function drawReport(report: VerificationReport) {
  const doc = await PDFDocument.create();
  doc.setTitle(toWinAnsi(`Verification report - ${report.fileName}`));
  doc.setAuthor(INSTALL_SEAL_NAME);
  doc.setCreator('Pakt');
  doc.setProducer('Pakt');
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold), mono: await doc.embedFont(StandardFonts.Courier) };
  const w = new Lines(doc, fonts);
  w.write('Verification report', { size: 20, font: 'bold', color: ACCENT, gap: 6 });
  w.write(`Checked ${formatUtcTimestamp(new Date(report.checkedOn))} by ${INSTALL_SEAL_NAME}.`, { color: MUTED, gap: 8 });
  w.write(VERDICTS[report.verdict], { size: 12, font: 'bold', gap: 6 });

  w.heading('The file');
  w.write(`Name: ${report.fileName}`);
  w.write(`Size: ${report.size} bytes`);
  w.write(`SHA-256: ${report.sha256}`, { font: 'mono', size: 8.5 });
  if (report.certificationLevel) w.write(`Certified by its author, DocMDP level ${report.certificationLevel}.`);

  if (report.warnings.length > 0) {
    w.heading('Warnings');
    for (const warning of report.warnings) w.write(`${warning.kind}: ${warning.detail}`, { color: rgb(0.6, 0.1, 0.1) });
  }

  if (report.pakt) {
    w.heading('A Pakt document of this install');
    w.write(`Organisation: ${report.pakt.tenantName}`);
    w.write(`Subject: ${report.pakt.subject}`);
    w.write(`Status: ${report.pakt.status}${report.pakt.completedOn ? `, completed ${formatUtcTimestamp(new Date(report.pakt.completedOn))}` : ''}`);
    w.write(`Signers: ${report.pakt.signers.join(', ') || 'none recorded'}`);
    w.write(`This file is ${report.pakt.matches === 'current' ? 'the document as it stands now' : 'an earlier version of the document'}; the activity log ${report.pakt.auditChainValid ? 'is intact and records it' : 'does not hold or does not record it'}.`);
  }

  w.heading(`Signatures (${report.signatures.length})`);
  if (report.signatures.length === 0) w.write('None.', { color: MUTED });
  report.signatures.forEach((signature, index) => {
    w.write(`${index + 1}. ${signature.signerName ?? 'Unnamed signer'}: ${signature.integrity}${signature.problem ? ` (${signature.problem})` : ''}`, { font: 'bold' });
    const anchor = signature.anchor === 'thisInstall' ? `this install (${signature.anchorTenant ?? ''})` : signature.anchor === 'other' ? 'someone else: this install cannot say whether to trust them' : 'nobody: no certificate could be read';
    const lines = [
      `Field: ${signature.fieldName}${signature.signedAt ? `; signed at ${formatUtcTimestamp(new Date(signature.signedAt))} (as its signer wrote)` : ''}`,
      `Certificate: ${signature.subject ?? '-'}; issued by ${signature.issuer ?? '-'}; vouched for by ${anchor}`,
      signature.coversWholeFile ? 'Covers the whole file.' : `Covers the file up to revision ${signature.revision ?? '?'}; ${signature.unsignedBytesAfter} bytes in ${signature.revisionsAfter} revision(s) came after it.`,
    ];
    for (const line of lines) w.write(line, { indent: 12, size: 9 });
  });

  w.heading(`Revisions (${report.revisions.length})`);
  for (const revision of report.revisions) {
    w.write(`Revision ${revision.number}${revision.signedBy ? `, ended by the signature "${revision.signedBy}"` : ''}`, { font: 'bold' });
    if (revision.changes.length === 0) w.write(revision.number === 1 ? 'The first version of the file.' : 'No change found.', { indent: 12, size: 9, color: MUTED });
    for (const change of revision.changes) w.write(`${change.allowed ? 'Allowed' : 'NOT ALLOWED'}: ${change.detail}`, { indent: 12, size: 9, color: change.allowed ? undefined : rgb(0.6, 0.1, 0.1) });
  }
  w.heading('What this report cannot say');
  w.write('It judges the bytes of the file: whether each signature still covers what was signed and what came after it. It does not check revocation or whether to trust a certificate issued elsewhere. See docs/verification.md of Pakt.', { size: 8.5, color: MUTED });
  const seal = w.sealBox();
  return { pdf: Buffer.from(await doc.save({ useObjectStreams: false })), seal };
}

/** The report as a PDF sealed by the install (its seal made on first use). */
export async function sealedReport(options: { db: Db; vault: KeyVault; keyAlgorithm?: SealKeyAlgorithm; report: VerificationReport; now: Date }): Promise<Buffer> {
  const { pdf, seal } = await drawReport(options.report);
  const install = await ensureInstallSeal({ db: options.db, vault: options.vault, ...(options.keyAlgorithm ? { keyAlgorithm: options.keyAlgorithm } : {}) });
  const chain = [install.caCertificatePem];
  const sealed = await sealRevision({
    source: pdf,
    signature: {
      pageIndex: seal.pageIndex,
      rect: seal.rect,
      appearance: textAppearance({ width: SEAL_BOX.width, height: SEAL_BOX.height, rotate: 0, border: true, fontSize: 9, lines: [`Sealed by ${INSTALL_SEAL_NAME}`, formatUtcTimestamp(options.now), `SHA-256 ${options.report.sha256.slice(0, 16)}...`] }),
      fieldName: 'Pakt verification seal',
      signerName: INSTALL_SEAL_NAME,
      reason: 'Verification report',
      signedAt: options.now,
    },
    cmsMaxSize: maxCmsSize({ certificate: install.sealCertificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: install.sealPrivateKeyPem, certificate: install.sealCertificatePem, chain }),
  });
  return Buffer.from(sealed.bytes);
}
