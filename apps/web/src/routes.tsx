import type { RouteObject } from 'react-router';
import { AccessDeniedPage } from './pages/access-denied-page';
import { HomePage } from './pages/home-page';
import { LoginPage } from './pages/login-page';
import { NotFoundPage } from './pages/not-found-page';
import { RegisterPage } from './pages/register-page';
import { RootPage } from './pages/root-page';
import { UnavailableStepPage } from './pages/unavailable-page';
import { AppLayout } from './shell/app-layout';

/** Shared by the browser router and the tests' memory router, so tests exercise the real tree. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      // Guards itself: the first-run setup form must open without a session.
      { path: '/root', element: <RootPage /> },
      // Reached from sign-in before any session exists (-200, -73), so not behind a session guard.
      { path: '/authenticate', element: <UnavailableStepPage step="authenticate" /> },
      { path: '/changepassword', element: <UnavailableStepPage step="changepassword" /> },
      { path: '/accessdenied', element: <AccessDeniedPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
