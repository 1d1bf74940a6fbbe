// First: configures zod before any schema parses (see the file).
import './zod-config';
import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { apiClient } from '../api/client';
import { createQueryClient } from '../api/query-client';
import { languageReady } from '../i18n/i18n';
import { AppProviders } from './providers';
import { routes } from './routes';
import { loadSignedInChrome } from './shell/use-signed-in-chrome';

// Creating the router starts fetching the current page's chunk, beside everything below.
const router = createBrowserRouter(routes);
// Failed calls redirect inside the single-page app instead of reloading it.
apiClient.setNavigationHandler((to) => void router.navigate(to));

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

// The access token lives in memory only: after a reload the refresh cookie brings the session back
// (once) before any page decides whether someone is signed in. A stored language other than
// English is fetched meanwhile, so the first render is already in it.
const restored = apiClient.restoreSession().then(
  // A returning member's menus and account load beside their page, not after it has shown.
  (outcome) => {
    if (outcome === 'refreshed') void loadSignedInChrome().catch(() => undefined);
  },
  () => undefined,
);
void Promise.all([restored, languageReady.catch(() => undefined)]).finally(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
