import { defineEndpoint } from '@pakt/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import en from '../i18n/en.json';
import { jsonResponse, signedInSession, stubApi } from '../test/fake-api';
import { renderApp } from '../test/render-app';
import { ApiError, createApiClient, SIGNED_IN_ELSEWHERE_PATH } from './client';
import { createSessionStore } from './session-store';

const REFRESH_PATH = '/msbapi/public/token/refresh';

const listThings = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/things',
  access: 'tenant',
  summary: 'a guarded test endpoint',
  response: z.object({ things: z.array(z.string()) }),
});

/** A server that refuses every guarded call with `code` (401) and every refresh with `refreshCode`. */
function setup(code: number, refreshCode = code) {
  const fetchMock = vi.fn<typeof fetch>(async (input) =>
    String(input) === REFRESH_PATH
      ? jsonResponse({ code: refreshCode, data: null, message: 'refresh refused' }, 401)
      : jsonResponse({ code, data: null, message: 'token refused' }, 401),
  );
  const navigate = vi.fn<(to: string) => void>();
  const session = createSessionStore({ initial: signedInSession() });
  const client = createApiClient({ fetch: fetchMock, navigate, session, log: () => {}, getLanguage: () => 'en', now: () => 1_000_000 });
  const callsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url) === path);
  return { client, navigate, session, callsTo };
}

async function codeOf(work: Promise<unknown>): Promise<number> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).code;
}

describe('session options (issue 17 item 9)', () => {
  it('signs out at once when a sign-in elsewhere ended the session (-32): no refresh, the login page says why', async () => {
    const { client, navigate, session, callsTo } = setup(-32);
    expect(await codeOf(client.callApi(listThings))).toBe(-32);
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(callsTo(listThings.path)).toHaveLength(1);
    expect(session.get()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith(SIGNED_IN_ELSEWHERE_PATH);
  });

  it('signs out at once when the session is tied to another address (-26): no refresh, unauthorized', async () => {
    const { client, navigate, session, callsTo } = setup(-26);
    expect(await codeOf(client.callApi(listThings))).toBe(-26);
    expect(callsTo(REFRESH_PATH)).toHaveLength(0);
    expect(session.get()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=unauthorized');
  });

  it('tries one refresh for a malformed token (-37), and when that fails too, stops: no loop', async () => {
    const { client, navigate, session, callsTo } = setup(-37, -5);
    expect(await codeOf(client.callApi(listThings))).toBe(-37);
    expect(callsTo(REFRESH_PATH)).toHaveLength(1);
    expect(callsTo(listThings.path)).toHaveLength(1);
    expect(session.get()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/accessdenied?status=expired');
  });

  it('shows on the login page that the person signed in somewhere else', async () => {
    stubApi({});
    renderApp(SIGNED_IN_ELSEWHERE_PATH);
    expect((await screen.findByRole('alert')).textContent).toBe(en.signedInElsewhere);
  });
});
