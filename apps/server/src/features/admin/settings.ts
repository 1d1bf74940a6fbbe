import {
  applyTenantSettingsPatch,
  type InstallLimits,
  invalidInput,
  notFound,
  type PasswordConfig,
  resolveTenantSettings,
  TenantSettings,
  type TenantSettingsPatch,
  tenantSettingsProblems,
  type TenantSettingsView,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { loadPasswordConfig } from '../auth';
import type { Db } from '../../platform/db/database';
import { passwordConfigs, tenants, tenantSettings } from '../../platform/db/schema';
import { parseTenantSettings } from '../identity';
import { recordAdminAction } from '../../platform/audit-log';

/** GET /msbapi/v2/settings: what the tenant changed, what is in force, and the install's limits. */
export async function loadTenantSettingsView(options: { db: Db; tenantId: string; install: InstallLimits }): Promise<TenantSettingsView> {
  const { db, tenantId, install } = options;
  const [row] = await db.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId));
  const stored = parseTenantSettings(row?.settings);
  return {
    stored,
    inForce: resolveTenantSettings(stored, install),
    install: { teamRooms: install.teamRooms, pdfCompare: install.pdfCompare, features: install.features, supportedLanguages: [...install.supportedLanguages] },
    passwordConfig: await loadPasswordConfig(db, tenantId),
    updatedOn: row?.updatedAt.toISOString() ?? null,
  };
}

/** The keys whose value differs, each with its value before and after (undefined: the default). */
function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = { from: before[key] ?? null, to: after[key] ?? null };
  }
  return changes;
}

/**
 * PUT /msbapi/v2/settings. The row is locked while the patch is applied, so two super admins
 * saving different settings at once both keep their change. Everything is checked before anything
 * is written: one broken rule and nothing is saved. The change and its audit record commit
 * together; the next request of anyone in the tenant reads the new values (they are read with the
 * session, never cached across requests), so no restart is needed.
 */
export async function updateTenantSettings(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  install: InstallLimits;
  patch?: TenantSettingsPatch;
  passwordConfig?: PasswordConfig;
}): Promise<TenantSettingsView> {
  const { db, tenantId, install } = options;
  await db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: tenants.id, name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
    if (!tenant) throw notFound();
    const [row] = await tx.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).for('update');
    const before = parseTenantSettings(row?.settings);
    const after = options.patch ? applyTenantSettingsPatch(before, options.patch) : before;
    const parsed = TenantSettings.safeParse(after);
    if (!parsed.success) {
      throw invalidInput(
        'Some settings are not valid.',
        parsed.error.issues.map((issue) => ({ path: `settings.${issue.path.join('.')}`, message: issue.message })),
      );
    }
    // Only what this change touches is held to the cross-setting rules, so a value stored before
    // a rule existed does not block saving something else.
    const touched = new Set(Object.keys(options.patch ?? {}));
    const problems = tenantSettingsProblems(parsed.data, install).filter((problem) => touched.has(problem.path) || relatedTouched(problem.path, touched));
    if (problems.length > 0) {
      throw invalidInput('Some settings break a rule.', problems.map((problem) => ({ path: `settings.${problem.path}`, message: problem.message })));
    }

    const details: Record<string, unknown> = {};
    const settingChanges = changedKeys(before, parsed.data);
    if (Object.keys(settingChanges).length > 0) {
      details.settings = settingChanges;
      await tx
        .insert(tenantSettings)
        .values({ tenantId, settings: parsed.data, updatedAt: new Date() })
        .onConflictDoUpdate({ target: tenantSettings.tenantId, set: { settings: parsed.data, updatedAt: new Date() } });
      // The sign-in code by mail (OTP) is enforced by the tenant's sign-in rule; keep it in step.
      if (settingChanges.authMechanisms) {
        await tx.update(tenants).set({ requireEmailOtp: parsed.data.authMechanisms?.includes('OTP') ?? false }).where(eq(tenants.id, tenantId));
      }
    }
    if (options.passwordConfig) {
      const previous = await loadPasswordConfig(tx, tenantId);
      const passwordChanges = changedKeys(previous, options.passwordConfig);
      if (Object.keys(passwordChanges).length > 0) {
        details.passwordConfig = passwordChanges;
        await tx
          .insert(passwordConfigs)
          .values({ tenantId, config: options.passwordConfig, updatedAt: new Date() })
          .onConflictDoUpdate({ target: passwordConfigs.tenantId, set: { config: options.passwordConfig, updatedAt: new Date() } });
      }
    }
    if (Object.keys(details).length > 0) {
      await recordAdminAction({ db: tx, tenantId, actorId: options.actorId, action: 'settings_changed', target: { type: 'settings', id: tenantId, label: tenant.name }, details });
    }
  });
  return loadTenantSettingsView({ db, tenantId, install });
}

// A rule between two settings is checked when either of them changes.
const RELATED: Record<string, readonly string[]> = { cloudDriveClientId: ['cloudDriveUploadEnabled'] };
function relatedTouched(path: string, touched: ReadonlySet<string>): boolean {
  return (RELATED[path] ?? []).some((key) => touched.has(key));
}
