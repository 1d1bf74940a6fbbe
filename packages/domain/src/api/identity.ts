import { z } from 'zod';
import { ConfigType, Role, UserStatus, UserType, VerificationMode, ViewEnforceOption } from '../constants';
import { TenantConfig } from '../tenant-settings';
import { EmailAddress } from '../constants/validation';
import { PASSWORD_MAX_LENGTH, PasswordConfig } from '../password-policy';
import { LanguageCode } from '../languages';
import { ASSIGNABLE_ROLES, PermissionSettings } from '../permissions';
import { type BinaryBody, defineEndpoint } from './contract';

const Name = z.string().trim().min(1).max(100);
const OptionalName = z.string().trim().max(100).optional();
const Password = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const Email = z.string().trim().toLowerCase().pipe(EmailAddress);

/** One of the user's tenants, as the tenant selector lists them (spec section 3, User). */
export const UserTenant = z.object({
  tenantUuid: z.uuid(),
  tenantName: z.string(),
  userRole: Role,
  userLoginType: z.enum(['Email', 'SSO']),
  /** Temporary access ends then (-15 afterwards); null for lasting membership. */
  expiresAt: z.iso.datetime().nullable().optional(),
});
export type UserTenant = z.infer<typeof UserTenant>;

export const SessionUser = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  type: UserType,
  status: UserStatus,
  /** The instance administrator: manages tenants at /root, belongs to none. */
  isRoot: z.boolean(),
  /** Sign-in asks for an authenticator-app code. */
  totpEnabled: z.boolean(),
  locale: z.string().nullable(),
  tenants: z.array(UserTenant),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const TokenGrant = z.object({
  tokenType: z.literal('Bearer'),
  accessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int().positive(),
  /** Absent when it travels as the httpOnly refresh cookie instead (API_HEADERS.tokenTransport). */
  refreshToken: z.string().optional(),
  refreshExpiresIn: z.number().int().positive(),
  user: SessionUser,
});
export type TokenGrant = z.infer<typeof TokenGrant>;

/** The client id the web app presents; tokens are bound to the client they were issued to. */
export const WEB_CLIENT_ID = 'MSB3';

export const authenticate = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/authenticate',
  access: 'public',
  summary: 'Sign in with email and password (form-encoded); answers tokens, or -200 when a second factor is needed.',
  body: z.object({
    username: Email,
    password: Password,
    client_id: z.string().min(1).max(100).default(WEB_CLIENT_ID),
  }),
  bodyEncoding: 'form',
  response: TokenGrant,
});

export const refreshToken = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/token/refresh',
  access: 'public',
  summary: 'Trade a refresh token (in the body, or the httpOnly refresh cookie) for new tokens. The old refresh token stops working; presenting it again revokes the whole session.',
  body: z.object({
    clientId: z.string().min(1).max(100),
    /** Confidential clients only; the browser app has no secret to keep. */
    clientSecret: z.string().max(200).optional(),
    /** Absent: the browser's httpOnly refresh cookie carries it. */
    refreshToken: z.string().min(1).max(200).optional(),
  }),
  response: TokenGrant,
});

export const logout = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/logout',
  access: 'user',
  summary: 'End this session: its access and refresh tokens stop working.',
  response: z.object({ loggedOut: z.literal(true) }),
});

export const stopSessionTimer = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/logout/stoptimer',
  access: 'user',
  summary:
    "The user-session timer ran out (uisSessionExpired): the session ends like a logout, recorded as timed out rather than chosen.",
  response: z.object({ loggedOut: z.literal(true) }),
});

const ClientId = z.string().min(1).max(100);

/** A single-use code handing this session to another client (spec: UIS token; -45 when invalid). */
export const UIS_CODE_SECONDS = 60;

export const uisAuthCode = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/uisauthcode',
  access: 'user',
  summary: `A one-time code (${UIS_CODE_SECONDS} s) another client trades at public/token/exchange for its own session of the same user.`,
  query: z.object({ clientId: ClientId.default(WEB_CLIENT_ID) }),
  response: z.object({ code: z.string(), expiresIn: z.number().int().positive() }),
});

export const exchangeToken = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/token/exchange',
  access: 'public',
  summary: 'Trade a one-time UIS code for tokens of a new session (-45 when the code is unknown, used or expired).',
  body: z.object({ code: z.string().min(1).max(200), clientId: ClientId }),
  response: TokenGrant,
});

export const LOGIN_TYPES = ['Email', 'SSO'] as const;

export const userType = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/usertype',
  access: 'public',
  summary:
    'How an address signs in (password or single sign-on), so the login form can ask for the right thing. Unknown addresses answer like password accounts.',
  query: z.object({ email: Email }),
  response: z.object({ userLoginType: z.enum(LOGIN_TYPES) }),
});

export const checkSession = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/checksession',
  access: 'user',
  summary: 'Whether the session is alive, and for how long its access token still is.',
  response: z.object({ active: z.literal(true), expiresIn: z.number().int().nonnegative() }),
});

export const usersValid = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users/valid',
  access: 'user',
  summary: 'The signed-in user with their tenants.',
  response: SessionUser,
});

export const setupStatus = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/setup',
  access: 'public',
  summary: 'Whether this install still needs its first-run setup (no root account yet).',
  response: z.object({ required: z.boolean() }),
});

export const completeSetup = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/setup',
  access: 'public',
  summary: 'First run: create the root account with the one-time setup token printed at start.',
  body: z.object({
    token: z.string().min(1).max(200),
    email: Email,
    firstName: Name,
    lastName: Name,
    password: Password,
  }),
  response: TokenGrant,
});

/**
 * ACTIVE: someone can work in it. PENDING: made by a self sign-up whose owner has not confirmed
 * their address yet, so nobody can sign in to it (issue 22: root must not see it as in use).
 */
export const TENANT_STATUSES = ['ACTIVE', 'PENDING'] as const;
export const TenantStatus = z.enum(TENANT_STATUSES);
export type TenantStatus = z.infer<typeof TenantStatus>;

export const TenantSummary = z.object({
  tenantUuid: z.uuid(),
  tenantName: z.string(),
  tenantCreatedOn: z.iso.datetime(),
  status: TenantStatus,
  userCount: z.number().int().nonnegative(),
  /** unconfirmed: a self sign-up's owner who has not opened the confirmation link yet. */
  admins: z.array(z.object({ email: z.string(), status: z.enum(['invited', 'active', 'unconfirmed']) })),
});
export type TenantSummary = z.infer<typeof TenantSummary>;

export const listTenants = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/root/tenants',
  access: 'root',
  action: 'tenant.list',
  summary: 'Root: every tenant of this install.',
  response: z.object({ tenants: z.array(TenantSummary) }),
});

export const createTenant = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/root/tenants',
  access: 'root',
  action: 'tenant.create',
  summary: 'Root: create a tenant and invite its first admin (the invitation goes to the outbox).',
  body: z.object({
    tenantName: z.string().trim().min(2).max(100),
    admin: z.object({ email: Email, firstName: Name, middleName: OptionalName, lastName: Name }),
  }),
  response: z.object({
    tenant: TenantSummary,
    /** Shown once to root so the admin can be reached even before mail is configured. */
    inviteLink: z.string(),
  }),
});

export const invitationDetails = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/invitations/:inviteCode',
  access: 'public',
  summary: 'What the register page shows for an invitation: who is invited, to which tenant.',
  params: z.object({ inviteCode: z.string().min(1).max(200) }),
  response: z.object({
    /** The address has an account already: the invitee signs in and joins (joinWithInvitation). */
    hasAccount: z.boolean(),
    email: z.string(),
    firstName: z.string(),
    middleName: z.string().nullable(),
    lastName: z.string(),
    tenantUuid: z.uuid(),
    tenantName: z.string(),
    role: Role,
  }),
});

/**
 * Someone who already has an account accepts an invitation from a signed-in session: the password
 * and second factor were checked by /authenticate, with its throttling (issue 17). Public
 * registration is only for addresses that have no password yet.
 */
export const joinWithInvitation = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/invitations/accept',
  access: 'user',
  summary: 'Join the tenant of an invitation sent to the signed-in account.',
  body: z.object({ inviteCode: z.string().min(1).max(200), tenantUuid: z.uuid() }),
  response: z.object({ tenantUuid: z.uuid(), tenantName: z.string(), role: Role }),
});

/** The register payload of spec section 3. */
export const registerUserTenant = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/users/registerusertenant',
  access: 'public',
  summary: 'Accept an invitation: set a password (and names) and join the tenant.',
  body: z
    .object({
      userName: z.string().trim().max(200).optional(),
      userEmail: Email,
      firstName: Name,
      middleName: OptionalName,
      lastName: Name,
      userType: UserType.default('internal'),
      userLoginType: z.literal('Email').default('Email'),
      newPassword: Password,
      confirmPassword: Password,
      inviteCode: z.string().min(1).max(200),
      easySignLink: z.string().max(500).optional(),
      orgName: z.string().trim().max(200).optional(),
      jobTitle: z.string().trim().max(200).optional(),
      tenantUuid: z.uuid(),
    })
    .refine((b) => b.newPassword === b.confirmPassword, {
      path: ['confirmPassword'],
      message: 'passwordMissMatch',
    }),
  response: TokenGrant,
});

/** How many people one invite call may name (a CSV import is another call, spec §7 csvInvite). */
export const INVITE_BATCH_MAX = 100;

/** One person an admin invites: their names and the role they will hold in the tenant. */
export const Invitee = z.object({
  email: Email,
  firstName: Name,
  middleName: OptionalName,
  lastName: Name,
  role: z.enum(ASSIGNABLE_ROLES),
});
export type Invitee = z.infer<typeof Invitee>;

export const inviteUsers = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/invite',
  access: 'tenant',
  action: 'user.invite',
  summary:
    'Admin: invite people into this tenant (invite type admin_invite). All or nothing: one refusal (-85 already a member, -13 disabled) stores nothing. The links go out by mail only.',
  body: z
    .object({ users: z.array(Invitee).min(1).max(INVITE_BATCH_MAX) })
    .superRefine(({ users }, context) => {
      // The same address twice would otherwise fail as "already a member" of its own request.
      const seen = new Set<string>();
      users.forEach((user, index) => {
        if (seen.has(user.email)) context.addIssue({ code: 'custom', path: ['users', index, 'email'], message: 'already present' });
        seen.add(user.email);
      });
    }),
  response: z.object({
    users: z.array(z.object({ email: z.string(), userId: z.uuid(), status: z.literal('invited') })),
  }),
});

export const passwordConfiguration = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/passwordconfig/:tenantUuid',
  access: 'public',
  summary: "A tenant's password rules, so forms can check as the person types (failure: passwordConfigError).",
  params: z.object({ tenantUuid: z.uuid() }),
  response: PasswordConfig,
});

export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/password',
  access: 'user',
  summary: 'Change one\'s own password (also the way out of the expired and resetpassword statuses).',
  body: z
    .object({ oldPassword: Password, newPassword: Password, confirmPassword: Password })
    .refine((b) => b.newPassword === b.confirmPassword, { path: ['confirmPassword'], message: 'passwordMissMatch' }),
  response: SessionUser,
});

export const forgotPassword = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/users/forgotPassword',
  access: 'public',
  summary: 'Mail a password-reset link. Answers the same whether or not the address has an account.',
  body: z.object({ email: Email }),
  response: z.object({ sent: z.literal(true) }),
});

export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/users/password',
  access: 'public',
  summary: 'Set a new password with the token from the reset mail.',
  body: z
    .object({ token: z.string().min(1).max(200), newPassword: Password, confirmPassword: Password })
    .refine((b) => b.newPassword === b.confirmPassword, { path: ['confirmPassword'], message: 'passwordMissMatch' }),
  response: z.object({ reset: z.literal(true) }),
});

export const userTenants = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/users/:userId/tenants',
  access: 'user',
  summary: "The tenants a user may act in (one's own only).",
  params: z.object({ userId: z.uuid() }),
  response: z.object({ tenants: z.array(UserTenant) }),
});

export const OutboxMessage = z.object({
  id: z.uuid(),
  channel: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string(),
  /**
   * The text, for root only, and only while nothing delivers that channel (then root is the one
   * who passes it on). Null in a tenant admin's outbox: links and codes in mail are the
   * recipient's secrets, never the admin's (docs/security.md).
   */
  body: z.string().nullable(),
  /** The tenant the message belongs to (root's outbox spans them all); null for tenantless mail. */
  tenantName: z.string().nullable(),
  kind: z.string(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  /** Files the mail carries, by name only: the outbox shows what was sent, not the content. */
  attachments: z.array(z.object({ fileName: z.string() })),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

/** Newest first; the outbox is for reading what was (or will be) sent, not an archive. */
export const OUTBOX_PAGE_SIZE = 100;

export const tenantOutbox = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/outbox',
  access: 'tenant',
  action: 'outbox.read',
  summary: "Admin: the tenant's mail and SMS, newest first: to whom, what about, when and whether it went, never its text.",
  response: z.object({ messages: z.array(OutboxMessage) }),
});

export const systemOutbox = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/root/outbox',
  access: 'root',
  action: 'outbox.read',
  summary:
    "Root: every tenant's mail and SMS and the tenantless ones, newest first; the text of what no SMTP or SMS relay delivers, since root then passes it on.",
  query: z.object({ recipient: z.string().trim().toLowerCase().max(320).optional() }),
  response: z.object({ messages: z.array(OutboxMessage) }),
});

export const SECOND_FACTOR_METHODS = ['totp', 'email'] as const;
export const SecondFactorMethod = z.enum(SECOND_FACTOR_METHODS);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/** The data of a -200 answer to authenticate: what /authenticate needs to finish signing in. */
export const TwoFactorChallenge = z.object({
  otpId: z.uuid(),
  method: SecondFactorMethod,
  /** Where an emailed code goes, masked (e.g. as***@ex***.test). */
  maskedEmail: z.string(),
  /** For code challenges: the phone a code can be texted to instead (last four digits), if any. */
  maskedPhone: z.string().nullable(),
  expiresIn: z.number().int().positive(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

export const OTP_CHANNELS = ['email', 'sms'] as const;
export const OtpChannel = z.enum(OTP_CHANNELS);
export type OtpChannel = z.infer<typeof OtpChannel>;

const OtpCode = z.string().trim().regex(/^\d{6}$/, 'must be 6 digits');

export const generateOtp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/authentication/otp/generate',
  access: 'public',
  summary: 'Send (or send again) the one-time code of a sign-in challenge, by email or SMS.',
  body: z.object({ otpId: z.uuid(), channel: OtpChannel.default('email') }),
  response: z.object({ channel: OtpChannel, sentTo: z.string(), resendAfter: z.number().int().nonnegative() }),
});

export const validateOtp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/auth/otp/validate',
  access: 'public',
  summary: 'Whether a sign-in challenge is still open (after a reload, say), and how it is answered (-196, -217 when not).',
  body: z.object({ otpId: z.uuid() }),
  response: TwoFactorChallenge.extend({ attemptsLeft: z.number().int().positive() }),
});

/**
 * Two-factor recovery codes (issue 22): ten one-time codes, shown once when authenticator sign-in
 * is switched on or the codes are made anew, that finish a sign-in in place of an authenticator
 * code. Ten base32 letters (50 random bits), shown as two groups of five (`abcde-fghij`).
 */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_PATTERN = /^[a-z2-7]{10}$/;

/** A recovery code as typed (any case, spaces or the hyphen anywhere) in its stored form, or null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const compact = typed.toLowerCase().replace(/[\s-]/g, '');
  return RECOVERY_CODE_PATTERN.test(compact) ? compact : null;
}

/** The form a recovery code is shown in: `abcde-fghij`. */
export function formatRecoveryCode(compact: string): string {
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

const RecoveryCode = z
  .string()
  .max(40)
  .refine((typed) => normalizeRecoveryCode(typed) !== null, 'must be a recovery code such as abcde-fghij');

/** The codes themselves, in the one answer that carries them. */
export const RecoveryCodes = z.array(z.string()).length(RECOVERY_CODE_COUNT);

export const verifyOtp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/authentication/otp/verify',
  access: 'public',
  summary:
    'Finish a two-factor sign-in with the code from the authenticator app or the mail, or, for authenticator sign-in, with one of the recovery codes instead (`recoveryCode`; each works once, and wrong ones count as wrong codes).',
  body: z
    .object({ otpId: z.uuid(), code: OtpCode.optional(), recoveryCode: RecoveryCode.optional() })
    .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), { path: ['code'], message: 'give either code or recoveryCode' }),
  response: TokenGrant,
});

export const startTotpEnrolment = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/totp',
  access: 'user',
  summary: 'Begin authenticator-app enrolment: a new secret and its otpauth URI for the QR code.',
  body: z.object({ password: Password }),
  response: z.object({ secret: z.string(), otpauthUri: z.string() }),
});

export const confirmTotpEnrolment = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/totp/confirm',
  access: 'user',
  summary:
    'Finish enrolment with a code from the app; from then on sign-in asks for one. Answers the ten recovery codes, this once: they are stored only as digests (earlier codes stop working).',
  body: z.object({ code: OtpCode }),
  response: z.object({ user: SessionUser, recoveryCodes: RecoveryCodes }),
});

export const disableTotp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/users/totp/disable',
  access: 'user',
  summary: 'Stop asking for authenticator codes (needs the password); the recovery codes go with it.',
  body: z.object({ password: Password }),
  response: SessionUser,
});

export const recoveryCodeStatus = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users/twofactor/recoverycodes',
  access: 'user',
  summary: "How many of one's own recovery codes are still unused (never the codes).",
  response: z.object({ remaining: z.number().int().nonnegative() }),
});

export const regenerateRecoveryCodes = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/twofactor/recoverycodes',
  access: 'user',
  summary:
    'Ten new recovery codes, answered this once; the earlier ones stop working. Needs the password, as switching two-factor off does, and authenticator sign-in switched on (-6 otherwise).',
  body: z.object({ password: Password }),
  response: z.object({ recoveryCodes: RecoveryCodes }),
});

export const maskedInfo = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/getMaskedInfo',
  access: 'user',
  summary: "The signed-in user's email and phone, masked, for choosing where a code goes.",
  response: z.object({ email: z.string(), phone: z.string().nullable() }),
});

/** User info (profile) of spec section 3. */
export const UserInfo = z.object({
  id: z.uuid(),
  email: z.string(),
  status: UserStatus,
  type: UserType,
  title: z.string().nullable(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  department: z.string().nullable(),
  timeZone: z.string().nullable(),
  locale: z.string().nullable(),
  createdOn: z.iso.datetime(),
  totpEnabled: z.boolean(),
  hasPhoto: z.boolean(),
  /**
   * Spec §3 passcodeFlag: set by an administrator, it lets the member apply a rubber stamp when
   * signing (§6). Kept per tenant: told for the tenant the request names (the tenant header) when
   * the caller is a member there, left out otherwise.
   */
  passcodeFlag: z.boolean().optional(),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const readProfile = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users/profile',
  access: 'user',
  summary: "The signed-in user's profile.",
  response: UserInfo,
});

const Optional = (max: number) => z.string().trim().max(max).nullable().optional();

export const updateProfile = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/profile',
  access: 'user',
  summary: "Update one's own profile; fields left out stay as they are.",
  body: z.object({
    title: Optional(100),
    firstName: Name.optional(),
    middleName: Optional(100),
    lastName: Name.optional(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{6,20}$/, 'must be a phone number')
      .nullable()
      .optional(),
    company: Optional(200),
    department: Optional(200),
    timeZone: z
      .string()
      .max(64)
      .regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/, 'must be an IANA time zone such as Asia/Kolkata')
      .nullable()
      .optional(),
    locale: LanguageCode.nullable().optional(),
  }),
  response: UserInfo,
});

export const signup = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/user/signup',
  access: 'public',
  summary: 'Self-service sign-up (when enabled): a new organisation with its first admin, once the mailed link confirms the address.',
  body: z
    .object({
      email: Email,
      firstName: Name,
      middleName: OptionalName,
      lastName: Name,
      orgName: z.string().trim().min(2).max(100),
      jobTitle: z.string().trim().max(100).optional(),
      newPassword: Password,
      confirmPassword: Password,
    })
    .refine((b) => b.newPassword === b.confirmPassword, { path: ['confirmPassword'], message: 'passwordMissMatch' }),
  /** Nobody is signed in yet: the address must be confirmed from the mailed link first (-164 until then). */
  response: z.object({ verificationSent: z.literal(true), email: z.string() }),
});

export const verifyEmail = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/users/verifyEmail',
  access: 'public',
  summary: 'Confirm a sign-up from the mailed link; answers tokens, so the person is signed in (-120 when the link is spent or old).',
  body: z.object({ token: z.string().min(1).max(200) }),
  response: TokenGrant,
});

export const accessibilities = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/accessibilities',
  access: 'tenant',
  summary: 'What the caller may reach in this tenant: role, settings, routes and menu.',
  response: z.object({
    role: Role,
    settings: PermissionSettings,
    routes: z.array(z.string()).readonly(),
    menu: z
      .array(
        z.object({
          id: z.string(),
          route: z.string().optional(),
          children: z.array(z.object({ id: z.string(), route: z.string().optional() })).readonly().optional(),
        }),
      )
      .readonly(),
  }),
});

export const tenantConfiguration = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/configuration',
  access: 'tenant',
  summary: "The configuration in force in this tenant: languages, permission settings, password rules, sign-in rules.",
  response: z.object({
    tenantUuid: z.uuid(),
    tenantName: z.string(),
    supportedLanguages: z.array(LanguageCode).min(1),
    permissionSettings: PermissionSettings,
    passwordConfig: PasswordConfig,
    requireEmailOtp: z.boolean(),
    /** Whether compose shows the view-enforcement choice, and what it starts as. */
    viewEnforceOption: ViewEnforceOption,
    /** Whether compose offers signer verification per recipient, and what it starts as (left out: OFF). */
    verificationMode: VerificationMode.optional(),
    /** Lists of people show each person's id (the "user UUID column display" setting). */
    showUserUuidColumn: z.boolean(),
  }),
});

export const tenantConfigByType = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/config',
  access: 'tenant',
  summary: 'One config type of this tenant (FEATURE_CONFIG, USER_INVITE_CONFIG, ONE_DRIVE_CONFIG) with defaults filled in.',
  query: z.object({ configType: ConfigType }),
  response: TenantConfig,
});

/** Profile photos: PNG or JPEG, checked by their first bytes, at most this size. */
export const PHOTO_MAX_BYTES = 1024 * 1024;
export const PHOTO_TYPES = ['image/png', 'image/jpeg'] as const;

const UserIdParams = z.object({ userId: z.uuid() });

export const uploadUserPhoto = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/users/:userId/photo',
  access: 'user',
  summary: "Upload one's own profile photo (multipart field `file`; PNG or JPEG, 1 MB at most).",
  params: UserIdParams,
  bodyEncoding: 'multipart',
  response: UserInfo,
});

export const deleteUserPhoto = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/users/:userId/photo',
  access: 'user',
  summary:
    "Remove a profile photo: one's own, or, for an admin of the tenant in the tenant header, a member's (not a super admin's). Answers the person's updated info.",
  params: UserIdParams,
  response: UserInfo,
});

export const getUserPhoto = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users/:userId/photo',
  access: 'user',
  summary: 'A profile photo: one\'s own, or of someone sharing a tenant with the caller.',
  params: UserIdParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
