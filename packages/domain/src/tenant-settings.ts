import { z } from 'zod';
import { Role } from './constants/roles';
import { AUTH_MECHANISMS, AuthMechanism, DocumentFormat, GeolocationType, VerificationMode, ViewEnforceOption } from './constants/ui';
import { SIGNING_STATE_TYPES, type WorkflowStateType } from './constants/workflow';
import { LanguageCode } from './languages';
import { type PermissionSettings, resolvePermissionSettings } from './permissions';

export const COMPLETION_MAIL_RECIPIENTS = ['everyone', 'owner'] as const;
export const CompletionMailRecipients = z.enum(COMPLETION_MAIL_RECIPIENTS);
export type CompletionMailRecipients = z.infer<typeof CompletionMailRecipients>;

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
    /** Spec §6: members may keep rubber stamps and apply them when signing (off unless set). */
    rubberStampEnabled: z.boolean(),
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
     * Refuse uploads whose earlier signatures do not hold: one is broken, or the file was changed
     * after its last signature (off: such files are taken, and the custodian and signers are told).
     */
    refuseDoubtfulSignatures: z.boolean(),
    /**
     * The public record behind a certificate's QR code shows the ePak's subject and signers' names
     * (off: only the organisation, status, completion time and the documents' fingerprints).
     */
    publicRecordShowsNames: z.boolean(),
    /**
     * The first signature on each document also draws a stamp line at its first page's lower left:
     * a QR code of the document's public record and its address (off unless set).
     */
    documentQrStamp: z.boolean(),
    /**
     * Recipient filters of spec §5 (signer input): who compose may send to. Addresses only in
     * these domains (the internal-domain filter; empty or absent: any domain).
     */
    recipientDomains: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)).max(50),
    /** Only people who have verified their address (registered users), so no new invitations. */
    recipientsVerifiedOnly: z.boolean(),
    /** Only members of this tenant holding one of these roles (empty or absent: anyone). */
    recipientRoles: z.array(Role).max(10),
    /**
     * Who is mailed the signed documents when an ePak completes: everyone who took part (the
     * owner and every reviewer, signer and EMAIL-step recipient), or the owner alone.
     */
    completionMailRecipients: CompletionMailRecipients,
    /** Days the link in an outsider's completion mail opens the completed ePak (read-only). */
    completedLinkDays: z.number().int().min(1).max(365),
    /** Whether compose shows the "must be read before acting" choice, and what it starts as (spec §9). */
    viewEnforceOption: ViewEnforceOption,
    /** Whether signers are asked where they are when they sign (spec §9 geolocation types). */
    geolocationType: GeolocationType,
    /** Whether recipients must prove who they are before acting (spec §9 verification modes). */
    verificationMode: VerificationMode,
    /** How members may sign in (spec §9 auth mechanisms); at least one. */
    authMechanisms: z.array(AuthMechanism).min(1).max(AUTH_MECHANISMS.length),
    /** Days an ePak stays open for action when its composer sets no expiry ("ePak expiry days"). */
    ePakExpiryDays: z.number().int().min(1).max(3650),
    /** Days a finished ePak is kept before it may be archived ("ePak retention period"). */
    ePakRetentionDays: z.number().int().min(1).max(36500),
    /** The inbox shows Archived for what one sent / received ("sent and received archive folders"). */
    sentArchiveFolder: z.boolean(),
    receivedArchiveFolder: z.boolean(),
    /** Lists of people show their UUID column ("user UUID column display"). */
    showUserUuidColumn: z.boolean(),
    /**
     * User sync-up: the directory feed, a file the operator drops in this tenant's folder of the
     * install's USER_SYNC_DIR (a name only: no folders, so a tenant can never read outside it).
     */
    userSyncFileName: z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\.(csv|json)$/i),
    /** Members the feed no longer lists are disabled (otherwise they are left alone). */
    userSyncDisableMissing: z.boolean(),
    /** The role of people the feed adds without naming one. */
    userSyncDefaultRole: z.enum(['custodian', 'submitter', 'signer', 'registrar']),
    /**
     * One session per person: a new sign-in ends the person's other sessions, which then answer
     * -32 (dual session detected). Applies to whoever holds an active membership here.
     */
    singleSession: z.boolean(),
    /** A session works only from the address it was opened from (-26, token IP mismatch). */
    bindSessionToAddress: z.boolean(),
  })
  .partial();
export type TenantSettings = z.infer<typeof TenantSettings>;

export const DEFAULT_INVITATION_VALIDITY_DAYS = 7;
export const DEFAULT_USER_SYNC_ROLE = 'signer' as const;
/** As long as a signing link lasts by default (SIGNING_LINK_DAYS): a month to fetch one's copy. */
export const DEFAULT_COMPLETED_LINK_DAYS = 30;

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
    rubberStampEnabled: tenant.rubberStampEnabled,
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

/** Signer verification when the tenant sets no mode: nobody is asked for a code. */
export const DEFAULT_VERIFICATION_MODE: VerificationMode = 'OFF';

/**
 * What a verification mode (spec §9) means for one signer at compose: whether the composer sees a
 * "verify with a code" choice for them, what it starts as, and what is in force given the choice
 * made (`chosen`, undefined while untouched). ON and OFF are the tenant's: no choice is shown and
 * whatever a client sent is ignored. Only signing steps ask (a reviewer is never asked).
 */
export function signerVerificationChoice(
  mode: VerificationMode = DEFAULT_VERIFICATION_MODE,
  chosen?: boolean,
): { shown: boolean; initial: boolean; required: boolean } {
  switch (mode) {
    case 'ON':
      return { shown: false, initial: true, required: true };
    case 'OFF':
      return { shown: false, initial: false, required: false };
    case 'DefaultSelectiveON':
      return { shown: true, initial: true, required: chosen ?? true };
    case 'DefaultSelectiveOFF':
      return { shown: true, initial: false, required: chosen ?? false };
  }
}

/**
 * Whether a recipient of a step of this type must confirm a code before signing or delegating:
 * only signers are asked (a reviewer never is), as the mode and the composer's choice say.
 */
export function signerVerificationRequired(mode: VerificationMode | undefined, stepType: WorkflowStateType, chosen?: boolean): boolean {
  return (SIGNING_STATE_TYPES as readonly WorkflowStateType[]).includes(stepType) && signerVerificationChoice(mode, chosen).required;
}

/** What the install allows, whatever a tenant says: its feature flags and its languages. */
export interface InstallLimits extends InstallFeatures {
  supportedLanguages: readonly LanguageCode[];
}

/**
 * Every setting's value in force for a tenant, defaults filled in: what the settings screen shows.
 * `null` for the values that have none until a super admin sets one.
 */
export const TenantSettingsInForce = TenantSettings.required().extend({
  cloudDriveClientId: z.string().nullable(),
  ePakExpiryDays: z.number().int().nullable(),
  ePakRetentionDays: z.number().int().nullable(),
  userSyncFileName: z.string().nullable(),
});
export type TenantSettingsInForce = z.infer<typeof TenantSettingsInForce>;

/** The value of each setting a tenant has not changed. Feature switches follow the install's. */
export function resolveTenantSettings(stored: TenantSettings, install: InstallLimits): TenantSettingsInForce {
  const permission = effectivePermissionSettings(install, stored);
  const languages = (stored.supportedLanguages ?? install.supportedLanguages).filter((l) => install.supportedLanguages.includes(l));
  return {
    teamRoomsEnabled: permission.teamRoomsEnabled,
    pdfCompareEnabled: permission.pdfCompareEnabled,
    featuresEnabled: permission.featuresEnabled,
    restrictWorkflow: permission.restrictWorkflow,
    showEditReasons: permission.showEditReasons,
    showEditWorkflowStates: permission.showEditWorkflowStates,
    showUserSyncUp: permission.showUserSyncUp,
    showFieldMapping: permission.showFieldMapping,
    showStamps: permission.showStamps,
    rubberStampEnabled: permission.rubberStampEnabled,
    supportedLanguages: languages.length > 0 ? languages : [...install.supportedLanguages],
    invitationValidityDays: stored.invitationValidityDays ?? DEFAULT_INVITATION_VALIDITY_DAYS,
    skipNewUsers: stored.skipNewUsers ?? false,
    cloudDriveUploadEnabled: stored.cloudDriveUploadEnabled ?? false,
    cloudDriveClientId: stored.cloudDriveClientId ?? null,
    disabledDocumentFormats: stored.disabledDocumentFormats ?? [],
    refuseDoubtfulSignatures: stored.refuseDoubtfulSignatures ?? false,
    publicRecordShowsNames: stored.publicRecordShowsNames ?? false,
    documentQrStamp: stored.documentQrStamp ?? false,
    recipientDomains: stored.recipientDomains ?? [],
    recipientsVerifiedOnly: stored.recipientsVerifiedOnly ?? false,
    recipientRoles: stored.recipientRoles ?? [],
    completionMailRecipients: stored.completionMailRecipients ?? 'everyone',
    completedLinkDays: stored.completedLinkDays ?? DEFAULT_COMPLETED_LINK_DAYS,
    viewEnforceOption: stored.viewEnforceOption ?? DEFAULT_VIEW_ENFORCE_OPTION,
    geolocationType: stored.geolocationType ?? 'OFF',
    verificationMode: stored.verificationMode ?? DEFAULT_VERIFICATION_MODE,
    authMechanisms: stored.authMechanisms ?? ['MSBAUTH'],
    ePakExpiryDays: stored.ePakExpiryDays ?? null,
    ePakRetentionDays: stored.ePakRetentionDays ?? null,
    sentArchiveFolder: stored.sentArchiveFolder ?? true,
    receivedArchiveFolder: stored.receivedArchiveFolder ?? true,
    showUserUuidColumn: stored.showUserUuidColumn ?? false,
    userSyncFileName: stored.userSyncFileName ?? null,
    userSyncDisableMissing: stored.userSyncDisableMissing ?? false,
    userSyncDefaultRole: stored.userSyncDefaultRole ?? DEFAULT_USER_SYNC_ROLE,
    singleSession: stored.singleSession ?? false,
    bindSessionToAddress: stored.bindSessionToAddress ?? false,
  };
}

/**
 * A change to a tenant's settings: each key given replaces the stored value, `null` puts the
 * setting back to its default, and a key left out is left alone. Unknown keys are refused.
 */
export const TenantSettingsPatch = z
  .object(Object.fromEntries(Object.entries(TenantSettings.shape).map(([key, schema]) => [key, schema.unwrap().nullable().optional()])) as {
    [K in keyof typeof TenantSettings.shape]: z.ZodOptional<z.ZodNullable<(typeof TenantSettings.shape)[K]['def']['innerType']>>;
  })
  .strict();
export type TenantSettingsPatch = z.infer<typeof TenantSettingsPatch>;

/** Applies a patch to stored settings (null removes the key, so the default applies again). */
export function applyTenantSettingsPatch(stored: TenantSettings, patch: TenantSettingsPatch): TenantSettings {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as TenantSettings;
}

/**
 * Rules across settings, or between a setting and the install, that a schema cannot state. Each
 * problem names its setting, so a form can show it beside the field.
 */
export function tenantSettingsProblems(settings: TenantSettings, install: InstallLimits): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const offForInstall = 'Switched off for the whole install: it cannot be switched on for one tenant.';
  if (settings.teamRoomsEnabled && !install.teamRooms) problems.push({ path: 'teamRoomsEnabled', message: offForInstall });
  if (settings.pdfCompareEnabled && !install.pdfCompare) problems.push({ path: 'pdfCompareEnabled', message: offForInstall });
  if (settings.featuresEnabled && !install.features) problems.push({ path: 'featuresEnabled', message: offForInstall });
  const foreign = (settings.supportedLanguages ?? []).filter((language) => !install.supportedLanguages.includes(language));
  if (foreign.length > 0) {
    problems.push({ path: 'supportedLanguages', message: `Not offered by this install: ${foreign.join(', ')} (it offers ${install.supportedLanguages.join(', ')}).` });
  }
  if (settings.cloudDriveUploadEnabled && !settings.cloudDriveClientId) {
    problems.push({ path: 'cloudDriveClientId', message: 'Cloud-drive upload needs the application (client) ID registered with the drive.' });
  }
  // Passwords are the one first factor this install has; the others are second factors or need
  // an identity provider it does not have, so a tenant without passwords could not sign in.
  if (settings.authMechanisms && !settings.authMechanisms.includes('MSBAUTH')) {
    problems.push({ path: 'authMechanisms', message: 'MSBAUTH (sign-in with a password) must stay on: it is the only first factor of this install.' });
  }
  if (settings.authMechanisms?.includes('SSO')) {
    problems.push({ path: 'authMechanisms', message: 'SSO needs an identity provider, and none is configured on this install.' });
  }
  for (const key of ['disabledDocumentFormats', 'recipientDomains', 'recipientRoles', 'authMechanisms', 'supportedLanguages'] as const) {
    const values = settings[key] as readonly string[] | undefined;
    if (values && new Set(values).size !== values.length) problems.push({ path: key, message: 'A value is listed twice.' });
  }
  if ((settings.disabledDocumentFormats ?? []).includes('pdf')) {
    problems.push({ path: 'disabledDocumentFormats', message: 'PDF cannot be refused: every document becomes a PDF to be signed.' });
  }
  return problems;
}
