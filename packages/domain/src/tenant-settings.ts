import { z } from 'zod';
import { Role } from './constants/roles';
import { DocumentFormat, ViewEnforceOption } from './constants/ui';
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
    /** USER_INVITE_CONFIG: how long invitation links work. */
    invitationValidityDays: z.number().int().min(1).max(90),
    /** USER_INVITE_CONFIG: compose leaves out unknown addresses instead of inviting them. */
    skipNewUsers: z.boolean(),
    /** ONE_DRIVE_CONFIG: signed documents may be uploaded to the user's cloud drive. */
    cloudDriveUploadEnabled: z.boolean(),
    /** ONE_DRIVE_CONFIG: the application (client) id registered with the drive; never a secret. */
    cloudDriveClientId: z.string().trim().min(1).max(200),
    /** Upload formats of spec §5 this tenant does not take (-177). */
    disabledDocumentFormats: z.array(DocumentFormat),
    /**
     * Recipient filters of spec §5 (signer input): who compose may send to. Addresses only in
     * these domains (the internal-domain filter; empty or absent: any domain).
     */
    recipientDomains: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)).max(50),
    /** Only people who have verified their address (registered users), so no new invitations. */
    recipientsVerifiedOnly: z.boolean(),
    /** Only members of this tenant holding one of these roles (empty or absent: anyone). */
    recipientRoles: z.array(Role).max(10),
    /** Whether compose shows the "must be read before acting" choice, and what it starts as (spec §9). */
    viewEnforceOption: ViewEnforceOption,
  })
  .partial();
export type TenantSettings = z.infer<typeof TenantSettings>;

export const DEFAULT_INVITATION_VALIDITY_DAYS = 7;

/**
 * GET /msbapi/v1/config answers one config type (spec section 9) at a time: the values in force
 * for the tenant, defaults filled in.
 */
export const FeatureConfig = z.object({
  configType: z.literal('FEATURE_CONFIG'),
  teamRoomsEnabled: z.boolean(),
  pdfCompareEnabled: z.boolean(),
  featuresEnabled: z.boolean(),
  restrictWorkflow: z.boolean(),
  supportedLanguages: z.array(LanguageCode).min(1),
});
export const UserInviteConfig = z.object({
  configType: z.literal('USER_INVITE_CONFIG'),
  invitationValidityDays: z.number().int().positive(),
  skipNewUsers: z.boolean(),
});
export const OneDriveConfig = z.object({
  configType: z.literal('ONE_DRIVE_CONFIG'),
  enabled: z.boolean(),
  clientId: z.string().nullable(),
});
export const TenantConfig = z.discriminatedUnion('configType', [FeatureConfig, UserInviteConfig, OneDriveConfig]);
export type TenantConfig = z.infer<typeof TenantConfig>;

/** One config type's values for a tenant; `languages` are those the tenant really offers. */
export function tenantConfigOfType(
  configType: TenantConfig['configType'],
  settings: PermissionSettings,
  tenant: TenantSettings,
  languages: readonly LanguageCode[],
): TenantConfig {
  switch (configType) {
    case 'FEATURE_CONFIG':
      return {
        configType,
        teamRoomsEnabled: settings.teamRoomsEnabled,
        pdfCompareEnabled: settings.pdfCompareEnabled,
        featuresEnabled: settings.featuresEnabled,
        restrictWorkflow: settings.restrictWorkflow,
        supportedLanguages: [...languages],
      };
    case 'USER_INVITE_CONFIG':
      return {
        configType,
        invitationValidityDays: tenant.invitationValidityDays ?? DEFAULT_INVITATION_VALIDITY_DAYS,
        skipNewUsers: tenant.skipNewUsers ?? false,
      };
    case 'ONE_DRIVE_CONFIG':
      return {
        configType,
        enabled: (tenant.cloudDriveUploadEnabled ?? false) && !!tenant.cloudDriveClientId,
        clientId: tenant.cloudDriveClientId ?? null,
      };
  }
}

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

/** Who a recipient filter looks at: the address, whether it is verified, the role held here. */
export interface RecipientCandidate {
  readonly email: string;
  readonly verified: boolean;
  /** The role in this tenant; null for someone who is not a member (an external or new user). */
  readonly role: Role | null;
}

export const RECIPIENT_FILTERS = ['domain', 'verified', 'role'] as const;
export type RecipientFilter = (typeof RECIPIENT_FILTERS)[number];

/**
 * The first of the tenant's recipient filters a person fails ('invalid filter', spec §5), or
 * null when they may receive ePaks. A subdomain of an internal domain counts as internal.
 */
export function failedRecipientFilter(
  settings: Pick<TenantSettings, 'recipientDomains' | 'recipientsVerifiedOnly' | 'recipientRoles'>,
  candidate: RecipientCandidate,
): RecipientFilter | null {
  const domains = settings.recipientDomains ?? [];
  if (domains.length > 0) {
    const domain = candidate.email.slice(candidate.email.lastIndexOf('@') + 1).toLowerCase();
    if (!domains.some((allowed) => domain === allowed || domain.endsWith(`.${allowed}`))) return 'domain';
  }
  if (settings.recipientsVerifiedOnly && !candidate.verified) return 'verified';
  const roles = settings.recipientRoles ?? [];
  if (roles.length > 0 && (candidate.role === null || !roles.includes(candidate.role))) return 'role';
  return null;
}

/** Compose's view-enforcement choice when the tenant sets none: shown, starting off. */
export const DEFAULT_VIEW_ENFORCE_OPTION: ViewEnforceOption = 'ShowWithDefaultOff';

/** What a view-enforce option (spec §9) means for compose: is the choice shown, and its start. */
export function viewEnforceChoice(option: ViewEnforceOption = DEFAULT_VIEW_ENFORCE_OPTION): { shown: boolean; initial: boolean } {
  return { shown: option.startsWith('Show'), initial: option.endsWith('DefaultOn') };
}

/**
 * Whether a new ePak is view-enforced: the composer's choice when the option shows it, else the
 * option's default, whatever a client sent (a hidden choice is the tenant's, not the composer's).
 */
export function resolveViewEnforced(option: ViewEnforceOption | undefined, requested: boolean | undefined): boolean {
  const choice = viewEnforceChoice(option);
  return choice.shown ? (requested ?? choice.initial) : choice.initial;
}
