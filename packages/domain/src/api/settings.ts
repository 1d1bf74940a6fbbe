import { z } from 'zod';
import { LanguageCode } from '../languages';
import { PasswordConfig } from '../password-policy';
import { TenantSettings, TenantSettingsInForce, TenantSettingsPatch } from '../tenant-settings';
import { defineEndpoint } from './contract';

/**
 * /settings (spec §2 "settings (super admin only)"): a tenant's settings and flags. Stored values
 * are only what the tenant changed; `inForce` is what applies, defaults and the install's limits
 * included. Changes apply from the next request on, without a restart.
 */
export const TenantSettingsView = z.object({
  /** What this tenant changed from the defaults. */
  stored: TenantSettings,
  inForce: TenantSettingsInForce,
  /** What the install allows: a tenant may switch these features off, not on. */
  install: z.object({
    teamRooms: z.boolean(),
    pdfCompare: z.boolean(),
    features: z.boolean(),
    supportedLanguages: z.array(LanguageCode).min(1),
  }),
  passwordConfig: PasswordConfig,
  /** When a super admin last saved (null: never). */
  updatedOn: z.iso.datetime().nullable(),
});
export type TenantSettingsView = z.infer<typeof TenantSettingsView>;

export const getTenantSettings = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/settings',
  access: 'tenant',
  action: 'settings.read',
  summary: "The tenant's settings: what it changed, what is in force, what the install allows, and its password rules.",
  response: TenantSettingsView,
});

export const UpdateTenantSettingsBody = z
  .object({
    settings: TenantSettingsPatch.optional(),
    /** The whole password configuration (USER password rules of spec §5), replacing the stored one. */
    passwordConfig: PasswordConfig.optional(),
  })
  .strict()
  .refine((body) => body.settings !== undefined || body.passwordConfig !== undefined, { message: 'nothing to change' });
export type UpdateTenantSettingsBody = z.infer<typeof UpdateTenantSettingsBody>;

export const updateTenantSettings = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/settings',
  access: 'tenant',
  action: 'settings.update',
  summary:
    'Change settings (a key set to null goes back to its default) and/or the password rules; -6 naming each setting that breaks a rule, with nothing saved. Recorded in the audit log.',
  body: UpdateTenantSettingsBody,
  response: TenantSettingsView,
});
