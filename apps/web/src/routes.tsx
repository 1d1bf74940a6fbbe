import type { RouteObject } from 'react-router';
import { AccessDeniedPage } from './pages/access-denied-page';
import { HomePage } from './pages/home-page';
import { NotFoundPage } from './pages/not-found-page';
import { AppLayout } from './shell/app-layout';

/** Shared by the browser router and the tests' memory router, so tests exercise the real tree. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/accessdenied', element: <AccessDeniedPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
