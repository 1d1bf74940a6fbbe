// First: configures zod before any schema parses (see the file).
import './zod-config';
import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { apiClient } from '../api/client';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);
// Failed calls redirect inside the single-page app instead of reloading it.
apiClient.setNavigationHandler((to) => void router.navigate(to));

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');

// The access token lives in memory only: after a reload the refresh cookie brings the session back
// (once) before any page decides whether someone is signed in.
void apiClient
  .restoreSession()
  .catch(() => undefined)
  .finally(() =>
    createRoot(container).render(
      <StrictMode>
        <AppProviders queryClient={createQueryClient()}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
