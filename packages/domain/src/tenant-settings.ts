import { z } from 'zod';
import { LanguageCode } from './languages';
import { type PermissionSettings, resolvePermissionSettings } from './permissions';

/**
 * A tenant's own switches (the settings spec sections 2 and 6 refer to). Stored per tenant;
 * every field optional, so a stored row states only what the tenant changed. A feature switched
 * off for the whole install stays off whatever a tenant says.
 */
export const TenantSettings = z
  .object({
    teamRoomsEnabled: z.boolean(),
    pdfCompareEnabled: z.boolean(),
    featuresEnabled: z.boolean(),
    restrictWorkflow: z.boolean(),
    showEditReasons: z.boolean(),
    showEditWorkflowStates: z.boolean(),
    showUserSyncUp: z.boolean(),
    showFieldMapping: z.boolean(),
    showStamps: z.boolean(),
    supportedLanguages: z.array(LanguageCode).min(1),
  })
  .partial();
export type TenantSettings = z.infer<typeof TenantSettings>;

export interface InstallFeatures {
  teamRooms: boolean;
  pdfCompare: boolean;
  features: boolean;
}

/** The permission settings in force for a tenant: install flags AND tenant flags, defaults elsewhere. */
export function effectivePermissionSettings(install: InstallFeatures, tenant: TenantSettings, client: { isMobileApp?: boolean } = {}): PermissionSettings {
  const both = (installOn: boolean, tenantOn: boolean | undefined) => installOn && tenantOn !== false;
  return resolvePermissionSettings({
    teamRoomsEnabled: both(install.teamRooms, tenant.teamRoomsEnabled),
    pdfCompareEnabled: both(install.pdfCompare, tenant.pdfCompareEnabled),
    featuresEnabled: both(install.features, tenant.featuresEnabled),
    restrictWorkflow: tenant.restrictWorkflow,
    showEditReasons: tenant.showEditReasons,
    showEditWorkflowStates: tenant.showEditWorkflowStates,
    showUserSyncUp: tenant.showUserSyncUp,
    showFieldMapping: tenant.showFieldMapping,
    showStamps: tenant.showStamps,
    isMobileApp: client.isMobileApp,
  });
}
