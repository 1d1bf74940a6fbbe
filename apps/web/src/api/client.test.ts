import { authenticate, defineEndpoint, getUserPhoto, publicAlive, uploadUserPhoto, type AliveData, type UserInfo } from '@pakt/domain';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { adminUser, aliveData, jsonResponse, signedInSession, TENANT_ACME, userInfoOf } from '../test/fake-api';
import { ApiError, createApiClient, TENANT_HEADER } from './client';
import { createSessionStore, type Session } from './session-store';

const signedIn: Session = signedInSession(undefined, { accessToken: 'access-123' });

const renameEpak = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/epaks/:epakId/title',
  access: 'tenant',
  summary: 'test endpoint with every request part',
  params: z.object({ epakId: z.string() }),
  query: z.object({ notify: z.boolean().optional(), tags: z.array(z.string()).optional() }),
  body: z.object({ title: z.string() }),
  response: z.object({ epakId: z.string(), title: z.string() }),
});

function setup(options: { session?: Session | null; respond?: () => Response | Promise<Response> } = {}) {
  const fetchMock = vi.fn<typeof fetch>(async () => (options.respond ? options.respond() : jsonResponse({ code: 1, data: aliveData })));
  const navigate = vi.fn<(to: string) => void>();
  const session = createSessionStore({ initial: options.session ?? null });
  const client = createApiClient({ fetch: fetchMock, navigate, session, getLanguage: () => 'hi' });
  const request = () => {
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    return { url: String(url), init: init ?? {}, headers: new Headers(init?.headers) };
  };
  return { client, fetchMock, navigate, session, request };
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('callApi success', () => {
  it('unwraps and returns the validated data of the envelope', async () => {
    const { client, request, navigate } = setup();
    const data = await client.callApi(publicAlive);
    expect(data).toEqual(aliveData);
    expect(request().url).toBe('/msbapi/public/alive');
    expect(request().init.method).toBe('GET');
    expect(request().init.body).toBeUndefined();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('sends the current language and no credentials while logged out', async () => {
    const { client, request } = setup();
    await client.callApi(publicAlive);
    expect(request().headers.get('Accept-Language')).toBe('hi');
    expect(request().headers.get('Authorization')).toBeNull();
    expect(request().headers.get(TENANT_HEADER)).toBeNull();
  });

  it('sends the bearer token and tenant of the session', async () => {
    const { client, request } = setup({ session: signedIn });
    await client.callApi(publicAlive);
    expect(request().headers.get('Authorization')).toBe('Bearer access-123');
    expect(request().headers.get(TENANT_HEADER)).toBe(TENANT_ACME);
  });

  it('sends sign-in form-encoded, as the spec prescribes for authenticate', async () => {
    const { client, request } = setup({ respond: () => jsonResponse({ code: -16, data: null, message: 'wrong' }, 401) });
    await client
      .callApi(authenticate, { body: { username: 'a@example.com', password: 'p&ss=1', client_id: 'MSB3' } }, { failures: 'caller' })
      .catch(() => undefined);
    expect(request().headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(String(request().init.body)).toBe('username=a%40example.com&password=p%26ss%3D1&client_id=MSB3');
  });

  it('fills path parameters, encodes the query and sends the body as JSON', async () => {
    const { client, request } = setup({
      respond: () => jsonResponse({ code: 1, data: { epakId: 'a/b', title: 'Lease' } }),
    });
    const data = await client.callApi(renameEpak, {
      params: { epakId: 'a/b' },
      query: { notify: true, tags: ['x', 'y z'] },
      body: { title: 'Lease' },
    });
    expect(data).toEqual({ epakId: 'a/b', title: 'Lease' });
    expect(request().url).toBe('/msbapi/v1/epaks/a%2Fb/title?notify=true&tags=x&tags=y+z');
    expect(request().init.method).toBe('PUT');
    expect(request().init.body).toBe('{"title":"Lease"}');
    expect(request().headers.get('Content-Type')).toBe('application/json');
  });

  it('rejects data that breaks the endpoint schema, without redirecting', async () => {
    const { client, navigate } = setup({
      respond: () => jsonResponse({ code: 1, data: { ...aliveData, status: 'DOWN', version: 7 } }),
    });
    const error = await failureOf(client.callApi(publicAlive));
    expect(error.code).toBe(-136);
    expect(error.httpStatus).toBe(200);
    expect(error.issues?.map((issue) => issue.path).sort()).toEqual(['status', 'version']);
    expect(navigate).not.toHaveBeenCalled();
  });
});

/** A tiny PNG's first bytes: enough for the client, which never looks inside. */
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

const photoOwner = { params: { userId: adminUser.id } };

const userInfo: UserInfo = userInfoOf(adminUser, { hasPhoto: true });

const uploadWithNote = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/uploads',
  access: 'user',
  summary: 'test multipart endpoint with fields besides the file',
  bodyEncoding: 'multipart',
  body: z.object({ note: z.string(), pages: z.number().optional() }),
  response: z.object({ stored: z.boolean() }),
});

describe('callApi uploads (multipart)', () => {
  it('sends the files as multipart form data with the bearer token, leaving the boundary to the browser', async () => {
    const { client, request } = setup({ session: signedIn, respond: () => jsonResponse({ code: 1, data: userInfo }) });
    const photo = new File([PNG_BYTES], 'me.png', { type: 'image/png' });
    const data = await client.callApi(uploadUserPhoto, { ...photoOwner, files: { file: photo } });
    expect(data).toEqual(userInfo);
    expect(request().url).toBe(`/msbapi/v1/users/${adminUser.id}/photo`);
    expect(request().init.method).toBe('POST');
    expect(request().headers.get('Authorization')).toBe('Bearer access-123');
    // A Content-Type set here would lack the boundary and the server could not read the parts.
    expect(request().headers.get('Content-Type')).toBeNull();
    const form = request().init.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const sent = form.get('file') as File;
    expect(sent.name).toBe('me.png');
    expect(sent.type).toBe('image/png');
    expect(sent.size).toBe(PNG_BYTES.length);
  });

  it('puts the body fields in the form before the files', async () => {
    const { client, request } = setup({ session: signedIn, respond: () => jsonResponse({ code: 1, data: { stored: true } }) });
    await client.callApi(uploadWithNote, { body: { note: 'lease', pages: 3 }, files: { attachment: new Blob(['x']) } });
    const form = request().init.body as FormData;
    expect([...form.keys()]).toEqual(['note', 'pages', 'attachment']);
    expect(form.get('note')).toBe('lease');
    expect(form.get('pages')).toBe('3');
  });

  it('refuses files for an endpoint that is not multipart, without sending anything', async () => {
    const { client, fetchMock } = setup({ session: signedIn });
    await expect(client.callApi(publicAlive, { files: { file: new Blob(['x']) } })).rejects.toThrow(/not a multipart endpoint/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a refused upload (413, -142) as an ApiError without redirecting', async () => {
    const { client, navigate } = setup({
      session: signedIn,
      respond: () => jsonResponse({ code: -142, data: null, message: 'The photo is larger than 1 MB.' }, 413),
    });
    const error = await failureOf(client.callApi(uploadUserPhoto, { ...photoOwner, files: { file: new Blob([PNG_BYTES]) } }));
    expect({ code: error.code, httpStatus: error.httpStatus }).toEqual({ code: -142, httpStatus: 413 });
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('callApi binary answers', () => {
  it('resolves to the bytes as a Blob with the content type the server named', async () => {
    const { client, request } = setup({
      session: signedIn,
      respond: () => new Response(PNG_BYTES, { status: 200, headers: { 'Content-Type': 'image/png' } }),
    });
    const photo = await client.callApi(getUserPhoto, photoOwner);
    expect(photo.type).toBe('image/png');
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG_BYTES);
    expect(request().headers.get('Authorization')).toBe('Bearer access-123');
    expect(request().headers.get('Accept')).toBe('*/*');
  });

  it('reads a failure of a binary endpoint from its JSON envelope', async () => {
    const { client, navigate } = setup({
      session: signedIn,
      respond: () => jsonResponse({ code: -1, data: null, message: 'Not found' }, 404),
    });
    const error = await failureOf(client.callApi(getUserPhoto, photoOwner, { failures: 'caller' }));
    expect({ code: error.code, httpStatus: error.httpStatus, message: error.message }).toEqual({ code: -1, httpStatus: 404, message: 'Not found' });
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('callApi types', () => {
  // Checked by `tsc -p apps/web`, which includes tests: a wrong call below fails the type check.
  it('requires exactly the request parts an endpoint declares and returns its data type', () => {
    const { client } = setup();
    const calls = () => {
      // @ts-expect-error params and body are declared, so they are required
      void client.callApi(renameEpak);
      // @ts-expect-error epakId is a string
      void client.callApi(renameEpak, { params: { epakId: 1 }, body: { title: 'x' } });
      // @ts-expect-error publicAlive declares no body
      void client.callApi(publicAlive, { body: { x: 1 } });
      expectTypeOf(client.callApi(publicAlive)).resolves.toEqualTypeOf<AliveData>();
      // A binary endpoint resolves to the bytes, not to the server's stream description.
      expectTypeOf(client.callApi(getUserPhoto, photoOwner)).resolves.toEqualTypeOf<Blob>();
      expectTypeOf(client.callApi(uploadUserPhoto, { ...photoOwner, files: { file: new Blob() } })).resolves.toEqualTypeOf<UserInfo>();
      expectTypeOf(client.callApi(renameEpak, { params: { epakId: 'e' }, body: { title: 't' } })).resolves.toEqualTypeOf<{
        epakId: string;
        title: string;
      }>();
    };
    expect(calls).toBeTypeOf('function');
  });
});

describe('callApi failures', () => {
  it('turns an error envelope into an ApiError with code, status, message and issues', async () => {
    const { client, navigate } = setup({
      respond: () =>
        jsonResponse(
          { code: -6, data: null, message: 'Invalid input', issues: [{ path: 'title', message: 'Required' }] },
          400,
        ),
    });
    const error = await failureOf(client.callApi(publicAlive));
    expect({ code: error.code, httpStatus: error.httpStatus, message: error.message, issues: error.issues }).toEqual({
      code: -6,
      httpStatus: 400,
      message: 'Invalid input',
      issues: [{ path: 'title', message: 'Required' }],
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('reports a non-JSON 500 as a system error and sends the user to servererror', async () => {
    const { client, navigate } = setup({ respond: () => new Response('<html>Bad gateway</html>', { status: 500 }) });
    const error = await failureOf(client.callApi(publicAlive));
    expect(error.code).toBe(-2);
    expect(error.httpStatus).toBe(500);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=servererror');
  });

  it.each([
    { http: 500, code: -2, to: '/accessdenied?status=servererror', clears: false },
    { http: 403, code: -11, to: '/accessdenied?status=forbidden', clears: false },
    { http: 403, code: -88, to: '/accessdenied?status=licenseexpired', clears: false },
    { http: 401, code: -5, to: '/accessdenied?status=unauthorized', clears: true },
    { http: 401, code: -7, to: '/accessdenied?status=unauthorized', clears: true },
    { http: 401, code: -26, to: '/accessdenied?status=unauthorized', clears: true },
    { http: 401, code: -37, to: '/accessdenied?status=unauthorized', clears: true },
    // On a public call no refresh is tried; an expired token there ends the session.
    { http: 401, code: -27, to: '/accessdenied?status=expired', clears: true },
    { http: 403, code: -73, to: '/changepassword', clears: false },
    { http: 401, code: -200, to: '/authenticate', clears: false },
  ])('HTTP $http with code $code goes to $to', async ({ http, code, to, clears }) => {
    const { client, navigate, session } = setup({
      session: signedIn,
      respond: () => jsonResponse({ code, data: null, message: 'failed' }, http),
    });
    const error = await failureOf(client.callApi(publicAlive));
    expect(error.code).toBe(code);
    expect(error.httpStatus).toBe(http);
    expect(navigate).toHaveBeenCalledExactlyOnceWith(to);
    expect(session.get()).toEqual(clears ? null : signedIn);
  });

  it('leaves the user in place on an ordinary failure such as 404', async () => {
    const { client, navigate, session } = setup({
      session: signedIn,
      respond: () => jsonResponse({ code: -1, data: null, message: 'Not found' }, 404),
    });
    const error = await failureOf(client.callApi(publicAlive));
    expect(error.httpStatus).toBe(404);
    expect(navigate).not.toHaveBeenCalled();
    expect(session.get()).toEqual(signedIn);
  });

  it('reports a network failure as HTTP status 0 and does not redirect', async () => {
    const { client, navigate } = setup({
      respond: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await failureOf(client.callApi(publicAlive));
    expect(error.httpStatus).toBe(0);
    expect(error.message).toBe('Failed to fetch');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('passes an abort through untouched so cancelled queries stay silent', async () => {
    const { client, navigate } = setup({
      respond: () => {
        throw new DOMException('The operation was aborted.', 'AbortError');
      },
    });
    await expect(client.callApi(publicAlive, undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('uses a navigation handler installed after creation', async () => {
    const { client, navigate } = setup({ respond: () => jsonResponse({ code: -11, data: null, message: 'no' }, 403) });
    const later = vi.fn<(to: string) => void>();
    client.setNavigationHandler(later);
    await failureOf(client.callApi(publicAlive));
    expect(navigate).not.toHaveBeenCalled();
    expect(later).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=forbidden');
  });
});
