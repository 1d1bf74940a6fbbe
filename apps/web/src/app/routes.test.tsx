import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/query-client';
import en from '../i18n/en.json';
import { stubPublicApi } from '../test/fake-api';
import { AppProviders } from './providers';
import { routes } from './routes';

/** A page's modules compile on their first import here, which on a busy machine takes seconds. */
const CHUNK_MS = 10_000;

// Not through test/render-app, which loads every page before the tests: here the pages stay lazy,
// as in the browser.
function visit(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('lazy routes', () => {
  it("shows a loading status on a first visit until the page's chunk is in, then the page", async () => {
    stubPublicApi();
    visit('/no/such/page');
    expect(screen.getByRole('status').textContent).toBe(en.shell.loadingPage);
    expect((await screen.findByRole('heading', { level: 1 }, { timeout: CHUNK_MS })).textContent).toBe(en.notFound.title);
    expect(screen.queryByText(en.shell.loadingPage)).toBeNull();
  });

  it('does the same for a signing link, whose page is outside the app layout', async () => {
    stubPublicApi();
    visit('/emailsign');
    expect(screen.getByRole('status').textContent).toBe(en.shell.loadingPage);
    expect(await screen.findByText(en.signing.link.invalidBody, undefined, { timeout: CHUNK_MS })).toBeTruthy();
    expect(screen.queryByText(en.shell.loadingPage)).toBeNull();
  });
});
