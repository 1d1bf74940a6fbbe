import { refreshToken } from '@pakt/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { DOC_A, epakOf, EPAK_ID, ME, paths, stubCeremony } from '../../test/ceremony-fixtures';
import { LINK_SESSION_KEY } from './link-session';
import { adminUser, errorResponse, jsonResponse, signedInSession, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

const TOKEN = 'pks_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const EXCHANGE = `/msbapi/v2/epaks/${TOKEN}/exchange`;
const LINK_TENANT = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99';

const exchanged = (access = 'link-access-1'): FakeRoute => () =>
  jsonResponse({
    code: 1,
    data: { accessToken: access, expiresIn: 900, ePakId: EPAK_ID, tenantId: LINK_TENANT, user: { userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d02', email: ME, firstName: 'Asha', lastName: 'Rao' } },
  });

describe('/emailsign', () => {
  it('exchanges the link and shows the ceremony with the link session, leaving a signed-in session alone', async () => {
    // Someone else is signed in in this browser: their session must neither be used nor replaced.
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] }, { [`GET ${EXCHANGE}`]: exchanged() });
    renderApp(`/emailsign?token=${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });

    const exchange = requestsTo('GET', EXCHANGE);
    expect(exchange).toHaveLength(1);
    expect(exchange[0]!.headers.get('Authorization')).toBeNull();
    const read = requestsTo('GET', paths.epak)[0]!;
    expect(read.headers.get('Authorization')).toBe('Bearer link-access-1');
    expect(read.headers.get('X-Tenant-Id')).toBe(LINK_TENANT);
    // The app's own session is untouched, and the link's calls never ask for the refresh cookie.
    expect(sessionStore.get()?.accessToken).toBe('access-1');
    expect(read.headers.get('X-Pakt-Token-Transport')).toBeNull();
    expect(exchange[0]!.headers.get('X-Pakt-Token-Transport')).toBeNull();
    expect(JSON.parse(window.sessionStorage.getItem(LINK_SESSION_KEY)!).accessToken).toBe('link-access-1');

    // Its own frame: the language selector, and none of the app's menu or account widgets.
    expect(screen.getByRole('combobox', { name: en.shell.language })).toBeTruthy();
    expect(screen.queryByRole('button', { name: en.shell.accountMenu })).toBeNull();
    expect(screen.getByRole('button', { name: en.signing.actions.sign })).toBeTruthy();
  });

  it('reuses the link session of this tab on a reload instead of exchanging again', async () => {
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] }, { [`GET ${EXCHANGE}`]: exchanged() });
    const first = renderApp(`/emailsign?token=${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    first.unmount();
    renderApp(`/emailsign?token=${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(requestsTo('GET', EXCHANGE)).toHaveLength(1);
  });

  it('exchanges the link again when its session has run out, and retries the call', async () => {
    let reads = 0;
    const { requestsTo, state } = stubCeremony(epakOf(), { [DOC_A]: [] }, {
      [`GET ${EXCHANGE}`]: () => exchanged(`link-access-${requestsTo('GET', EXCHANGE).length}`)({} as never),
      [`GET ${paths.epak}`]: () => {
        reads += 1;
        return reads === 1 ? errorResponse(-27, 401, 'Token expired') : jsonResponse({ code: 1, data: state.epak });
      },
    });
    renderApp(`/emailsign?token=${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(requestsTo('GET', EXCHANGE)).toHaveLength(2);
    expect(requestsTo('GET', paths.epak).map((request) => request.headers.get('Authorization'))).toEqual(['Bearer link-access-1', 'Bearer link-access-2']);
    // A link has no refresh token: nothing asks the server for one.
    expect(requestsTo('POST', refreshToken.path)).toHaveLength(0);
  });

  it('says plainly that a link no longer valid (-42) cannot be used', async () => {
    const { requestsTo } = stubCeremony(epakOf(), {}, { [`GET ${EXCHANGE}`]: () => errorResponse(-42, 401, 'invalid easy-sign link') });
    renderApp(`/emailsign?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: en.signing.link.invalidTitle })).toBeTruthy();
    expect(screen.getByText(en.signing.link.invalidBody)).toBeTruthy();
    expect(requestsTo('GET', paths.epak)).toHaveLength(0);
  });

  it('does not even try a malformed or missing token', async () => {
    const { fetchMock } = stubCeremony(epakOf(), {});
    renderApp('/emailsign?token=short');
    expect(await screen.findByRole('heading', { name: en.signing.link.invalidTitle })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/exchange'))).toHaveLength(0);
  });

  it('offers to try again when the server cannot be reached', async () => {
    let attempts = 0;
    stubCeremony(epakOf(), { [DOC_A]: [] }, {
      [`GET ${EXCHANGE}`]: (request) => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('Failed to fetch');
        return exchanged()(request);
      },
    });
    renderApp(`/emailsign?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: en.signing.retry }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Office lease' })).toBeTruthy());
  });
});
