import { uploadDocument } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { adminUser, jsonResponse, signedInSession } from '../test/fake-api';
import { ApiError, createApiClient, type UploadProgress } from './client';
import { xhrFetch } from './client-upload';
import { createSessionStore } from './session-store';

const summary = {
  documentId: '2f3e4d5c-6b7a-4891-a2b3-c4d5e6f7a801',
  name: 'lease.pdf',
  sourceFormat: 'pdf',
  size: 1000,
  sha256: 'a'.repeat(64),
  pageCount: 1,
  pages: [{ width: 595, height: 842, x: 0, y: 0, rotate: 0 }],
  encrypted: false,
  formFieldCount: 0,
  signatureState: null,
  createdOn: '2025-03-05T10:00:00.000Z',
};

/** An XMLHttpRequest that records what it was given and answers as the test says, with progress first. */
class ScriptedXhr extends EventTarget {
  static answer: { status: number; body: string; progress: [number, number][] } | 'network' = { status: 200, body: '', progress: [] };
  static last: ScriptedXhr | null = null;
  readonly upload = new EventTarget();
  readonly sentHeaders = new Headers();
  method = '';
  url = '';
  body: unknown = null;
  responseType = '';
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;

  constructor() {
    super();
    ScriptedXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.sentHeaders.set(name, value);
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\nx-odd: yes\r\n';
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  send(body: unknown) {
    this.body = body;
    const answer = ScriptedXhr.answer;
    queueMicrotask(() => {
      if (answer === 'network') return this.dispatchEvent(new Event('error'));
      for (const [loaded, total] of answer.progress) {
        this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: total > 0 }));
      }
      this.status = answer.status;
      this.response = new TextEncoder().encode(answer.body).buffer;
      this.dispatchEvent(new Event('load'));
    });
  }
}

function setup() {
  const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse({ code: 1, data: summary }));
  const session = createSessionStore({ initial: signedInSession(adminUser, { accessToken: 'access-9' }) });
  const client = createApiClient({
    fetch: fetchMock,
    navigate: vi.fn(),
    session,
    getLanguage: () => 'en',
    progressFetch: xhrFetch(() => new ScriptedXhr() as unknown as XMLHttpRequest),
  });
  return { client, fetchMock };
}

describe('uploads with progress', () => {
  it('goes by XMLHttpRequest, telling each step of the bytes sent, and reads the answer as fetch would', async () => {
    ScriptedXhr.answer = { status: 200, body: JSON.stringify({ code: 1, data: summary }), progress: [[400, 1000], [1000, 1000]] };
    const { client, fetchMock } = setup();
    const seen: UploadProgress[] = [];
    const file = new File(['%PDF'], 'lease.pdf', { type: 'application/pdf' });
    const document = await client.callApi(uploadDocument, { files: { file } }, { onUploadProgress: (progress) => seen.push(progress) });
    expect(document.documentId).toBe(summary.documentId);
    expect(seen).toEqual([
      { loaded: 400, total: 1000 },
      { loaded: 1000, total: 1000 },
    ]);
    expect(fetchMock).not.toHaveBeenCalled();
    const xhr = ScriptedXhr.last!;
    expect([xhr.method, xhr.url]).toEqual(['POST', '/msbapi/v1/documents']);
    expect(xhr.sentHeaders.get('Authorization')).toBe('Bearer access-9');
    // The browser writes the multipart boundary itself.
    expect(xhr.sentHeaders.get('Content-Type')).toBeNull();
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('reports a refusal as an ApiError with its code, and an unknown total as null', async () => {
    ScriptedXhr.answer = { status: 422, body: JSON.stringify({ code: -59, data: null, message: 'damaged' }), progress: [[10, 0]] };
    const { client } = setup();
    const seen: UploadProgress[] = [];
    const failure = await client.callApi(uploadDocument, { files: { file: new Blob(['x']) } }, { failures: 'caller', onUploadProgress: (progress) => seen.push(progress) }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect({ code: (failure as ApiError).code, httpStatus: (failure as ApiError).httpStatus, message: (failure as ApiError).message }).toEqual({ code: -59, httpStatus: 422, message: 'damaged' });
    expect(seen).toEqual([{ loaded: 10, total: null }]);
  });

  it('tells an unreachable server as status 0, like fetch', async () => {
    ScriptedXhr.answer = 'network';
    const { client } = setup();
    const failure = await client.callApi(uploadDocument, { files: { file: new Blob(['x']) } }, { failures: 'caller', onUploadProgress: () => undefined }).catch((error: unknown) => error);
    expect((failure as ApiError).httpStatus).toBe(0);
  });

  it('keeps to fetch when no progress is asked for', async () => {
    const { client, fetchMock } = setup();
    ScriptedXhr.last = null;
    await client.callApi(uploadDocument, { files: { file: new Blob(['x']) } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(ScriptedXhr.last).toBeNull();
  });
});
