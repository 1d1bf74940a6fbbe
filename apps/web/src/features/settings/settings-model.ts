import type { PasswordConfig, TenantSettingsInForce, TenantSettingsPatch, TenantSettingsView, UpdateTenantSettingsBody } from '@pakt/domain';
import type { ApiIssue } from '../../api/client';

/** What the form edits: every setting in force, and the password rules. */
export interface SettingsDraft {
  readonly settings: TenantSettingsInForce;
  readonly passwordConfig: PasswordConfig;
}

export const draftOf = (view: TenantSettingsView): SettingsDraft => ({ settings: view.inForce, passwordConfig: view.passwordConfig });

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The body that saves a draft: only the settings that differ from what is in force, and the
 * password rules only when one of them changed. Null when nothing changed.
 */
export function changesOf(view: TenantSettingsView, draft: SettingsDraft): UpdateTenantSettingsBody | null {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft.settings)) {
    if (!same(value, view.inForce[key as keyof TenantSettingsInForce])) patch[key] = value;
  }
  const body: { settings?: TenantSettingsPatch; passwordConfig?: PasswordConfig } = {};
  if (Object.keys(patch).length > 0) body.settings = patch as TenantSettingsPatch;
  if (!same(draft.passwordConfig, view.passwordConfig)) body.passwordConfig = draft.passwordConfig;
  return body.settings || body.passwordConfig ? body : null;
}

/** How many fields a draft changes, for the save bar. */
export function changeCount(view: TenantSettingsView, draft: SettingsDraft): number {
  const body = changesOf(view, draft);
  if (!body) return 0;
  const passwordChanges = body.passwordConfig
    ? Object.keys(body.passwordConfig).filter((key) => !same(body.passwordConfig![key as keyof PasswordConfig], view.passwordConfig[key as keyof PasswordConfig])).length
    : 0;
  return Object.keys(body.settings ?? {}).length + passwordChanges;
}

/**
 * The server names a refused setting `settings.<key>` (its own rules) or `body.settings.<key>.<n>`
 * (the schema's); the form shows each beside its field, keyed `settings.<key>` or
 * `passwordConfig.<key>`.
 */
export function fieldErrors(issues: readonly ApiIssue[] | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues ?? []) {
    const parts = issue.path.split('.').filter((part) => part !== 'body');
    if (parts.length < 2 || (parts[0] !== 'settings' && parts[0] !== 'passwordConfig')) continue;
    const field = `${parts[0]}.${parts[1]}`;
    errors[field] ??= issue.message;
  }
  return errors;
}
