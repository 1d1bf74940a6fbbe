/**
 * The PDF reader refuses what it cannot read exactly instead of guessing: a signature is appended
 * to the very bytes we read, so a "repaired" view of a damaged file would be a view no other PDF
 * software shares. Every refusal is one of these errors, with a message that says what and where.
 */
export class PdfStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfStructureError';
  }
}

/**
 * The file is encrypted and cannot be decrypted: it needs a password we were not given, or uses a
 * security handler or algorithm we do not implement.
 */
export class PdfEncryptionError extends Error {
  constructor(
    message: string,
    readonly reason: 'password' | 'unsupported',
  ) {
    super(message);
    this.name = 'PdfEncryptionError';
  }
}
