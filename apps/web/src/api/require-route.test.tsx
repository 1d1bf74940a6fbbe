import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import { jsonResponse, stubApi, tokenGrant } from '../test/fake-api';
import { renderApp, typeInto } from '../test/render-app';
import { sessionStore } from './session-store';

const EPAK = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

/**
 * Issue 21: a signed-out deep link (/workflows, /dashboard?ePakId=…) went to /login and then to the
 * dashboard; only /sign kept its destination. Every guarded route keeps it now.
 */
describe('a guarded page opened signed out', () => {
  afterEach(() => sessionStore.clear());

  it.each([
    '/workflows',
    `/dashboard?ePakId=${EPAK}`,
    '/epaks',
    `/compose?ePakId=${EPAK}`,
    '/bulkcompose',
    '/admin?section=reasons',
    '/settings',
    '/profile',
  ])('%s asks to sign in and keeps where it was going', async (address) => {
    stubApi();
    const { router } = renderApp(address);
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(address);
    expect(screen.getByText(en.login.returnTo)).toBeTruthy();
  });

  it('comes back to it once signed in', async () => {
    stubApi({ 'POST /msbapi/v1/authenticate': () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { router } = renderApp('/workflows?tab=templates');
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/workflows?tab=templates'));
  });
});
