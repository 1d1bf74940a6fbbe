import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../app/providers';
import { routes } from '../app/routes';

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
