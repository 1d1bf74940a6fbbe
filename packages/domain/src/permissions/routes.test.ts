import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../constants/roles';
import {
  APP_ROUTES,
  GUARDED_ROUTES,
  PUBLIC_ROUTES,
  canAccessRoute,
  defaultRouteFor,
  forcedRouteForStatus,
  isPublicRoute,
  routeFromPathname,
  routePath,
  type AppRoute,
} from './routes';
import { DEFAULT_PERMISSION_SETTINGS, resolvePermissionSettings, type PermissionSettings } from './settings';

const Y = true;
const N = false;

/**
 * Every role x every route with default settings, written out by hand from spec §2 (and the
 * documented choices for root, super_admin and epaks). Not derived from the implementation.
 */
// prettier-ignore
const ROUTE_MATRIX: ReadonlyArray<readonly [AppRoute, ...boolean[]]> = [
  //  route                root super_admin signer submitter custodian admin registrar
  ['login',                 Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['signup',                Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['accessdenied',          Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['emailsign',             Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['forgetpassword',        Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['resetpassword',         Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['register',              Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['thanks',                Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['landing',               Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['mobileinternallogin',   Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['sign',                  Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['verify',                Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['dashboard',             N,   N,          Y,     Y,        Y,        Y,    Y],
  ['epaks',                 N,   N,          Y,     Y,        Y,        Y,    Y],
  ['profile',               Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['changepassword',        Y,   Y,          Y,     Y,        Y,        Y,    Y],
  ['workflows',             N,   N,          N,     Y,        Y,        Y,    N],
  ['compose',               N,   N,          N,     Y,        Y,        Y,    N],
  ['bulkcompose',           N,   N,          N,     Y,        Y,        Y,    N],
  ['settings',              N,   Y,          N,     N,        N,        N,    N],
  ['admin',                 N,   N,          N,     N,        N,        Y,    N],
  ['fieldsmapping',         N,   N,          N,     N,        N,        Y,    N],
  ['stamppapers',           N,   N,          N,     N,        N,        Y,    N],
  ['reports',               N,   N,          Y,     Y,        Y,        Y,    N],
  ['teamroom',              N,   N,          Y,     Y,        Y,        Y,    N],
  ['trDocument',            N,   N,          Y,     Y,        Y,        Y,    N],
  ['compare',               N,   N,          N,     Y,        Y,        Y,    N],
  ['features',              N,   N,          Y,     Y,        Y,        Y,    Y],
  ['authenticate',          Y,   Y,          Y,     Y,        Y,        Y,    N],
  ['aadhaar-redirect',      N,   N,          Y,     Y,        Y,        Y,    Y],
  ['root',                  Y,   N,          N,     N,        N,        N,    N],
];
const MATRIX_ROLES = ['root', 'super_admin', 'signer', 'submitter', 'custodian', 'admin', 'registrar'] as const satisfies readonly Role[];

const matrixRows = ROUTE_MATRIX.flatMap(([route, ...cells]) =>
  MATRIX_ROLES.map((role, column) => ({ role, route, allowed: cells[column]! })),
);

describe('route matrix, default settings', () => {
  it('covers every role and every route exactly once', () => {
    expect([...MATRIX_ROLES].sort()).toEqual([...ROLES].sort());
    expect(ROUTE_MATRIX.map(([route]) => route).sort()).toEqual([...APP_ROUTES].sort());
    expect(ROUTE_MATRIX.every((row) => row.length === MATRIX_ROLES.length + 1)).toBe(true);
  });

  it.each(matrixRows.map(({ role, route, allowed }) => [role, route, allowed] as const))('%s -> /%s: %s', (role, route, allowed) => {
    expect(canAccessRoute(role, route, DEFAULT_PERMISSION_SETTINGS)).toBe(allowed);
  });
});

type SettingsRow = readonly [label: string, role: Role, route: AppRoute, settings: Partial<PermissionSettings>, allowed: boolean];

// prettier-ignore
const SETTINGS_ROWS: readonly SettingsRow[] = [
  ['team rooms off closes teamroom',            'signer',    'teamroom',      { teamRoomsEnabled: false },  N],
  ['team rooms off closes teamroom',            'admin',     'teamroom',      { teamRoomsEnabled: false },  N],
  ['team rooms off closes trDocument',          'custodian', 'trDocument',    { teamRoomsEnabled: false },  N],
  ['team rooms on opens teamroom',              'signer',    'teamroom',      { teamRoomsEnabled: true },   Y],
  ['team rooms off leaves dashboard',           'signer',    'dashboard',     { teamRoomsEnabled: false },  Y],
  ['compare off closes compare',                'submitter', 'compare',       { pdfCompareEnabled: false }, N],
  ['compare off closes compare',                'custodian', 'compare',       { pdfCompareEnabled: false }, N],
  ['compare off closes compare',                'admin',     'compare',       { pdfCompareEnabled: false }, N],
  ['compare on does not open it to signers',    'signer',    'compare',       { pdfCompareEnabled: true },  N],
  ['features off closes features',              'signer',    'features',      { featuresEnabled: false },   N],
  ['features off closes features',              'registrar', 'features',      { featuresEnabled: false },   N],
  ['features off closes features',              'admin',     'features',      { featuresEnabled: false },   N],
  ['features on never opens it to super admin', 'super_admin','features',     { featuresEnabled: true },    N],
  ['restrict-workflow closes it to submitter',  'submitter', 'workflows',     { restrictWorkflow: true },   N],
  ['restrict-workflow keeps it for custodian',  'custodian', 'workflows',     { restrictWorkflow: true },   Y],
  ['restrict-workflow keeps it for admin',      'admin',     'workflows',     { restrictWorkflow: true },   Y],
  ['restrict-workflow leaves compose alone',    'submitter', 'compose',       { restrictWorkflow: true },   Y],
  ['mobile app hides reports',                  'signer',    'reports',       { isMobileApp: true },        N],
  ['mobile app hides reports',                  'admin',     'reports',       { isMobileApp: true },        N],
  ['mobile app keeps dashboard',                'signer',    'dashboard',     { isMobileApp: true },        Y],
  ['field mapping flag off closes fieldsmapping','admin',    'fieldsmapping', { showFieldMapping: false },  N],
  ['stamps flag off closes stamppapers',        'admin',     'stamppapers',   { showStamps: false },        N],
  ['edit reasons flag off keeps /admin',        'admin',     'admin',         { showEditReasons: false },   Y],
  ['workflow states flag off keeps /admin',     'admin',     'admin',         { showEditWorkflowStates: false }, Y],
  ['user sync flag off keeps /admin',           'admin',     'admin',         { showUserSyncUp: false },    Y],
  ['every admin flag off keeps /admin',         'admin',     'admin',         { showEditReasons: false, showEditWorkflowStates: false, showUserSyncUp: false, showFieldMapping: false, showStamps: false }, Y],
  ['all flags off still leaves public routes',  'signer',    'login',         { teamRoomsEnabled: false, pdfCompareEnabled: false, featuresEnabled: false, isMobileApp: true }, Y],
];

describe('route access under settings', () => {
  it.each(SETTINGS_ROWS)('%s (%s -> /%s)', (_label, role, route, overrides, allowed) => {
    expect(canAccessRoute(role, route, resolvePermissionSettings(overrides))).toBe(allowed);
  });
});

describe('route helpers', () => {
  it('splits routes into public and guarded with nothing left over', () => {
    expect(PUBLIC_ROUTES.filter((r) => (GUARDED_ROUTES as readonly string[]).includes(r))).toEqual([]);
    expect(APP_ROUTES.filter((r) => isPublicRoute(r))).toEqual([...PUBLIC_ROUTES]);
  });

  it.each([
    ['/dashboard', 'dashboard'],
    ['/dashboard?searchKey=subject&searchVal=x', 'dashboard'],
    ['/aadhaar-redirect', 'aadhaar-redirect'],
    ['/trDocument/42', 'trDocument'],
    ['/accessdenied?status=expired', 'accessdenied'],
    ['/', undefined],
    ['/nowhere', undefined],
    ['/Dashboard', undefined],
  ] as const)('routeFromPathname(%s) = %s', (pathname, route) => {
    expect(routeFromPathname(pathname)).toBe(route);
  });

  it('round-trips every route through its path', () => {
    for (const route of APP_ROUTES) expect(routeFromPathname(routePath(route))).toBe(route);
  });

  it.each([
    ['root', 'root'],
    ['super_admin', 'settings'],
    ['admin', 'dashboard'],
    ['custodian', 'dashboard'],
    ['submitter', 'dashboard'],
    ['signer', 'dashboard'],
    ['registrar', 'dashboard'],
  ] as const)('%s lands on /%s, which it may open', (role, route) => {
    expect(defaultRouteFor(role)).toBe(route);
    expect(canAccessRoute(role, route, DEFAULT_PERMISSION_SETTINGS)).toBe(true);
  });

  it.each([
    ['expired', 'changepassword'],
    ['resetpassword', 'changepassword'],
    ['enabled', undefined],
    ['admininvited', undefined],
    [undefined, undefined],
  ] as const)('status %s forces %s', (status, route) => {
    expect(forcedRouteForStatus(status)).toBe(route);
  });
});

describe('permission settings', () => {
  it('fills unstated and undefined flags from the defaults', () => {
    expect(resolvePermissionSettings()).toEqual(DEFAULT_PERMISSION_SETTINGS);
    expect(resolvePermissionSettings({ teamRoomsEnabled: undefined, isMobileApp: true })).toEqual({
      ...DEFAULT_PERMISSION_SETTINGS,
      isMobileApp: true,
    });
  });
});

// The spec lives beside the checkout (../shared). Read inside the tests so a missing spec fails them
// (ENOENT) instead of skipping the comparison.
const specUrl = new URL('../../../../../shared/spec/product-spec.md', import.meta.url);
const readSpec = () => readFileSync(specUrl, 'utf8');

/** Spec §2 "Per-role route access" bullets, resolving "the X list plus ..." and "the same as X". */
function specRoleRoutes(spec: string): Map<string, Set<string>> {
  const start = spec.indexOf('Per-role route access:');
  if (start < 0) throw new Error('"Per-role route access:" not found in the spec');
  const lines = spec.slice(start).split('\n').slice(1);
  const bullets = lines.slice(lines.findIndex((line) => line.startsWith('- ')));
  const result = new Map<string, Set<string>>();
  for (const line of bullets) {
    if (!line.startsWith('- ')) break;
    const match = /^- ([\w ]+): (.*?)\.?$/.exec(line.trim());
    if (!match) throw new Error(`unreadable bullet: ${line}`);
    const [, role, text] = match as unknown as [string, string, string];
    const same = /^the same as (\w+)$/.exec(text);
    const plus = /^the (\w+) list plus (.*)$/.exec(text);
    const base = same?.[1] ?? plus?.[1];
    const routes = new Set(base ? result.get(base) : []);
    if (base && !result.has(base)) throw new Error(`${role} refers to ${base}, not listed before it`);
    if (!same) for (const route of (plus?.[2] ?? text).split(/,\s*/)) routes.add(route.trim());
    result.set(role, routes);
  }
  return result;
}

describe('route tables match the spec text', () => {
  it('reads the per-role route bullets for exactly the roles the spec lists', () => {
    const parsed = specRoleRoutes(readSpec());
    expect([...parsed.keys()]).toEqual(['signer', 'submitter', 'custodian', 'admin', 'registrar']);
  });

  // epaks is not in any route list of §2: it is granted to the roles whose §6 menu shows it.
  const allowedInMatrix = (role: Role) =>
    matrixRows
      .filter((row) => row.role === role && row.allowed && !isPublicRoute(row.route) && row.route !== 'epaks')
      .map((row) => row.route)
      .sort();

  it.each(['signer', 'submitter', 'custodian', 'admin', 'registrar'] as const)(
    '%s: the guarded routes of the table are the spec list',
    (role) => {
      const spec = specRoleRoutes(readSpec()).get(role);
      expect(spec, `no bullet for ${role}`).toBeDefined();
      // verify is in every role's spec list, and public since issue 20's verifier: anyone may open it.
      expect(allowedInMatrix(role)).toEqual([...spec!].filter((route) => route !== 'verify').sort());
    },
  );

  it('every route of the spec "Routes:" paragraph is an AppRoute, and epaks is the only addition', () => {
    const spec = readSpec();
    const start = spec.indexOf('Routes: /login');
    expect(start, '"Routes:" paragraph not found in the spec').toBeGreaterThanOrEqual(0);
    const paragraph = spec.slice(start, spec.indexOf('\n\n', start));
    const specRoutes = [...paragraph.matchAll(/\/([A-Za-z][\w-]*)/g)].map((m) => m[1]);
    expect([...specRoutes, 'epaks'].sort()).toEqual([...APP_ROUTES].sort());
  });
});
