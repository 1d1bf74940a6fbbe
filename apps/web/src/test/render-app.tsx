import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../app/providers';
import { routes } from '../app/routes';
import { loadSignedInChrome } from '../app/shell/use-signed-in-chrome';

/**
 * Pages are lazy routes (app/routes.tsx): the browser fetches each one when it is first visited.
 * Here every page is loaded once, before the file's tests, and put in its route as if it had never
 * been lazy: a page renders on its visit as it did before the split, and no test waits inside its
 * own timeout for a page's modules to compile. app/routes.test.tsx covers the lazy loading itself.
 * The signed-in header (app/shell/use-signed-in-chrome.ts) is loaded ahead the same way.
 */
async function loadEveryPage(tree: RouteObject[]): Promise<void> {
  await Promise.all(
    tree.map(async (route) => {
      if (typeof route.lazy === 'function') {
        Object.assign(route, await route.lazy());
        route.lazy = undefined;
      }
      if (route.children) await loadEveryPage(route.children);
    }),
  );
}
await Promise.all([loadEveryPage(routes), loadSignedInChrome()]);

/** Renders the real route tree at `path`, as a visitor opening that address would see it. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  // The app's retry policy stays; only its back-off is skipped so tests of failures stay fast.
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retryDelay: 0 } });
  const result = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** The input labelled `label` (Mantine appends " *" to required labels, so the start must match). */
export function inputLabelled(label: string): HTMLInputElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByLabelText(new RegExp(`^${escaped}( \\*)?$`), { selector: 'input' });
}

export function typeInto(label: string, value: string): void {
  fireEvent.change(inputLabelled(label), { target: { value } });
}
