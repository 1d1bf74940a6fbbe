import type { AliveData, PublicConfiguration } from '@pakt/domain';
import { vi } from 'vitest';

export const aliveData: AliveData = {
  status: 'UP',
  version: '0.1.0-test',
  database: 'pglite',
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
