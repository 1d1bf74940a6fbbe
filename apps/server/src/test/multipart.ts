const BOUNDARY = '----pakt-test-boundary';

/** A file part of a multipart body: its bytes, the name the browser gives it, and its type. */
export interface MultipartFile {
  readonly bytes: Buffer | string;
  readonly name: string;
  readonly type?: string;
}

/**
 * A multipart/form-data body as a browser sends it: the text fields first, then the file (if any)
 * in the field `file`. The servers read the fields before the file, so the order matters.
 */
export function multipartForm(fields: Record<string, string>, file?: MultipartFile) {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

/** A multipart/form-data body with one file in the field `file` and no other field. */
export function multipart(file: Buffer, filename: string, type = 'application/octet-stream') {
  return multipartForm({}, { bytes: file, name: filename, type });
}
