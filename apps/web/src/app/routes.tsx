import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { LandingRedirect } from '../api/access';
import { reloadForMissingChunk } from './reload-for-missing-chunk';
import { RouteLoading } from './route-loading';
import { AppLayout } from './shell/app-layout';

/**
 * A page as a chunk of its own, fetched the first time its route matches (React Router's `lazy`):
 * a first visit to /login or a signing link downloads that page, not the admin, compose, tag
 * editor and dashboard pages with it. React Router loads the chunk before it shows the page, so a
 * navigation keeps the current page on screen meanwhile; a first visit shows RouteLoading.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): () => Promise<{ Component: ComponentType }> {
  return () =>
    load().then(
      (module) => ({ Component: module[name] }),
      (error: unknown) => {
        // A tab older than the deploy asks for a chunk that is gone: reloading gets the new names.
        if (reloadForMissingChunk()) return new Promise<never>(() => {});
        throw error;
      },
    );
}

/** Shared by the browser router and the tests' memory router, so tests exercise the real tree. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    HydrateFallback: RouteLoading,
    children: [
      { path: '/', lazy: page(() => import('../features/home/home-page'), 'HomePage') },
      { path: '/login', lazy: page(() => import('../features/identity/login-page'), 'LoginPage') },
      { path: '/register', lazy: page(() => import('../features/identity/register-page'), 'RegisterPage') },
      // Guards itself: the first-run setup form must open without a session.
      { path: '/root', lazy: page(() => import('../features/admin/root-page'), 'RootPage') },
      { path: '/signup', lazy: page(() => import('../features/identity/signup-page'), 'SignupPage') },
      { path: '/thanks', lazy: page(() => import('../features/signing/thanks-page'), 'ThanksPage') },
      { path: '/forgetpassword', lazy: page(() => import('../features/identity/forgot-password-page'), 'ForgotPasswordPage') },
      { path: '/resetpassword', lazy: page(() => import('../features/identity/reset-password-page'), 'ResetPasswordPage') },
      // Reached from sign-in before any session exists (-200), so not behind a session guard.
      { path: '/authenticate', lazy: page(() => import('../features/identity/authenticate-page'), 'AuthenticatePage') },
      // Issue 20: anyone who received a signed PDF checks it here, signed in or not, so no guard.
      { path: '/verify', lazy: page(() => import('../features/verify'), 'VerifyPage') },
      // Guard themselves (RequireRoute), like /root.
      { path: '/changepassword', lazy: page(() => import('../features/identity/change-password-page'), 'ChangePasswordPage') },
      { path: '/profile', lazy: page(() => import('../features/identity/profile-page'), 'ProfilePage') },
      { path: '/admin', lazy: page(() => import('../features/admin/admin-page'), 'AdminPage') },
      { path: '/settings', lazy: page(() => import('../features/settings/settings-page'), 'SettingsPage') },
      { path: '/workflows', lazy: page(() => import('../features/workflows/workflows-page'), 'WorkflowsPage') },
      { path: '/compose', lazy: page(() => import('../features/compose/compose-page'), 'ComposePage') },
      { path: '/bulkcompose', lazy: page(() => import('../features/bulk-compose/bulk-compose-page'), 'BulkComposePage') },
      { path: '/dashboard', lazy: page(() => import('../features/dashboard/dashboard-page'), 'DashboardPage') },
      { path: '/epaks', lazy: page(() => import('../features/inbox/epaks-page'), 'EpaksPage') },
      // Guards itself: without a session it asks the person to sign in first.
      { path: '/sign', lazy: page(() => import('../features/signing/sign-page'), 'SignPage') },
      { path: '/accessdenied', lazy: page(() => import('./pages/access-denied-page'), 'AccessDeniedPage') },
      { path: '/landing', element: <LandingRedirect /> },
      { path: '*', lazy: page(() => import('./pages/not-found-page'), 'NotFoundPage') },
    ],
  },
  // A signing link's page has its own frame: the app's header belongs to whoever else may be
  // signed in in this browser, and the link's session must not mix with theirs.
  { path: '/emailsign', HydrateFallback: RouteLoading, lazy: page(() => import('../features/signing/email-sign-page'), 'EmailSignPage') },
];
