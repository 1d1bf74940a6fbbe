/** How far the bytes of an upload have gone; `total` is null when the browser cannot tell. */
export interface UploadProgress {
  readonly loaded: number;
  readonly total: number | null;
}

export interface ProgressRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly body: FormData;
  readonly signal?: AbortSignal | undefined;
}

/** Sends one request, telling `onProgress` as its body goes, and answers as fetch would. */
export type ProgressFetch = (url: string, request: ProgressRequest, onProgress: (progress: UploadProgress) => void) => Promise<Response>;

/** Statuses whose Response may not carry a body (the constructor throws otherwise). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    try {
      headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
    } catch {
      // A header the Headers class refuses to hold is not one the client reads.
    }
  }
  return headers;
}

/**
 * fetch cannot report the bytes of a request body as they leave (request streams give no
 * progress, and need HTTP/2), so an upload that shows its progress goes by XMLHttpRequest, whose
 * upload events can. It answers a Response, so the client reads the answer exactly as it reads
 * fetch's. A failure to connect rejects with a TypeError and an abort with an AbortError, as
 * fetch does.
 */
export function xhrFetch(createXhr: () => XMLHttpRequest = () => new XMLHttpRequest()): ProgressFetch {
  return (url, request, onProgress) =>
    new Promise<Response>((resolve, reject) => {
      if (request.signal?.aborted) return reject(new DOMException('The upload was aborted.', 'AbortError'));
      const xhr = createXhr();
      xhr.open(request.method, url);
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      // Bytes, whatever the answer is: JSON and binary answers are both read from the Response
      // (which takes its content type from the headers). An ArrayBuffer rather than a Blob: any
      // Response implementation reads one.
      xhr.responseType = 'arraybuffer';
      xhr.upload.addEventListener('progress', (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : null }));
      const onAbort = () => xhr.abort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => request.signal?.removeEventListener('abort', onAbort);
      xhr.addEventListener('load', () => {
        settle();
        const body = NULL_BODY_STATUSES.has(xhr.status) ? null : (xhr.response as ArrayBuffer | null);
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: headersOf(xhr.getAllResponseHeaders()) }));
      });
      xhr.addEventListener('error', () => {
        settle();
        reject(new TypeError('Network request failed'));
      });
      xhr.addEventListener('abort', () => {
        settle();
        reject(new DOMException('The upload was aborted.', 'AbortError'));
      });
      xhr.send(request.body);
    });
}
