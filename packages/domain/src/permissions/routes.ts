import { z } from 'zod';
import type { Role } from '../constants/roles';
import { PASSWORD_CHANGE_REQUIRED_USER_STATUSES, type UserStatus } from '../constants/statuses';
import type { PermissionSettings } from './settings';

/**
 * Routes anyone may open without signing in. None of them is in a per-role list of spec §2, and each
 * serves someone who has no session yet or arrives with a token of another kind:
 * - login, mobileinternallogin, signup, register, forgetpassword, resetpassword, thanks: before or
 *   instead of a session (registration and password-reset links, the sign-up form and its thanks).
 * - accessdenied: where a failed session is sent (§4 "the user goes to accessdenied with status
 *   expired"), so it must work without one.
 * - emailsign: external signers "who arrive through an email link" (§1) carry an email token, not a
 *   session (§7 "or an email token or registration token for public flows").
 * - landing and sign: the spec names them (§2 "and a /sign path") but gives them to no role. A
 *   guarded route no role may open would be unreachable, so we treat both as public entry points;
 *   /sign, like /emailsign, authorises by the token it carries, not by a login.
 */
export const PUBLIC_ROUTES = [
  'login',
  'signup',
  'accessdenied',
  'emailsign',
  'forgetpassword',
  'resetpassword',
  'register',
  'thanks',
  'landing',
  'mobileinternallogin',
  'sign',
  // Issue 20: anyone who received a signed file checks it here, with or without an account. Spec §2
  // lists verify per role; the public verifier supersedes that, so no role is denied it.
  'verify',
] as const;
export const PublicRoute = z.enum(PUBLIC_ROUTES);
export type PublicRoute = z.infer<typeof PublicRoute>;

/**
 * Routes that need a signed-in user whose role grants them. All of spec §2's routes that appear in a
 * per-role list, plus `settings` and `root` (§2 lists them as routes but gives them to no role; see
 * ROLE_ROUTES) and `epaks`, the inbox "reached through a menu item" that §2 names without a path.
 */
export const GUARDED_ROUTES = [
  'dashboard',
  'epaks',
  'profile',
  'changepassword',
  'workflows',
  'compose',
  'bulkcompose',
  'settings',
  'admin',
  'fieldsmapping',
  'stamppapers',
  'reports',
  'teamroom',
  'trDocument',
  'compare',
  'features',
  'authenticate',
  'aadhaar-redirect',
  'root',
] as const;
export const GuardedRoute = z.enum(GUARDED_ROUTES);
export type GuardedRoute = z.infer<typeof GuardedRoute>;

/** Every screen of spec §2. The id is also the first path segment (`/${route}`). */
export const APP_ROUTES = [...PUBLIC_ROUTES, ...GUARDED_ROUTES] as const;
export const AppRoute = z.enum(APP_ROUTES);
export type AppRoute = z.infer<typeof AppRoute>;

export function isPublicRoute(route: AppRoute): route is PublicRoute {
  return (PUBLIC_ROUTES as readonly AppRoute[]).includes(route);
}

/** The browser path of a route. §2 gives no path for the ePaks inbox; we chose `/epaks`. */
export function routePath(route: AppRoute): `/${AppRoute}` {
  return `/${route}`;
}

/**
 * The route a pathname belongs to, by its first segment (§2 resets the search "when the first path
 * segment of the route changes", so the first segment is what identifies a screen). Matching is
 * exact and case-sensitive, like the router's.
 */
export function routeFromPathname(pathname: string): AppRoute | undefined {
  const segment = pathname.split(/[?#]/, 1)[0]!.split('/').filter((part) => part.length > 0)[0];
  const parsed = AppRoute.safeParse(segment);
  return parsed.success ? parsed.data : undefined;
}

// Spec §2 "Per-role route access", composed exactly as the spec words it.
const SIGNER_ROUTES = [
  'dashboard',
  'changepassword',
  'reports',
  'profile',
  'teamroom',
  'trDocument',
  'authenticate',
  'aadhaar-redirect',
  'features',
] as const satisfies readonly GuardedRoute[];
// "submitter: the signer list plus compose, workflows, bulkcompose, compare."
const SUBMITTER_ROUTES = [...SIGNER_ROUTES, 'compose', 'workflows', 'bulkcompose', 'compare'] as const;
// "custodian: the same as submitter."
const CUSTODIAN_ROUTES = SUBMITTER_ROUTES;
// "admin: the custodian list plus admin, fieldsmapping, stamppapers."
const ADMIN_ROUTES = [...CUSTODIAN_ROUTES, 'admin', 'fieldsmapping', 'stamppapers'] as const;
// "registrar: dashboard, changepassword, profile, verify, aadhaar-redirect, features." Note that the
// spec leaves out authenticate (two-factor) here; we follow the list as written (verify is public now).
const REGISTRAR_ROUTES = ['dashboard', 'changepassword', 'profile', 'aadhaar-redirect', 'features'] as const;

/**
 * Guarded routes each role may open (before settings are applied; see canAccessRoute).
 *
 * `epaks`: §2 gives the inbox no route list; §6 shows the epaks menu item to signer, registrar,
 * custodian, submitter and admin, so exactly those roles may open it (a menu item must not lead to
 * access denied).
 *
 * root and super_admin: the spec gives no route list. Our design:
 * - root manages tenants at /root and has no tenant, hence no tenant-content route (dashboard,
 *   epaks, reports, verify, aadhaar-redirect...). `features` is governed by a tenant's "features
 *   setting" (§2), which a tenantless user does not have, so root does not get it either.
 * - super_admin: §6 "super admin: settings only (does not see dashboard, epaks, compose, workflows,
 *   teamroom, compare or features)", and §2 "settings (super admin only)". §2's features rule also
 *   says "the user is not a super admin".
 * - Both keep the account routes every signed-in user needs: profile (the header's user widget with
 *   profile is shown to everyone, §2; only the new-view switch is hidden for super admins),
 *   changepassword (§4 sends any user whose status is expired or resetpassword there) and
 *   authenticate (§4 "A two-factor-required code sends the user to /authenticate", for any user).
 */
export const ROLE_ROUTES = {
  root: ['root', 'profile', 'changepassword', 'authenticate'],
  super_admin: ['settings', 'profile', 'changepassword', 'authenticate'],
  signer: [...SIGNER_ROUTES, 'epaks'],
  submitter: [...SUBMITTER_ROUTES, 'epaks'],
  custodian: [...CUSTODIAN_ROUTES, 'epaks'],
  admin: [...ADMIN_ROUTES, 'epaks'],
  registrar: [...REGISTRAR_ROUTES, 'epaks'],
} as const satisfies Record<Role, readonly GuardedRoute[]>;

/**
 * Settings that close a route a role would otherwise have (spec §2 menu rules, §6). A route is closed
 * whenever its menu item is hidden by a setting, so typing the URL cannot reach what the menu hides.
 */
const ROUTE_SETTING_GATES: Partial<Record<GuardedRoute, (settings: PermissionSettings, role: Role) => boolean>> = {
  // "teamroom (only when team rooms are enabled)". A team-room document (trDocument) cannot exist
  // without team rooms; the spec is silent on it, so we close it with the same setting.
  teamroom: (s) => s.teamRoomsEnabled,
  trDocument: (s) => s.teamRoomsEnabled,
  // "compare (only when PDF compare is enabled)".
  compare: (s) => s.pdfCompareEnabled,
  // "features (when the features setting is enabled and the user is not a super admin)"; the super
  // admin half is already in ROLE_ROUTES.
  features: (s) => s.featuresEnabled,
  // "reports (hidden in the mobile app)".
  reports: (s) => !s.isMobileApp,
  // "A submitter does not see workflows when the restrict-workflow setting is on." Custodians and
  // admins keep workflows: the restriction names submitters only.
  workflows: (s, role) => !(role === 'submitter' && s.restrictWorkflow),
  // Admin sub-items with a page of their own: "Each sub-item is shown only when its setting makes it
  // visible." The other three sub-items (edit reasons, edit workflow states, user sync up) live on
  // /admin, which also holds user and group administration and therefore stays open.
  fieldsmapping: (s) => s.showFieldMapping,
  stamppapers: (s) => s.showStamps,
};

/**
 * Whether `role` may open `route` under `settings`. Public routes are open to everyone, signed in or
 * not (redirecting a signed-in user away from /login is the app's choice, not a permission).
 */
export function canAccessRoute(role: Role, route: AppRoute, settings: PermissionSettings): boolean {
  if (isPublicRoute(route)) return true;
  if (!(ROLE_ROUTES[role] as readonly GuardedRoute[]).includes(route)) return false;
  const gate = ROUTE_SETTING_GATES[route];
  return gate ? gate(settings, role) : true;
}

/**
 * Where a role lands after sign-in when no other target is given. The spec is silent; each role goes
 * to the first screen its menu offers: root to tenant management, super admin to settings (§6
 * "settings only"; §6 "Switching to a tenant where the user is super admin goes straight to the
 * app"), everyone else to the dashboard.
 */
export function defaultRouteFor(role: Role): GuardedRoute {
  if (role === 'root') return 'root';
  if (role === 'super_admin') return 'settings';
  return 'dashboard';
}

/**
 * The route a user must be sent to whatever they asked for, from their status alone (§4 "A user whose
 * status is expired or resetpassword is sent to /changepassword"), or undefined when none applies.
 */
export function forcedRouteForStatus(status: UserStatus | undefined): GuardedRoute | undefined {
  if (status !== undefined && (PASSWORD_CHANGE_REQUIRED_USER_STATUSES as readonly UserStatus[]).includes(status)) {
    return 'changepassword';
  }
  return undefined;
}
