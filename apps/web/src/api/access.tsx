import {
  type Actor,
  accessibilities,
  can,
  canAccessRoute,
  routeFromPathname,
  forcedRouteForStatus,
  routePath,
  resolvePermissionSettings,
  visibleMenu,
  type Action,
  type FeatureFlags,
  type GuardedRoute,
  type MenuItemId,
  type PermissionSettings,
  type ResourceActor,
  type Role,
  type SessionUser,
} from '@pakt/domain';
import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { accessDeniedPath, callApi } from './client';
import { loginReturningTo, safeReturnTo } from './return-to';
import { usePublicConfiguration } from './public-queries';
import { useSession, type Session } from './session-store';

/**
 * The role the person acts in: root is a property of the account (it belongs to no tenant), every
 * other role comes with the selected tenant. Null when signed in without any tenant.
 */
/** The tenant's accessibilities (which menu items and routes its settings turn on). */
export const accessQueryKeys = {
  all: ['accessibilities'] as const,
  tenant: (tenantUuid: string | null) => ['accessibilities', tenantUuid] as const,
};

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
 * Menu items whose page exists in this build; the others are listed, disabled, as "coming soon".
 * Both items of the compose drop-down are built. Of the admin sub-items, edit reasons, edit
 * workflow states and user sync up are sections of /admin (ADMIN_SECTION_OF).
 */
export const BUILT_MENU_ITEMS: ReadonlySet<MenuItemId> = new Set<MenuItemId>([
  'dashboard',
  'epaks',
  'admin',
  'admin.editReasons',
  'admin.editWorkflowStates',
  'admin.userSyncUp',
  'workflows',
  'compose.compose',
  'compose.bulkcompose',
  'settings',
]);

/** The /admin sub-items (spec section 2) that open a section of /admin: `?section=` of each. */
export const ADMIN_SECTION_OF_MENU_ITEM: Partial<Record<MenuItemId, string>> = {
  'admin.editReasons': 'reasons',
  'admin.editWorkflowStates': 'workflowStates',
  'admin.userSyncUp': 'userSync',
};

/**
 * Where sign-in, /landing and switching tenants lead: a status that forces a password change wins
 * (spec section 4); root goes to the console; a super admin, whose menu is the settings screen
 * alone (spec section 2), goes straight there; everyone whose role opens the dashboard goes to
 * the dashboard; anyone else (no tenant yet) home.
 */
export function landingPathFor(
  session: Pick<Session, 'user' | 'tenantUuid'>,
  settings: PermissionSettings = resolvePermissionSettings(),
  built: ReadonlySet<MenuItemId> = BUILT_MENU_ITEMS,
): string {
  const forced = forcedRouteForStatus(session.user.status);
  if (forced) return routePath(forced);
  if (effectiveRole(session) === 'super_admin') {
    const first = visibleMenu('super_admin', settings).find((item) => item.route && built.has(item.id));
    if (first?.route) return routePath(first.route);
  }
  const role = effectiveRole(session);
  if (role && built.has('dashboard') && canAccessRoute(role, 'dashboard', settings)) return routePath('dashboard');
  return homePathFor(session.user);
}

/**
 * Where switching to another tenant leads: the page open stays when the role there may open it
 * too; otherwise, or for a super admin (whose app is their settings screen, spec section 2), that
 * tenant's landing page. Null means stay.
 */
export function pathAfterTenantSwitch(
  session: Pick<Session, 'user' | 'tenantUuid'>,
  pathname: string,
  settings: PermissionSettings = resolvePermissionSettings(),
  built: ReadonlySet<MenuItemId> = BUILT_MENU_ITEMS,
): string | null {
  const role = effectiveRole(session);
  const route = routeFromPathname(pathname);
  const mayStay = pathname === '/' || (route !== undefined && role !== null && canAccessRoute(role, route, settings));
  if (mayStay && role !== 'super_admin') return null;
  const landing = landingPathFor(session, settings, built);
  return landing === pathname ? null : landing;
}

/** /landing: the start page of whoever is signed in, or sign-in. */
export function LandingRedirect() {
  const session = useSession();
  const { settings } = usePermissionSettings();
  if (!session) return <Navigate to="/login" replace />;
  return <Navigate to={landingPathFor(session, settings)} replace />;
}

/**
 * The signed-in person's landing page (as sign-in and /landing lead), or `/`, the product page,
 * when nobody is signed in. `known` is false while the tenant's settings, which can change it, are
 * still on their way.
 */
export function useLandingPath(): { path: string; known: boolean } {
  const session = useSession();
  const { settings, known } = usePermissionSettings();
  if (!session) return { path: '/', known: true };
  return { path: landingPathFor(session, settings), known };
}

/**
 * The permission settings in force for the selected tenant: the tenant's own switches (from
 * /v1/accessibilities: restrict-workflow, the admin sub-items...) once known, else the public
 * feature flags. `known` is false while a tenant's answer is still on its way, so a guard can wait
 * instead of deciding on the wrong settings.
 */
export function usePermissionSettings(): { settings: PermissionSettings; known: boolean } {
  const session = useSession();
  const configuration = usePublicConfiguration();
  const tenantUuid = session && !session.user.isRoot ? session.tenantUuid : null;
  const tenant = useQuery({
    queryKey: accessQueryKeys.tenant(tenantUuid),
    queryFn: ({ signal }) => callApi(accessibilities, undefined, { signal, failures: 'caller' }),
    enabled: !!tenantUuid,
    staleTime: 60_000,
    retry: false,
    // A guard waits for this answer and then shows a page that reads it too (useCan); if a newly
    // mounted reader asked again after a failure, the guard would wait again, unmount the page,
    // and the two would take turns for ever.
    retryOnMount: false,
  });
  if (tenantUuid && tenant.data) return { settings: tenant.data.settings, known: true };
  // Without a tenant, or when its settings cannot be had, the public flags are what there is;
  // the server still refuses whatever the tenant's own settings close.
  return { settings: permissionSettingsFrom(configuration.data?.features), known: !tenantUuid || tenant.isError };
}

/**
 * Guards a route by the shared permission rules: signed out → /login, coming back here afterwards; a password that must change
 * first → /changepassword (spec section 4); signed in without the role for it → access denied
 * (forbidden).
 */
export function RequireRoute({ route, children }: { readonly route: GuardedRoute; readonly children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const { settings, known } = usePermissionSettings();
  // Signed out, the person comes back here after signing in (issue 21: deep links lost their destination).
  if (!session) return <Navigate to={loginReturningTo(`${location.pathname}${location.search}${location.hash}`)} replace />;
  const forced = forcedRouteForStatus(session.user.status);
  if (forced && forced !== route) return <Navigate to={routePath(forced)} replace />;
  if (!known) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  const role = effectiveRole(session);
  if (!role || !canAccessRoute(role, route, settings)) {
    return <Navigate to={accessDeniedPath('forbidden')} replace />;
  }
  return children;
}

/**
 * Whether the signed-in person may do `action` in the selected tenant, by the shared permission
 * module: components ask this rather than looking at roles themselves.
 */
export function useCan(action: Action): boolean {
  const session = useSession();
  // The tenant's switches (restrict-workflow, the admin sub-items' settings...) close what the
  // server would refuse, so nothing is offered that answers 403.
  const { settings } = usePermissionSettings();
  if (!session || !session.tenantUuid) return false;
  const role = effectiveRole(session);
  if (!role) return false;
  return can({ role, userId: session.user.id, tenantId: session.tenantUuid, userStatus: session.user.status }, action, { settings });
}

/**
 * Who asks the per-resource policies (packages/domain/src/policies) in the selected tenant, or
 * null when signed out: components pass it with the resource to `can` instead of comparing owner
 * ids and roles themselves.
 */
export function useResourceActor(): (ResourceActor & { tenantId: string }) | null {
  const session = useSession();
  if (!session || !session.tenantUuid) return null;
  const role = effectiveRole(session);
  return { userId: session.user.id, tenantId: session.tenantUuid, ...(role ? { role } : {}) };
}

/** The signed-in person as the permissions module sees them in the selected tenant (null: nobody). */
export function useActor(): Actor | null {
  const session = useSession();
  if (!session?.tenantUuid) return null;
  const role = effectiveRole(session);
  if (!role) return null;
  return { role, userId: session.user.id, tenantId: session.tenantUuid, userStatus: session.user.status };
}

/**
 * Where sign-in leads: a status that forces a new password wins (spec section 4), then the page
 * the person came from, then their landing page.
 */
export function pathAfterSignIn(session: Pick<Session, 'user' | 'tenantUuid'>, returnTo: string | null): string {
  const landing = landingPathFor(session);
  if (forcedRouteForStatus(session.user.status)) return landing;
  return safeReturnTo(returnTo) ?? landing;
}
