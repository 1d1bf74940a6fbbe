/** A multipart/form-data body with one file in the field `file`, as a browser would send it. */
export function multipart(file: Buffer, filename: string, type = 'application/octet-stream') {
  const boundary = '----pakt-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
