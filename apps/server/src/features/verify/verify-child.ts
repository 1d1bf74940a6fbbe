/**
 * The verifier's child process (verify-document.ts starts it, bounded like the upload sandbox):
 * everything here parses a stranger's file, so none of it runs in the server. Bundled to
 * dist/verify-child.mjs (scripts/build-server.mjs); input: the job as JSON in argv[2]; output:
 * one JSON line on stdout (verify-protocol.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PdfEncryptionError, PdfStructureError } from '../../platform/pdf/errors';
import { analysePdf } from '../../platform/pdf/verify-pdf';
import { withChangedRegions } from './change-regions';
import { type AnalysisResult, VerifyJob } from './verify-protocol';

function answer(result: AnalysisResult): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

try {
  const job = VerifyJob.parse(JSON.parse(process.argv[2] ?? '{}'));
  const bytes = fs.readFileSync(job.input);
  const analysis = analysePdf(bytes);
  // The revisions' prefixes and renders go beside the input, in the request's scratch folder.
  answer({ ok: true, ...analysis, revisions: withChangedRegions(bytes, analysis.revisions, path.dirname(job.input)) });
} catch (error) {
  if (error instanceof PdfEncryptionError) answer({ ok: false, reason: 'password', message: 'The file is protected by a password: it cannot be verified.' });
  else if (error instanceof PdfStructureError) answer({ ok: false, reason: 'invalid', message: `This is not a PDF that can be read: ${error.message}`.slice(0, 500) });
  else answer({ ok: false, reason: 'invalid', message: 'The file could not be read as a PDF.' });
}
