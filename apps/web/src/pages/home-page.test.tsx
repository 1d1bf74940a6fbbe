import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../i18n/en.json';
import { aliveData, stubPublicApi } from '../test/fake-api';
import { renderApp } from '../test/render-app';

describe('HomePage', () => {
  it('shows the live server status from the API', async () => {
    const fetchMock = stubPublicApi();
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pakt');
    expect((await screen.findByTestId('server-status')).textContent).toBe(en.home.statusUp);
    expect(screen.getByText(aliveData.version)).toBeTruthy();
    expect(screen.getByText(en.home.databaseKinds.pglite)).toBeTruthy();
    expect(await screen.findByText('English, हिन्दी')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).sort()).toEqual([
      '/msbapi/public/alive',
      '/msbapi/public/configuration',
    ]);
  });

  it('says so when the server cannot be reached, and checks again on request', async () => {
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchMock);
    renderApp('/');
    expect(await screen.findByText(en.home.statusUnreachable)).toBeTruthy();
    expect(screen.queryByTestId('server-status')).toBeNull();

    const callsBefore = fetchMock.mock.calls.length;
    screen.getByRole('button', { name: en.home.retry }).click();
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(callsBefore));
  });
});
