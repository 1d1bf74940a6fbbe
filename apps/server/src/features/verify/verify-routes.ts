import path from 'node:path';
import { invalidInput, verificationApi } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { clientGoneSignal } from '../../http/client-gone';
import { route } from '../../http/route';
import { parserQueueOf } from '../documents';
import { loadVerificationRecord } from '../epaks';
import { sealedReport } from './report-pdf';
import { verifyDocument } from './verify-document';

/** /verify's calls: public, spending the public rate budget; the check is bounded like an upload. */
export function registerVerifyRoutes(app: FastifyInstance, ctx: AppContext) {
  const workRoot = path.join(ctx.config.dataDir, 'work');
  const limits = { maxBytes: ctx.config.documents.maxBytes, parsers: parserQueueOf(ctx) };

  route(app, ctx, verificationApi.verifyDocument, async ({ request, reply }) => {
    // The size limit is ours to enforce with our own message; busboy only stops runaway streams.
    const file = await request.file({ limits: { fileSize: limits.maxBytes + 1, files: 1 } });
    if (!file) throw invalidInput('Send the PDF as the multipart field "file".');
    const report = await verifyDocument({ db: ctx.database.db, vault: ctx.vault, workRoot, fileName: file.filename, stream: file.file, limits, signal: clientGoneSignal(reply), now: new Date() });
    request.log.info({ sha256: report.sha256, verdict: report.verdict, signatures: report.signatures.length, pakt: report.pakt !== null }, 'document verified');
    return report;
  });

  // The same check, answered as a PDF report sealed by the install.
  route(app, ctx, verificationApi.verifyDocumentReport, async ({ request, reply }) => {
    const file = await request.file({ limits: { fileSize: limits.maxBytes + 1, files: 1 } });
    if (!file) throw invalidInput('Send the PDF as the multipart field "file".');
    const now = new Date();
    const report = await verifyDocument({ db: ctx.database.db, vault: ctx.vault, workRoot, fileName: file.filename, stream: file.file, limits, signal: clientGoneSignal(reply), now });
    const pdf = await sealedReport({ db: ctx.database.db, vault: ctx.vault, keyAlgorithm: ctx.config.sealKeyAlgorithm, report, now });
    request.log.info({ sha256: report.sha256, verdict: report.verdict }, 'verification report sealed');
    const stem = report.fileName.replace(/\.pdf$/i, '').replace(/[^\p{L}\p{N} ._-]+/gu, '_') || 'document';
    return { contentType: 'application/pdf', size: pdf.length, fileName: `${stem} - verification report.pdf`, stream: pdf };
  });

  // A certificate's QR code: the record behind a token this install made (404 for any other).
  route(app, ctx, verificationApi.verifyQrData, async ({ query }) => loadVerificationRecord({ db: ctx.database.db, vault: ctx.vault, token: query.data }));
}
