import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../constants/roles';
import { MENU, MENU_ITEM_IDS, isMenuItemVisible, visibleMenu, visibleMenuItemIds, type MenuItem, type MenuItemId } from './menus';
import { canAccessRoute } from './routes';
import { DEFAULT_PERMISSION_SETTINGS, resolvePermissionSettings, type PermissionSettings } from './settings';

const Y = true;
const N = false;
const COLUMNS = ['root', 'super_admin', 'signer', 'submitter', 'custodian', 'admin', 'registrar'] as const satisfies readonly Role[];

/** Every role x every menu item with default settings, written out by hand from spec §2 and §6. */
// prettier-ignore
const MENU_MATRIX: ReadonlyArray<readonly [MenuItemId, ...boolean[]]> = [
  //  item                        root super_admin signer submitter custodian admin registrar
  ['dashboard',                    N,   N,          Y,     Y,        Y,        Y,    Y],
  ['epaks',                        N,   N,          Y,     Y,        Y,        Y,    Y],
  ['compose',                      N,   N,          N,     Y,        Y,        Y,    N],
  ['compose.compose',              N,   N,          N,     Y,        Y,        Y,    N],
  ['compose.bulkcompose',          N,   N,          N,     Y,        Y,        Y,    N],
  ['workflows',                    N,   N,          N,     Y,        Y,        Y,    N],
  ['settings',                     N,   Y,          N,     N,        N,        N,    N],
  ['teamroom',                     N,   N,          Y,     Y,        Y,        Y,    N],
  ['compare',                      N,   N,          N,     Y,        Y,        Y,    N],
  ['reports',                      N,   N,          Y,     Y,        Y,        Y,    N],
  ['features',                     N,   N,          Y,     Y,        Y,        Y,    Y],
  ['admin',                        N,   N,          N,     N,        N,        Y,    N],
  ['admin.editReasons',            N,   N,          N,     N,        N,        Y,    N],
  ['admin.editWorkflowStates',     N,   N,          N,     N,        N,        Y,    N],
  ['admin.userSyncUp',             N,   N,          N,     N,        N,        Y,    N],
  ['admin.fieldMapping',           N,   N,          N,     N,        N,        Y,    N],
  ['admin.stamps',                 N,   N,          N,     N,        N,        Y,    N],
];

const matrixRows = MENU_MATRIX.flatMap(([item, ...cells]) => COLUMNS.map((role, column) => [role, item, cells[column]!] as const));

describe('menu matrix, default settings', () => {
  it('covers every role and every menu item exactly once', () => {
    expect([...COLUMNS].sort()).toEqual([...ROLES].sort());
    expect(MENU_MATRIX.map(([item]) => item).sort()).toEqual([...MENU_ITEM_IDS].sort());
    expect(MENU_MATRIX.every((row) => row.length === COLUMNS.length + 1)).toBe(true);
  });

  it.each(matrixRows)('%s sees %s: %s', (role, item, visible) => {
    expect(isMenuItemVisible(role, item, DEFAULT_PERMISSION_SETTINGS)).toBe(visible);
  });
});

type SettingsRow = readonly [label: string, role: Role, item: MenuItemId, settings: Partial<PermissionSettings>, visible: boolean];

// prettier-ignore
const SETTINGS_ROWS: readonly SettingsRow[] = [
  ['team rooms off hides teamroom',                'signer',    'teamroom',                 { teamRoomsEnabled: false },       N],
  ['team rooms off hides teamroom',                'custodian', 'teamroom',                 { teamRoomsEnabled: false },       N],
  ['team rooms off hides teamroom',                'admin',     'teamroom',                 { teamRoomsEnabled: false },       N],
  ['compare off hides compare',                    'submitter', 'compare',                  { pdfCompareEnabled: false },      N],
  ['compare off hides compare',                    'admin',     'compare',                  { pdfCompareEnabled: false },      N],
  ['features off hides features',                  'signer',    'features',                 { featuresEnabled: false },        N],
  ['features off hides features',                  'registrar', 'features',                 { featuresEnabled: false },        N],
  ['features off hides features',                  'custodian', 'features',                 { featuresEnabled: false },        N],
  ['restrict-workflow hides workflows',            'submitter', 'workflows',                { restrictWorkflow: true },        N],
  ['restrict-workflow keeps workflows',            'custodian', 'workflows',                { restrictWorkflow: true },        Y],
  ['restrict-workflow keeps workflows',            'admin',     'workflows',                { restrictWorkflow: true },        Y],
  ['restrict-workflow keeps compose',              'submitter', 'compose',                  { restrictWorkflow: true },        Y],
  ['mobile app hides reports',                     'signer',    'reports',                  { isMobileApp: true },             N],
  ['mobile app hides reports',                     'custodian', 'reports',                  { isMobileApp: true },             N],
  ['mobile app hides reports',                     'admin',     'reports',                  { isMobileApp: true },             N],
  ['mobile app keeps epaks',                       'signer',    'epaks',                    { isMobileApp: true },             Y],
  ['edit reasons flag off hides its sub-item',     'admin',     'admin.editReasons',        { showEditReasons: false },        N],
  ['workflow states flag off hides its sub-item',  'admin',     'admin.editWorkflowStates', { showEditWorkflowStates: false }, N],
  ['user sync flag off hides its sub-item',        'admin',     'admin.userSyncUp',         { showUserSyncUp: false },         N],
  ['field mapping flag off hides its sub-item',    'admin',     'admin.fieldMapping',       { showFieldMapping: false },       N],
  ['stamps flag off hides its sub-item',           'admin',     'admin.stamps',             { showStamps: false },             N],
  ['edit reasons flag off leaves the others',      'admin',     'admin.editWorkflowStates', { showEditReasons: false },        Y],
  ['stamps flag off leaves field mapping',         'admin',     'admin.fieldMapping',       { showStamps: false },             Y],
  ['every admin flag off keeps the admin entry',   'admin',     'admin',                    { showEditReasons: false, showEditWorkflowStates: false, showUserSyncUp: false, showFieldMapping: false, showStamps: false }, Y],
  ['features on never shows it to a super admin',  'super_admin','features',                { featuresEnabled: true },         N],
  ['everything off leaves super admin settings',   'super_admin','settings',                { teamRoomsEnabled: false, pdfCompareEnabled: false, featuresEnabled: false, isMobileApp: true }, Y],
];

describe('menu visibility under settings', () => {
  it.each(SETTINGS_ROWS)('%s (%s, %s)', (_label, role, item, overrides, visible) => {
    expect(isMenuItemVisible(role, item, resolvePermissionSettings(overrides))).toBe(visible);
  });
});

describe('menu tree', () => {
  it('keeps the spec order and the compose drop-down for a custodian', () => {
    expect(visibleMenuItemIds('custodian', DEFAULT_PERMISSION_SETTINGS)).toEqual([
      'dashboard',
      'epaks',
      'compose',
      'compose.compose',
      'compose.bulkcompose',
      'workflows',
      'teamroom',
      'compare',
      'reports',
      'features',
    ]);
  });

  it('gives the admin entry its own route and only the sub-items whose flags are on', () => {
    const settings = resolvePermissionSettings({ showEditReasons: false, showStamps: false });
    const admin = visibleMenu('admin', settings).find((item) => item.id === 'admin');
    expect(admin?.route).toBe('admin');
    expect(admin?.children?.map((child) => child.id)).toEqual(['admin.editWorkflowStates', 'admin.userSyncUp', 'admin.fieldMapping']);
  });

  it('shows root nothing and super admin settings only', () => {
    expect(visibleMenu('root', DEFAULT_PERMISSION_SETTINGS)).toEqual([]);
    expect(visibleMenu('super_admin', DEFAULT_PERMISSION_SETTINGS)).toEqual([{ id: 'settings', route: 'settings' }]);
  });

  it('does not change the shared MENU constant', () => {
    const before = JSON.stringify(MENU);
    visibleMenu('admin', resolvePermissionSettings({ showStamps: false }));
    expect(JSON.stringify(MENU)).toBe(before);
  });

  // A menu item must never lead to a refused route, under any combination of flags.
  const flagCombinations: Partial<PermissionSettings>[] = [
    {},
    { teamRoomsEnabled: false, pdfCompareEnabled: false, featuresEnabled: false },
    { restrictWorkflow: true, isMobileApp: true },
    { showEditReasons: false, showEditWorkflowStates: false, showUserSyncUp: false, showFieldMapping: false, showStamps: false },
  ];
  it.each(ROLES)('every visible item of %s leads to a route it may open', (role) => {
    for (const overrides of flagCombinations) {
      const settings = resolvePermissionSettings(overrides);
      const walk = (items: readonly MenuItem[]) => {
        for (const item of items) {
          if (item.route) expect(canAccessRoute(role, item.route, settings), `${role} ${item.id}`).toBe(true);
          if (item.children) walk(item.children);
        }
      };
      walk(visibleMenu(role, settings));
    }
  });
});

// Spec §6 "Menu visibility" bullets, compared with the default-settings table above.
const specUrl = new URL('../../../../../shared/spec/product-spec.md', import.meta.url);

function specMenus(): Map<string, string[]> {
  const spec = readFileSync(specUrl, 'utf8');
  const start = spec.indexOf('Menu visibility:');
  if (start < 0) throw new Error('"Menu visibility:" not found in the spec');
  const bullets = spec.slice(start).split('\n').slice(1);
  const result = new Map<string, string[]>();
  for (const line of bullets) {
    if (!line.startsWith('- ')) break;
    const [, who, rest] = /^- ([^:]+): (.*)$/.exec(line.trim()) ?? [];
    if (!who || !rest) throw new Error(`unreadable bullet: ${line}`);
    const firstSentence = rest.split('. ')[0]!.replace(/\.$/, '');
    let items: string[];
    if (/^all of the above plus the admin menu$/.test(firstSentence)) items = [...(result.get('custodian') ?? []), 'admin'];
    else if (/^settings only\b/.test(firstSentence)) items = ['settings'];
    else items = firstSentence.split(/,\s*/).map((item) => (item === 'compose and bulk compose' ? 'compose' : item));
    for (const role of who.split(' and ')) result.set(role.replace('super admin', 'super_admin'), items);
  }
  return result;
}

describe('menu table matches the spec text', () => {
  it('reads a bullet for every role but root', () => {
    expect([...specMenus().keys()].sort()).toEqual(ROLES.filter((role) => role !== 'root').sort());
  });

  it.each(ROLES.filter((role) => role !== 'root'))('%s: the top-level items of the table are the spec list', (role) => {
    const column = COLUMNS.indexOf(role);
    const fromTable = MENU_MATRIX.filter(([item, ...cells]) => !item.includes('.') && cells[column]).map(([item]) => item);
    expect(fromTable.sort()).toEqual([...(specMenus().get(role) ?? [])].sort());
  });
});
