import {
  canAccessRoute,
  forcedRouteForStatus,
  routePath,
  resolvePermissionSettings,
  type FeatureFlags,
  type GuardedRoute,
  type PermissionSettings,
  type Role,
  type SessionUser,
} from '@pakt/domain';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { accessDeniedPath } from '../api/client';
import { usePublicConfiguration } from '../api/public-queries';
import { useSession, type Session } from '../api/session-store';

/**
 * The role the person acts in: root is a property of the account (it belongs to no tenant), every
 * other role comes with the selected tenant. Null when signed in without any tenant.
 */
export function effectiveRole(session: Pick<Session, 'user' | 'tenantUuid'>): Role | null {
  if (session.user.isRoot) return 'root';
  return session.user.tenants.find((tenant) => tenant.tenantUuid === session.tenantUuid)?.userRole ?? null;
}

/**
 * The setting flags the web app knows before tenant settings exist: the public feature flags.
 * Flags it cannot know yet fall back to the permission module's defaults.
 */
export function permissionSettingsFrom(features: FeatureFlags | undefined): PermissionSettings {
  if (!features) return resolvePermissionSettings();
  return resolvePermissionSettings({
    teamRoomsEnabled: features.teamRooms,
    pdfCompareEnabled: features.pdfCompare,
    featuresEnabled: features.features,
  });
}

/** Where someone signed in belongs by default: root's console, everyone else's home. */
export function homePathFor(user: SessionUser): string {
  return user.isRoot ? '/root' : '/';
}

/**
 * Where sign-in (or opening /login while signed in) leads: a status that forces a password change
 * wins (spec section 4), otherwise home.
 */
export function landingPathFor(user: SessionUser): string {
  const forced = forcedRouteForStatus(user.status);
  return forced ? routePath(forced) : homePathFor(user);
}

/**
 * Guards a route by the shared permission rules: signed out → /login; a password that must change
 * first → /changepassword (spec section 4); signed in without the role for it → access denied
 * (forbidden).
 */
export function RequireRoute({ route, children }: { readonly route: GuardedRoute; readonly children: ReactNode }) {
  const session = useSession();
  const configuration = usePublicConfiguration();
  if (!session) return <Navigate to="/login" replace />;
  const forced = forcedRouteForStatus(session.user.status);
  if (forced && forced !== route) return <Navigate to={routePath(forced)} replace />;
  const role = effectiveRole(session);
  if (!role || !canAccessRoute(role, route, permissionSettingsFrom(configuration.data?.features))) {
    return <Navigate to={accessDeniedPath('forbidden')} replace />;
  }
  return children;
}
