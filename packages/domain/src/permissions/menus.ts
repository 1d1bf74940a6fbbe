import { z } from 'zod';
import type { Role } from '../constants/roles';
import { canAccessRoute, type GuardedRoute } from './routes';
import type { PermissionSettings } from './settings';

/**
 * Menu items of spec §2, in the spec's order. Sub-items carry their parent's id as a prefix because
 * the compose drop-down repeats the name of its parent ("compose (drop-down with compose and bulk
 * compose)"), and ids must be unique.
 */
export const MENU_ITEM_IDS = [
  'dashboard',
  'epaks',
  'compose',
  'compose.compose',
  'compose.bulkcompose',
  'workflows',
  'settings',
  'teamroom',
  'compare',
  'reports',
  'features',
  'admin',
  'admin.editReasons',
  'admin.editWorkflowStates',
  'admin.userSyncUp',
  'admin.fieldMapping',
  'admin.stamps',
] as const;
export const MenuItemId = z.enum(MENU_ITEM_IDS);
export type MenuItemId = z.infer<typeof MenuItemId>;

/**
 * One entry of the menu tree. `route` is where choosing it leads; the compose drop-down has none of
 * its own. The admin entry keeps its own route (/admin: user and group administration) besides its
 * sub-items. Edit reasons, edit workflow states and user sync up have no route of their own in §2,
 * so they lead to /admin and the page shows the part named by the item id.
 */
export interface MenuItem {
  readonly id: MenuItemId;
  readonly route?: GuardedRoute;
  readonly children?: readonly MenuItem[];
}

export const MENU: readonly MenuItem[] = [
  { id: 'dashboard', route: 'dashboard' },
  { id: 'epaks', route: 'epaks' },
  {
    id: 'compose',
    children: [
      { id: 'compose.compose', route: 'compose' },
      { id: 'compose.bulkcompose', route: 'bulkcompose' },
    ],
  },
  { id: 'workflows', route: 'workflows' },
  { id: 'settings', route: 'settings' },
  { id: 'teamroom', route: 'teamroom' },
  { id: 'compare', route: 'compare' },
  { id: 'reports', route: 'reports' },
  { id: 'features', route: 'features' },
  {
    id: 'admin',
    route: 'admin',
    children: [
      { id: 'admin.editReasons', route: 'admin' },
      { id: 'admin.editWorkflowStates', route: 'admin' },
      { id: 'admin.userSyncUp', route: 'admin' },
      { id: 'admin.fieldMapping', route: 'fieldsmapping' },
      { id: 'admin.stamps', route: 'stamppapers' },
    ],
  },
];

type TopLevelMenuItemId = Exclude<MenuItemId, `${string}.${string}`>;

// Spec §6 "Menu visibility", before settings.
const CUSTODIAN_MENU = ['dashboard', 'epaks', 'compose', 'workflows', 'teamroom', 'compare', 'reports', 'features'] as const;

/**
 * Top-level items each role may see (spec §6). root: the spec gives it no menu; root's only screen is
 * tenant management at /root, reached as its landing route (defaultRouteFor), so its menu is empty.
 */
export const ROLE_MENUS = {
  root: [],
  // "super admin: settings only (does not see dashboard, epaks, compose, workflows, teamroom, compare or features)".
  super_admin: ['settings'],
  // "signer: dashboard, epaks, teamroom, reports, features."
  signer: ['dashboard', 'epaks', 'teamroom', 'reports', 'features'],
  // "registrar: dashboard, epaks, features."
  registrar: ['dashboard', 'epaks', 'features'],
  // "custodian and submitter: dashboard, epaks, compose and bulk compose, workflows, teamroom, compare, reports, features."
  custodian: CUSTODIAN_MENU,
  submitter: CUSTODIAN_MENU,
  // "admin: all of the above plus the admin menu."
  admin: [...CUSTODIAN_MENU, 'admin'],
} as const satisfies Record<Role, readonly TopLevelMenuItemId[]>;

/**
 * Settings that hide an item (spec §2 menu items, §6). The route gates of canAccessRoute apply as
 * well, so an item is never shown whose route would be refused; the gates listed here are the ones
 * that have no route of their own to carry them (the three /admin sub-items).
 */
const MENU_SETTING_GATES: Partial<Record<MenuItemId, (settings: PermissionSettings) => boolean>> = {
  'admin.editReasons': (s) => s.showEditReasons,
  'admin.editWorkflowStates': (s) => s.showEditWorkflowStates,
  'admin.userSyncUp': (s) => s.showUserSyncUp,
  'admin.fieldMapping': (s) => s.showFieldMapping,
  'admin.stamps': (s) => s.showStamps,
};

function isItemShown(item: MenuItem, role: Role, settings: PermissionSettings): boolean {
  const gate = MENU_SETTING_GATES[item.id];
  if (gate && !gate(settings)) return false;
  return item.route === undefined || canAccessRoute(role, item.route, settings);
}

function filterItem(item: MenuItem, role: Role, settings: PermissionSettings): MenuItem | undefined {
  if (!isItemShown(item, role, settings)) return undefined;
  if (!item.children) return item;
  const children = item.children
    .map((child) => filterItem(child, role, settings))
    .filter((child): child is MenuItem => child !== undefined);
  // A drop-down with nothing in it and nowhere to go of its own is not shown.
  if (children.length === 0 && item.route === undefined) return undefined;
  return { ...item, children };
}

/** The menu tree `role` sees under `settings`, in the spec's order (§2, §6). */
export function visibleMenu(role: Role, settings: PermissionSettings): MenuItem[] {
  const allowed = ROLE_MENUS[role] as readonly MenuItemId[];
  return MENU.filter((item) => allowed.includes(item.id))
    .map((item) => filterItem(item, role, settings))
    .filter((item): item is MenuItem => item !== undefined);
}

/** The ids of every visible item, parents and sub-items alike, in menu order. */
export function visibleMenuItemIds(role: Role, settings: PermissionSettings): MenuItemId[] {
  const ids: MenuItemId[] = [];
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      ids.push(item.id);
      if (item.children) walk(item.children);
    }
  };
  walk(visibleMenu(role, settings));
  return ids;
}

export function isMenuItemVisible(role: Role, id: MenuItemId, settings: PermissionSettings): boolean {
  return visibleMenuItemIds(role, settings).includes(id);
}
