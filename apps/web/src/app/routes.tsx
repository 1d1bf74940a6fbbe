import type { RouteObject } from 'react-router';
import { AccessDeniedPage } from './pages/access-denied-page';
import { HomePage } from '../features/home/home-page';
import { LoginPage } from '../features/identity/login-page';
import { NotFoundPage } from './pages/not-found-page';
import { RegisterPage } from '../features/identity/register-page';
import { RootPage } from '../features/admin/root-page';
import { AdminPage } from '../features/admin/admin-page';
import { AuthenticatePage } from '../features/identity/authenticate-page';
import { ComposePage } from '../features/compose/compose-page';
import { ChangePasswordPage } from '../features/identity/change-password-page';
import { ForgotPasswordPage } from '../features/identity/forgot-password-page';
import { ProfilePage } from '../features/identity/profile-page';
import { ResetPasswordPage } from '../features/identity/reset-password-page';
import { SignupPage } from '../features/identity/signup-page';
import { ThanksPage } from '../features/signing/thanks-page';
import { WorkflowsPage } from '../features/workflows/workflows-page';
import { SignPage } from '../features/signing/sign-page';
import { EmailSignPage } from '../features/signing/email-sign-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { EpaksPage } from '../features/inbox/epaks-page';
import { AppLayout } from './shell/app-layout';
import { LandingRedirect } from '../api/access';
import { SettingsPage } from '../features/settings/settings-page';
import { BulkComposePage } from '../features/bulk-compose/bulk-compose-page';
import { VerifyPage } from '../features/verify';

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
      { path: '/signup', element: <SignupPage /> },
      { path: '/thanks', element: <ThanksPage /> },
      { path: '/forgetpassword', element: <ForgotPasswordPage /> },
      { path: '/resetpassword', element: <ResetPasswordPage /> },
      // Reached from sign-in before any session exists (-200), so not behind a session guard.
      { path: '/authenticate', element: <AuthenticatePage /> },
      // Issue 20: anyone who received a signed PDF checks it here, signed in or not, so no guard.
      { path: '/verify', element: <VerifyPage /> },
      // Guard themselves (RequireRoute), like /root.
      { path: '/changepassword', element: <ChangePasswordPage /> },
      { path: '/profile', element: <ProfilePage /> },
      { path: '/admin', element: <AdminPage /> },
      { path: '/settings', element: <SettingsPage /> },
      { path: '/workflows', element: <WorkflowsPage /> },
      { path: '/compose', element: <ComposePage /> },
      { path: '/bulkcompose', element: <BulkComposePage /> },
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/epaks', element: <EpaksPage /> },
      // Guards itself: without a session it asks the person to sign in first.
      { path: '/sign', element: <SignPage /> },
      { path: '/accessdenied', element: <AccessDeniedPage /> },
      { path: '/landing', element: <LandingRedirect /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // A signing link's page has its own frame: the app's header belongs to whoever else may be
  // signed in in this browser, and the link's session must not mix with theirs.
  { path: '/emailsign', element: <EmailSignPage /> },
];
