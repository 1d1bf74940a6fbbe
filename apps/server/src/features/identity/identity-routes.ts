import {
  API_HEADERS,
  canAccessRoute,
  DEFAULT_VIEW_ENFORCE_OPTION,
  DEFAULT_VERIFICATION_MODE,
  DomainError,
  effectivePermissionSettings,
  enforce,
  forbidden,
  GUARDED_ROUTES,
  identityApi,
  invalidInput,
  notFound,
  PHOTO_MAX_BYTES,
  ResponseCode,
  tenantConfigOfType,
  type TenantSettings,
  type TokenGrant,
  UIS_CODE_SECONDS,
  visibleMenu,
  WEB_CLIENT_ID,
} from '@pakt/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clearRefreshCookie, deliverGrant, refreshTokenFromCookie } from '../../http/refresh-cookie';
import type { AppContext } from '../../http/app-context';
import { authenticateUser } from './authenticate-user';
import { presentUserInfo, updateOwnProfile } from './profile';
import { signUp, verifyEmail } from './signup';
import { consumeOneTimeToken, issueOneTimeToken, confirmEnrolment, countRecoveryCodesLeft, disableSecondFactor, describeChallenge, maskEmail, maskPhone, openChallenge, regenerateRecoveryCodes, secondFactorFor, sendChallengeCode, startEnrolment, verifyChallenge, verifyRecoveryCode, issueSession, revokeSessionFamily, rotateSession, loadPasswordConfig } from '../auth';
import { maySeePhoto, removeMemberPhoto, removeOwnPhoto, storeOwnPhoto } from './photo';
import { loadTenantSettings } from './tenant-configuration';
import type { Db } from '../../platform/db/database';
import { actorOf, resolveAuth } from '../../http/auth-guard';
import { route } from '../../http/route';
import { completeFirstRun, rootExists } from './first-run';
import { acceptInvitation, describeInvitation, inviteMembers, joinWithInvitation } from './invitations';
import { changeOwnPassword, requestPasswordReset, resetPasswordWithToken } from './passwords';
import { loadUserTenants, presentSessionUser } from './session-user';
import { memberships, tenants, users } from '../../platform/db/schema';
import { createTenantWithAdmin, listTenantSummaries } from './tenants';
import { selfSignUpOpen } from '../settings';
import { and, eq } from 'drizzle-orm';

function clientInfo(request: FastifyRequest) {
  return { ipAddress: request.ip, userAgent: request.headers['user-agent'] };
}

/** A new session's tokens, issued with `db` (a transaction, when the session opens with other changes). */
async function issueGrant(ctx: AppContext, db: Db, user: typeof users.$inferSelect, clientId: string, request: FastifyRequest): Promise<TokenGrant & { refreshToken: string }> {
  const issued = await issueSession({ db, userId: user.id, clientId, lifetimes: ctx.config.tokens, client: clientInfo(request) });
  return {
    tokenType: 'Bearer' as const,
    accessToken: issued.accessToken,
    expiresIn: issued.expiresIn,
    refreshToken: issued.refreshToken,
    refreshExpiresIn: issued.refreshExpiresIn,
    user: await presentSessionUser(db, user),
  };
}

/** A new session's tokens; the refresh token goes in the body or the cookie (deliverGrant). */
async function grantFor(ctx: AppContext, user: typeof users.$inferSelect, clientId: string, request: FastifyRequest, reply: FastifyReply): Promise<TokenGrant> {
  const grant = await issueGrant(ctx, ctx.database.db, user, clientId, request);
  return deliverGrant({ config: ctx.config, request, reply, grant });
}

/** A user disabled since signing in keeps no session: the new pair is revoked at once (-13). */
async function loadRefreshableUser(db: Db, id: string, familyId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user || user.disabledAt) {
    await revokeSessionFamily({ db, familyId });
    throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled. Contact your administrator.');
  }
  return user;
}

export function registerIdentityRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  // Texts reach people through a relay; with no delivery at all, root hands the outbox on.
  const smsAvailable = !!ctx.config.sms || !ctx.config.smtp;

  route(app, ctx, identityApi.authenticate, async ({ body, request, reply }) => {
    const user = await authenticateUser({
      db,
      email: body.username,
      password: body.password,
      clientAddress: request.ip,
      publicUrl: ctx.config.publicUrl,
    });
    const method = await secondFactorFor(db, user);
    if (method) await openChallenge({ db, user, method, clientId: body.client_id, smsAvailable });
    return grantFor(ctx, user, body.client_id, request, reply);
  });

  route(app, ctx, identityApi.generateOtp, async ({ body }) => {
    const sent = await sendChallengeCode({ db, otpId: body.otpId, channel: body.channel, smsAvailable });
    return sent;
  });

  route(app, ctx, identityApi.validateOtp, async ({ body }) => describeChallenge({ db, otpId: body.otpId, smsAvailable }));

  route(app, ctx, identityApi.verifyOtp, async ({ body, request, reply }) => {
    if (body.recoveryCode !== undefined) {
      // The code is spent in the transaction that opens the session: both happen, or neither.
      const { opened, user, remaining } = await verifyRecoveryCode({
        db,
        otpId: body.otpId,
        recoveryCode: body.recoveryCode,
        openSession: (tx, person, clientId) => issueGrant(ctx, tx, person, clientId, request),
      });
      request.log.info({ userId: user.id, recoveryCodesLeft: remaining }, 'signed in with a two-factor recovery code');
      return deliverGrant({ config: ctx.config, request, reply, grant: opened });
    }
    // The contract asks for exactly one of the two.
    const { user, clientId } = await verifyChallenge({ db, otpId: body.otpId, code: body.code ?? '' });
    return grantFor(ctx, user, clientId, request, reply);
  });

  route(app, ctx, identityApi.startTotpEnrolment, async ({ body, auth }) =>
    startEnrolment({ db, user: auth.user, password: body.password, issuer: 'Pakt' }),
  );

  route(app, ctx, identityApi.confirmTotpEnrolment, async ({ body, auth }) => {
    const { user, recoveryCodes } = await confirmEnrolment({ db, user: auth.user, code: body.code });
    return { user: await presentSessionUser(db, user), recoveryCodes };
  });

  route(app, ctx, identityApi.recoveryCodeStatus, async ({ auth }) => ({ remaining: await countRecoveryCodesLeft(db, auth.user) }));

  route(app, ctx, identityApi.regenerateRecoveryCodes, async ({ body, auth }) => regenerateRecoveryCodes({ db, user: auth.user, password: body.password }));

  route(app, ctx, identityApi.disableTotp, async ({ body, auth }) =>
    presentSessionUser(db, await disableSecondFactor({ db, user: auth.user, password: body.password })),
  );

  route(app, ctx, identityApi.maskedInfo, async ({ auth }) => ({ email: maskEmail(auth.user.email), phone: maskPhone(auth.user.phone) }));

  route(app, ctx, identityApi.refreshToken, async ({ body, request, reply }) => {
    // The body wins (API clients); the browser app's token is in the httpOnly cookie.
    const fromCookie = body.refreshToken === undefined ? refreshTokenFromCookie(request) : undefined;
    const presented = body.refreshToken ?? fromCookie;
    if (!presented) throw new DomainError(ResponseCode.INVALID_ACCESS_TOKEN, 'The token is not valid.');
    const rotated = await rotateSession({
      db,
      refreshToken: presented,
      clientId: body.clientId,
      lifetimes: ctx.config.tokens,
      client: clientInfo(request),
    });
    const grant = {
      tokenType: 'Bearer' as const,
      accessToken: rotated.accessToken,
      expiresIn: rotated.expiresIn,
      refreshToken: rotated.refreshToken,
      refreshExpiresIn: rotated.refreshExpiresIn,
      user: await presentSessionUser(db, await loadRefreshableUser(db, rotated.userId, rotated.familyId)),
    };
    // A token that came in the cookie is answered in the cookie only, whatever was asked.
    return deliverGrant({ config: ctx.config, request, reply, grant, viaCookie: fromCookie !== undefined });
  });

  route(app, ctx, identityApi.logout, async ({ auth, request, reply }) => {
    await revokeSessionFamily({ db, familyId: auth.session.familyId });
    clearRefreshCookie(ctx.config, request, reply);
    return { loggedOut: true as const };
  });

  route(app, ctx, identityApi.stopSessionTimer, async ({ auth, request, reply }) => {
    await revokeSessionFamily({ db, familyId: auth.session.familyId });
    clearRefreshCookie(ctx.config, request, reply);
    request.log.info({ userId: auth.user.id }, 'session ended by the user-session timer');
    return { loggedOut: true as const };
  });

  route(app, ctx, identityApi.uisAuthCode, async ({ query, auth }) => ({
    code: await issueOneTimeToken({ db, purpose: 'uis', userId: auth.user.id, clientId: query.clientId, seconds: UIS_CODE_SECONDS }),
    expiresIn: UIS_CODE_SECONDS,
  }));

  route(app, ctx, identityApi.exchangeToken, async ({ body, request, reply }) => {
    const invalid = () => new DomainError(ResponseCode.INVALID_UIS_TOKEN, 'This code is not valid (it lasts a minute and works once).');
    const spent = await consumeOneTimeToken({ db, purpose: 'uis', token: body.code });
    if (!spent) throw invalid();
    if (spent.clientId !== body.clientId) {
      throw new DomainError(ResponseCode.INVALID_CLIENT, 'The code was issued for another client.');
    }
    const [user] = await db.select().from(users).where(eq(users.id, spent.userId));
    if (!user || user.disabledAt) throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled. Contact your administrator.');
    return grantFor(ctx, user, body.clientId, request, reply);
  });

  route(app, ctx, identityApi.userType, async ({ query }) => {
    const [sso] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(users.email, query.email), eq(memberships.loginType, 'SSO'), eq(memberships.status, 'active')))
      .limit(1);
    return { userLoginType: sso ? ('SSO' as const) : ('Email' as const) };
  });

  route(app, ctx, identityApi.checkSession, async ({ auth }) => ({
    active: true as const,
    expiresIn: Math.max(0, Math.floor((auth.session.accessExpiresAt.getTime() - Date.now()) / 1000)),
  }));

  route(app, ctx, identityApi.usersValid, async ({ auth }) => presentSessionUser(db, auth.user));

  route(app, ctx, identityApi.setupStatus, async () => ({ required: !(await rootExists(db)) }));

  route(app, ctx, identityApi.completeSetup, async ({ body, request, reply }) => {
    const root = await completeFirstRun({ db, ...body });
    request.log.info({ userId: root.id }, 'first-run setup completed: root account created');
    return grantFor(ctx, root, WEB_CLIENT_ID, request, reply);
  });

  route(app, ctx, identityApi.listTenants, async () => ({ tenants: await listTenantSummaries(db) }));

  route(app, ctx, identityApi.createTenant, async ({ body, auth }) => {
    const created = await createTenantWithAdmin({
      db,
      tenantName: body.tenantName,
      admin: body.admin,
      invitedBy: auth.user.id,
      publicUrl: ctx.config.publicUrl,
    });
    return created;
  });

  // user.invite itself is checked centrally (the contract's action); each role granted is checked
  // here, so which roles an admin may hand out stays the permissions module's answer.
  route(app, ctx, identityApi.inviteUsers, async ({ body, auth, request }) => {
    for (const person of body.users) enforce(actorOf(auth), 'user.invite', { newRole: person.role });
    const invited = await inviteMembers({ db, tenant: auth.tenant, users: body.users, invitedBy: auth.user.id, publicUrl: ctx.config.publicUrl });
    // No admin-action audit log exists; the invitations rows keep who invited whom and when.
    request.log.info({ tenantId: auth.tenant.id, invitedBy: auth.user.id, userIds: invited.map((u) => u.userId) }, 'members invited');
    return { users: invited };
  });

  route(app, ctx, identityApi.invitationDetails, async ({ params }) => describeInvitation(db, params.inviteCode));

  route(app, ctx, identityApi.registerUserTenant, async ({ body, request, reply }) => {
    const user = await acceptInvitation({
      db,
      code: body.inviteCode,
      tenantUuid: body.tenantUuid,
      email: body.userEmail,
      firstName: body.firstName,
      middleName: body.middleName,
      lastName: body.lastName,
      password: body.newPassword,
    });
    return grantFor(ctx, user, WEB_CLIENT_ID, request, reply);
  });

  route(app, ctx, identityApi.joinWithInvitation, async ({ body, auth, request }) => {
    const joined = await joinWithInvitation({ db, code: body.inviteCode, tenantUuid: body.tenantUuid, userId: auth.user.id });
    request.log.info({ tenantId: joined.tenantUuid, userId: auth.user.id }, 'invitation accepted by a signed-in account');
    return joined;
  });

  route(app, ctx, identityApi.passwordConfiguration, async ({ params }) => {
    const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, params.tenantUuid));
    if (!tenant) throw notFound();
    return loadPasswordConfig(db, tenant.id);
  });

  route(app, ctx, identityApi.changePassword, async ({ body, auth }) => {
    const user = await changeOwnPassword({
      db,
      user: auth.user,
      keepFamilyId: auth.session.familyId,
      oldPassword: body.oldPassword,
      newPassword: body.newPassword,
    });
    return presentSessionUser(db, user);
  });

  route(app, ctx, identityApi.forgotPassword, async ({ body }) => {
    await requestPasswordReset({ db, email: body.email, publicUrl: ctx.config.publicUrl });
    return { sent: true as const };
  });

  route(app, ctx, identityApi.resetPassword, async ({ body, request }) => {
    await resetPasswordWithToken({ db, token: body.token, newPassword: body.newPassword, clientAddress: request.ip });
    return { reset: true as const };
  });

  route(app, ctx, identityApi.userTenants, async ({ params, auth }) => {
    // One's own list only; someone else's id answers as if it did not exist.
    if (params.userId !== auth.user.id) throw notFound();
    return { tenants: await loadUserTenants(db, auth.user.id) };
  });

  route(app, ctx, identityApi.readProfile, async ({ auth, request }) => {
    // The passcode flag is per tenant: told for the tenant named by the header, if a member there.
    const tenantId = request.headers[API_HEADERS.tenant.toLowerCase()];
    const member =
      typeof tenantId === 'string' && /^[0-9a-f-]{36}$/i.test(tenantId)
        ? (await db.select({ passcodeFlag: memberships.passcodeFlag }).from(memberships).where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, auth.user.id))))[0]
        : undefined;
    return { ...presentUserInfo(auth.user), ...(member ? { passcodeFlag: member.passcodeFlag } : {}) };
  });

  route(app, ctx, identityApi.updateProfile, async ({ body, auth }) =>
    presentUserInfo(await updateOwnProfile({ db, userId: auth.user.id, changes: body })),
  );

  route(app, ctx, identityApi.signup, async ({ body }) => {
    // Off by default where no mail is delivered: nobody could open the confirmation link.
    if (!(await selfSignUpOpen({ db, config: ctx.config }))) {
      throw forbidden('Sign-up is switched off on this install: ask for an invitation.');
    }
    const user = await signUp({
      publicUrl: ctx.config.publicUrl,
      db,
      email: body.email,
      firstName: body.firstName,
      middleName: body.middleName,
      lastName: body.lastName,
      orgName: body.orgName,
      jobTitle: body.jobTitle,
      password: body.newPassword,
    });
    return { verificationSent: true as const, email: user.email };
  });

  route(app, ctx, identityApi.verifyEmail, async ({ body, request, reply }) => grantFor(ctx, await verifyEmail({ db, token: body.token }), WEB_CLIENT_ID, request, reply));

  const settingsOf = async (tenantId: string, request: FastifyRequest) =>
    loadTenantSettings(db, tenantId, (error) => request.log.warn({ err: error, tenantId }, 'stored tenant settings are invalid; using defaults'));

  route(app, ctx, identityApi.accessibilities, async ({ auth, request }) => {
    const settings = effectivePermissionSettings(ctx.config.features, await settingsOf(auth.tenant.id, request));
    return {
      role: auth.role,
      settings,
      routes: GUARDED_ROUTES.filter((r) => canAccessRoute(auth.role, r, settings)),
      menu: visibleMenu(auth.role, settings),
    };
  });

  // A tenant may offer fewer languages than the install, never more.
  const languagesOf = (stored: TenantSettings) => {
    const languages = (stored.supportedLanguages ?? ctx.config.supportedLanguages).filter((l) => ctx.config.supportedLanguages.includes(l));
    return languages.length > 0 ? languages : ctx.config.supportedLanguages;
  };

  route(app, ctx, identityApi.tenantConfigByType, async ({ query, auth, request }) => {
    const stored = await settingsOf(auth.tenant.id, request);
    return tenantConfigOfType(query.configType, effectivePermissionSettings(ctx.config.features, stored), stored, languagesOf(stored));
  });

  route(app, ctx, identityApi.tenantConfiguration, async ({ auth, request }) => {
    const stored = await settingsOf(auth.tenant.id, request);
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, auth.tenant.id));
    return {
      tenantUuid: auth.tenant.id,
      tenantName: auth.tenant.name,
      supportedLanguages: languagesOf(stored),
      permissionSettings: effectivePermissionSettings(ctx.config.features, stored),
      passwordConfig: await loadPasswordConfig(db, auth.tenant.id),
      requireEmailOtp: tenant!.requireEmailOtp,
      viewEnforceOption: stored.viewEnforceOption ?? DEFAULT_VIEW_ENFORCE_OPTION,
      verificationMode: stored.verificationMode ?? DEFAULT_VERIFICATION_MODE,
      showUserUuidColumn: stored.showUserUuidColumn ?? false,
    };
  });

  route(app, ctx, identityApi.uploadUserPhoto, async ({ params, auth, request }) => {
    if (params.userId !== auth.user.id) throw notFound();
    const file = await request.file({ limits: { fileSize: PHOTO_MAX_BYTES + 1, files: 1 } });
    if (!file) throw invalidInput('Send the photo as the multipart field "file".');
    return presentUserInfo(await storeOwnPhoto({ db, storage: ctx.storage, userId: auth.user.id, file: file.file }));
  });

  route(app, ctx, identityApi.deleteUserPhoto, async ({ params, auth, request }) => {
    // One's own needs no tenant (root has none).
    if (params.userId === auth.user.id) return presentUserInfo(await removeOwnPhoto(db, auth.user.id));
    // Someone else's is an admin's act inside a tenant: the tenant header is checked as for any
    // tenant endpoint (an outsider's header is 404). Without one there is no tenant to act in,
    // and the answer stays what it always was for someone else's photo: 404.
    const tenantHeader = request.headers[API_HEADERS.tenant.toLowerCase()];
    if (typeof tenantHeader !== 'string' || tenantHeader.length === 0) throw notFound();
    const tenantAuth = await resolveAuth({ db, access: 'tenant', request });
    if (!tenantAuth || !('tenant' in tenantAuth)) throw notFound();
    const actor = { ...actorOf(tenantAuth), tenantId: tenantAuth.tenant.id };
    return presentUserInfo(await removeMemberPhoto({ db, actor, userId: params.userId }));
  });

  route(app, ctx, identityApi.getUserPhoto, async ({ params, auth }) => {
    if (!(await maySeePhoto(db, auth.user.id, params.userId))) throw notFound();
    const [owner] = await db.select().from(users).where(eq(users.id, params.userId));
    const stored = owner?.photoSha256 ? await ctx.storage.stat(owner.photoSha256) : undefined;
    if (!owner?.photoSha256 || !owner.photoType || !stored) throw notFound();
    return { contentType: owner.photoType, size: stored.size, stream: await ctx.storage.get(owner.photoSha256) };
  });
}
