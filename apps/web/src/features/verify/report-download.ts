import type { VerificationReport } from '@pakt/domain';
import { saveBlob } from '../../ui/save-blob';

/** The report's file name: the checked file's, without its extension, and nothing a file system refuses. */
export function reportFileName(fileName: string): string {
  const stem =
    fileName
      .replace(/\.pdf$/i, '')
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .replace(/^[.\s]+/, '')
      .trim()
      .slice(0, 120) || 'document';
  return `${stem}.verification.json`;
}

/**
 * The report exactly as the server gave it, so whoever receives it (a lawyer, the sender) reads
 * the same facts, hash included, that were shown here; it is made in the browser, not fetched again.
 */
export function downloadReport(report: VerificationReport): void {
  const blob = new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' });
  saveBlob(blob, reportFileName(report.fileName));
}
