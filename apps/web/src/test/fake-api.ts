import {
  DEFAULT_PASSWORD_CONFIG,
  type AliveData,
  type PublicConfiguration,
  type SessionUser,
  type TokenGrant,
  type UserInfo,
} from '@pakt/domain';
import { vi } from 'vitest';
import type { Session } from '../api/session-store';

export const aliveData: AliveData = {
  status: 'UP',
  version: '0.1.0-test',
  database: 'embedded',
  serverTime: '2025-01-15T10:30:00.000Z',
};

export const configurationData: PublicConfiguration = {
  productName: 'Pakt',
  version: '0.1.0-test',
  clientType: 'MSB3',
  supportedLanguages: ['en', 'hi'],
  defaultLanguage: 'en',
  features: { signup: false, teamRooms: false, pdfCompare: false, features: false, newViewSwitch: false },
  zoom: { min: 0.6, max: 3, step: 0.3, allowZoom: false, defaultRenderMode: 'fitToWidth' },
  login: { rememberMe: false, loginImages: false },
  // Screens say mail "was sent" only when it is delivered; tests of the outbox wording override it.
  mailDelivery: 'smtp',
};

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Replaces the global fetch with one that answers the public endpoints as a healthy server would. */
export function stubPublicApi(configuration: PublicConfiguration = configurationData) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.startsWith('/msbapi/public/alive')) return jsonResponse({ code: 1, data: aliveData });
    if (url.startsWith('/msbapi/public/configuration')) return jsonResponse({ code: 1, data: configuration });
    return jsonResponse({ code: -1, data: null, message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const TENANT_ACME = '0b6f1c3e-8d2a-4c5b-9e7f-1a2b3c4d5e6f';
export const TENANT_GLOBEX = '7c9d2e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f';

export const adminUser: SessionUser = {
  id: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d',
  email: 'asha@example.com',
  firstName: 'Asha',
  middleName: null,
  lastName: 'Rao',
  type: 'internal',
  status: 'enabled',
  isRoot: false,
  totpEnabled: false,
  locale: null,
  tenants: [
    { tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'admin', userLoginType: 'Email' },
    { tenantUuid: TENANT_GLOBEX, tenantName: 'Globex', userRole: 'signer', userLoginType: 'Email' },
  ],
};

export const rootUser: SessionUser = {
  id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  email: 'root@example.com',
  firstName: 'Ravi',
  middleName: null,
  lastName: 'Iyer',
  type: 'internal',
  status: 'enabled',
  isRoot: true,
  totpEnabled: false,
  locale: null,
  tenants: [],
};

export function tokenGrant(user: SessionUser = adminUser, tokens: { access?: string; refresh?: string } = {}): TokenGrant {
  return {
    tokenType: 'Bearer',
    accessToken: tokens.access ?? 'access-1',
    expiresIn: 900,
    // The web app asks for the refresh token as an httpOnly cookie: absent from the JSON then.
    ...(tokens.refresh ? { refreshToken: tokens.refresh } : {}),
    refreshExpiresIn: 86400,
    user,
  };
}

/** The profile (UserInfo) of a session user, as GET /users/profile answers it. */
export function userInfoOf(user: SessionUser = adminUser, overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    id: user.id,
    email: user.email,
    status: user.status,
    type: user.type,
    title: null,
    firstName: user.firstName,
    middleName: user.middleName,
    lastName: user.lastName,
    phone: null,
    company: null,
    department: null,
    timeZone: null,
    locale: user.locale,
    createdOn: '2025-01-01T00:00:00.000Z',
    totpEnabled: user.totpEnabled,
    hasPhoto: false,
    ...overrides,
  };
}

export function signedInSession(user: SessionUser = adminUser, overrides: Partial<Session> = {}): Session {
  return {
    accessToken: 'access-1',
    expiresAt: Date.now() + 900_000,
    user,
    tenantUuid: user.tenants[0]?.tenantUuid ?? null,
    ...overrides,
  };
}

export type FakeRoute = (request: { url: string; method: string; headers: Headers; body: unknown }) =>
  | Response
  | Promise<Response>
  | undefined;

export const errorResponse = (code: number, status: number, message = 'failed') =>
  jsonResponse({ code, data: null, message }, status);

/** A request body as a test wants to read it: JSON and forms as objects, multipart parts by name. */
function decodeBody(raw: unknown): unknown {
  if (raw instanceof URLSearchParams) return Object.fromEntries(raw);
  if (raw instanceof FormData) return Object.fromEntries(raw);
  if (typeof raw === 'string') return JSON.parse(raw);
  return undefined;
}

/**
 * A global fetch answering the public endpoints as a healthy server would, plus whatever the
 * test's routes answer (first match wins; `undefined` passes the request on). The body is decoded
 * from JSON, form or multipart encoding so tests can assert what a page sent.
 */
export function stubApi(routes: Record<string, FakeRoute> = {}, configuration: PublicConfiguration = configurationData) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const body = decodeBody(init?.body);
    for (const [key, route] of Object.entries(routes)) {
      const [routeMethod, path] = key.split(' ');
      if (routeMethod !== method || url.split('?')[0] !== path) continue;
      const answer = await route({ url, method, headers, body });
      if (answer) return answer;
    }
    if (url.startsWith('/msbapi/public/alive')) return jsonResponse({ code: 1, data: aliveData });
    if (url.startsWith('/msbapi/public/configuration')) return jsonResponse({ code: 1, data: configuration });
    if (url.startsWith('/msbapi/public/passwordconfig/')) return jsonResponse({ code: 1, data: DEFAULT_PASSWORD_CONFIG });
    return errorResponse(-1, 404, 'Not found');
  });
  vi.stubGlobal('fetch', fetchMock);
  /** The requests made to one route, decoded. */
  const requestsTo = (method: string, path: string) =>
    fetchMock.mock.calls
      .filter(([url, init]) => (init?.method ?? 'GET') === method && String(url).split('?')[0] === path)
      .map(([url, init]) => ({ url: String(url), headers: new Headers(init?.headers), body: decodeBody(init?.body) }));
  return { fetchMock, requestsTo };
}
