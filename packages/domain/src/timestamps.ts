const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Spec §9's timestamp format, yyyy-MM-dd HH:mm:ss, in UTC and saying so ("2026-11-27 20:55:16
 * UTC"): what a signature's appearance, the signing certificate and the audit trail print, so a
 * reader anywhere sees one unambiguous time.
 */
export function formatUtcTimestamp(at: Date): string {
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} UTC`;
}
