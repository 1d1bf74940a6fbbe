import type { PublicVerificationRecord } from '@pakt/domain';

/**
 * The SHA-256 of a file, as lowercase hex, computed in the browser: the point of a QR code's
 * record is that the holder can match their copy without sending it anywhere. The bytes go in as
 * a Uint8Array view because WebCrypto accepts any BufferSource, and an ArrayBuffer from another
 * realm (jsdom's, in tests) fails Node's own type check where a view does not.
 */
export async function fileSha256(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(await file.arrayBuffer()));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Which of the record's documents (1-based, in ePak order) has this SHA-256, or null for none. The
 * record's hashes are the final documents', so a match means "this file, as it stands at the end".
 */
export function matchingDocument(sha256: string, record: PublicVerificationRecord): number | null {
  const wanted = sha256.toLowerCase();
  const index = record.documents.findIndex((document) => document.sha256 === wanted);
  return index === -1 ? null : index + 1;
}
