import type { RouteObject } from 'react-router';
import { AccessDeniedPage } from './pages/access-denied-page';
import { HomePage } from './pages/home-page';
import { LoginPage } from './pages/login-page';
import { NotFoundPage } from './pages/not-found-page';
import { RegisterPage } from './pages/register-page';
import { RootPage } from './pages/root-page';
import { AdminPage } from './pages/admin-page';
import { AuthenticatePage } from './pages/authenticate-page';
import { ComposePage } from './pages/compose-page';
import { ChangePasswordPage } from './pages/change-password-page';
import { ForgotPasswordPage } from './pages/forgot-password-page';
import { ProfilePage } from './pages/profile-page';
import { ResetPasswordPage } from './pages/reset-password-page';
import { SignupPage } from './pages/signup-page';
import { ThanksPage } from './pages/thanks-page';
import { WorkflowsPage } from './pages/workflows-page';
import { SignPage } from './pages/sign-page';
import { EmailSignPage } from './pages/email-sign-page';
import { DashboardPage } from './dashboard/dashboard-page';
import { EpaksPage } from './inbox/epaks-page';
import { AppLayout } from './shell/app-layout';
import { LandingRedirect } from './routing/access';
import { SettingsPage } from './settings/settings-page';
import { BulkComposePage } from './bulk-compose/bulk-compose-page';

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
