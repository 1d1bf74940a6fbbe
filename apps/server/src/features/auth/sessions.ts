import { randomUUID } from 'node:crypto';
import { DomainError, ResponseCode, TenantSettings } from '@pakt/domain';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, sessions, tenantSettings, tenants, users } from '../../platform/db/schema';
import { digestSecret, generateSecret } from './secrets';

export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  sessionId: string;
}

export interface ClientInfo {
  ipAddress?: string | undefined;
  userAgent?: string | undefined;
}

const invalidToken = () => new DomainError(ResponseCode.INVALID_ACCESS_TOKEN, 'The token is not valid.');
const dualSession = () => new DomainError(ResponseCode.DUAL_SESSION_DETECTED, 'You signed in somewhere else, which ended this session.');
const addressMismatch = () => new DomainError(ResponseCode.TOKEN_IP_MISMATCH, 'This session works only from the address it was opened from. Sign in again.');

/** Why a session was revoked (sessions.revokedReason). */
export type RevokedReason = 'logout' | 'replay' | 'superseded';

/** A revoked session's answer: -32 when a later sign-in ended it (one session per person), else -5. */
const revokedError = (reason: string | null) => (reason === 'superseded' ? dualSession() : invalidToken());

/** The session options of spec §8 (-32, -26) that a person's tenants ask for. */
export interface SessionRules {
  /** One session per person: a new sign-in ends the others. */
  singleSession: boolean;
  /** Tokens work only from the address the session was opened from. */
  bindToAddress: boolean;
}

const SessionRuleSettings = TenantSettings.pick({ singleSession: true, bindSessionToAddress: true });

/**
 * Sessions belong to a person, settings to a tenant, and one person may be a member of several
 * tenants whose sessions are the same: a tenant cannot have "its" share of a session. So every
 * tenant where the person holds an active, unexpired membership counts, and the strictest wins:
 * one tenant asking for a rule applies it to all of the person's sign-ins. A tenant the person is
 * only invited to, disabled in, or whose access has expired has no say (it cannot be used, and an
 * invitation must not let a stranger's tenant change someone's sessions).
 */
export async function sessionRulesFor(db: Db, userId: string, now = new Date()): Promise<SessionRules> {
  const rows = await db
    .select({ settings: tenantSettings.settings })
    .from(memberships)
    .innerJoin(tenantSettings, eq(tenantSettings.tenantId, memberships.tenantId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active'), or(isNull(memberships.expiresAt), gt(memberships.expiresAt, now))));
  const rules: SessionRules = { singleSession: false, bindToAddress: false };
  for (const row of rows) {
    const parsed = SessionRuleSettings.safeParse(row.settings);
    if (!parsed.success) continue;
    if (parsed.data.singleSession) rules.singleSession = true;
    if (parsed.data.bindSessionToAddress) rules.bindToAddress = true;
  }
  return rules;
}

/**
 * Issues a token pair. A new family (a sign-in, a signing link, an in-person signing) follows the
 * person's session rules (sessionRulesFor); a rotation (familyId given) carries over the binding
 * of the session it replaces, so a refresh can neither drop nor move it.
 */
export async function issueSession(options: {
  db: Db;
  userId: string;
  clientId: string;
  lifetimes: TokenLifetimes;
  client?: ClientInfo;
  familyId?: string;
  /** A rotation: the address the family is bound to (null: not bound). */
  boundIpAddress?: string | null;
  /** A signing-link session: one ePak of one tenant (http/auth-guard.ts). */
  scope?: { tenantId: string; epakId: string };
}): Promise<IssuedTokens> {
  if (options.familyId) return insertSession(options.db, options, options.boundIpAddress ?? null);
  return options.db.transaction(async (tx) => {
    const rules = await sessionRulesFor(tx, options.userId);
    // Signing-link and in-person sessions reach one ePak for minutes, opened from a mail or on
    // someone else's device: they are not the person signing in again, so they neither end the
    // person's sessions nor are ended by a sign-in. The address binding applies to them as well.
    if (rules.singleSession && !options.scope) {
      // Locks the person's row so two sign-ins at once cannot both survive.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, options.userId)).for('update');
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: 'superseded' satisfies RevokedReason })
        .where(and(eq(sessions.userId, options.userId), isNull(sessions.revokedAt), isNull(sessions.scopeEpakId)));
    }
    return insertSession(tx, options, rules.bindToAddress ? (options.client?.ipAddress ?? null) : null);
  });
}

async function insertSession(
  db: Db,
  options: Pick<Parameters<typeof issueSession>[0], 'userId' | 'clientId' | 'lifetimes' | 'client' | 'familyId' | 'scope'>,
  boundIpAddress: string | null,
): Promise<IssuedTokens> {
  const { lifetimes } = options;
  const accessToken = generateSecret('pka');
  const refreshToken = generateSecret('pkr');
  const now = Date.now();
  const [row] = await db
    .insert(sessions)
    .values({
      userId: options.userId,
      familyId: options.familyId ?? randomUUID(),
      clientId: options.clientId,
      accessTokenHash: digestSecret(accessToken),
      accessExpiresAt: new Date(now + lifetimes.accessSeconds * 1000),
      refreshTokenHash: digestSecret(refreshToken),
      refreshExpiresAt: new Date(now + lifetimes.refreshSeconds * 1000),
      ipAddress: options.client?.ipAddress,
      boundIpAddress,
      userAgent: options.client?.userAgent?.slice(0, 500),
      scopeTenantId: options.scope?.tenantId ?? null,
      scopeEpakId: options.scope?.epakId ?? null,
    })
    .returning({ id: sessions.id });
  return {
    accessToken,
    refreshToken,
    expiresIn: lifetimes.accessSeconds,
    refreshExpiresIn: lifetimes.refreshSeconds,
    sessionId: row!.id,
  };
}

/**
 * Rotates a refresh token. A token that was already rotated is a replay (stolen, or an old tab):
 * the whole family is revoked, so whoever holds the newer token is signed out as well. A session
 * ended by a later sign-in answers -32, and a bound one presented from another address -26
 * before anything else: a token used elsewhere is refused without touching the person's session.
 */
export async function rotateSession(options: {
  db: Db;
  refreshToken: string;
  clientId: string;
  lifetimes: TokenLifetimes;
  client?: ClientInfo;
}): Promise<IssuedTokens & { userId: string; familyId: string }> {
  const { db } = options;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sessions)
      .where(eq(sessions.refreshTokenHash, digestSecret(options.refreshToken)))
      .for('update');
    if (!row) throw invalidToken();
    if (row.revokedAt) throw revokedError(row.revokedReason);
    if (row.boundIpAddress !== null && row.boundIpAddress !== options.client?.ipAddress) throw addressMismatch();
    if (row.clientId !== options.clientId) {
      throw new DomainError(ResponseCode.INVALID_CLIENT, 'The token was issued to another client.');
    }
    if (row.rotatedAt) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: 'replay' satisfies RevokedReason })
        .where(and(eq(sessions.familyId, row.familyId), isNull(sessions.revokedAt)));
      return { reused: true as const };
    }
    if (row.refreshExpiresAt.getTime() <= Date.now()) throw invalidToken();
    await tx.update(sessions).set({ rotatedAt: new Date() }).where(eq(sessions.id, row.id));
    const issued = await issueSession({
      db: tx,
      userId: row.userId,
      clientId: row.clientId,
      lifetimes: options.lifetimes,
      client: options.client,
      familyId: row.familyId,
      boundIpAddress: row.boundIpAddress,
      // A signing-link session stays one: rotating must never widen what it reaches.
      ...(row.scopeEpakId && row.scopeTenantId ? { scope: { tenantId: row.scopeTenantId, epakId: row.scopeEpakId } } : {}),
    });
    return { reused: false as const, issued, userId: row.userId, familyId: row.familyId };
  }).then((result) => {
    // Thrown after the transaction so the family's revocation is committed, not rolled back.
    if (result.reused) throw invalidToken();
    return { ...result.issued, userId: result.userId, familyId: result.familyId };
  });
}

export interface ResolvedSession {
  sessionId: string;
  familyId: string;
  userId: string;
  accessExpiresAt: Date;
  user: typeof users.$inferSelect;
  /** Set for a signing-link session: it reaches this ePak of this tenant only. */
  scopeTenantId: string | null;
  scopeEpakId: string | null;
  /** Which client the session was issued to (e.g. 'inperson' for an in-person signer). */
  clientId: string;
}

/**
 * The session an access token belongs to: -5 when it is not valid, -32 when a later sign-in ended
 * it, -26 when it is bound to another address than `ipAddress`, -27 when it has expired.
 */
export async function resolveAccessToken(options: { db: Db; accessToken: string; ipAddress?: string | undefined }): Promise<ResolvedSession> {
  return (await resolveAccessTokenIn({ ...options, tenantId: null })).session;
}

export interface TenantMembership {
  membership: typeof memberships.$inferSelect;
  tenant: typeof tenants.$inferSelect;
  /** The tenant's stored settings value (tenant_settings.settings), null when it has none. */
  storedSettings: unknown;
}

/**
 * resolveAccessToken, and in the same query the user's membership of `tenantId` with its tenant
 * and the tenant's stored settings (undefined when there is none, or no tenant id was given). One prepared statement per
 * database: every authenticated request runs it, and bench/inbox showed a query's fixed cost
 * (building it, its round trip) to be a large part of a small request's.
 */
export async function resolveAccessTokenIn(options: {
  db: Db;
  accessToken: string;
  /** Only a well-formed uuid, or null. */
  tenantId: string | null;
  /** The caller's address (request.ip): a session bound to another one is refused (-26). */
  ipAddress?: string | undefined;
}): Promise<{ session: ResolvedSession; membership: TenantMembership | undefined }> {
  const [row] = await sessionLookupOf(options.db).execute({ hash: digestSecret(options.accessToken), tenantId: options.tenantId });
  if (!row) throw invalidToken();
  if (row.session.revokedAt) throw revokedError(row.session.revokedReason);
  if (row.session.rotatedAt) throw invalidToken();
  // Before the expiry: a token from elsewhere must not earn the refresh an expired one asks for.
  if (row.session.boundIpAddress !== null && row.session.boundIpAddress !== options.ipAddress) throw addressMismatch();
  if (row.session.accessExpiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.TOKEN_EXPIRED, 'The access token has expired.');
  }
  return {
    session: {
      sessionId: row.session.id,
      familyId: row.session.familyId,
      userId: row.session.userId,
      accessExpiresAt: row.session.accessExpiresAt,
      user: row.user,
      scopeTenantId: row.session.scopeTenantId,
      scopeEpakId: row.session.scopeEpakId,
      clientId: row.session.clientId,
    },
    membership: row.membership && row.tenant ? { membership: row.membership, tenant: row.tenant, storedSettings: row.settings } : undefined,
  };
}

function prepareSessionLookup(db: Db) {
  return db
    .select({ session: sessions, user: users, membership: memberships, tenant: tenants, settings: tenantSettings.settings })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.tenantId, sql.placeholder('tenantId'))))
    .leftJoin(tenants, eq(tenants.id, memberships.tenantId))
    .leftJoin(tenantSettings, eq(tenantSettings.tenantId, tenants.id))
    .where(eq(sessions.accessTokenHash, sql.placeholder('hash')))
    .prepare('resolve_access_token');
}

const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

function sessionLookupOf(db: Db) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  return lookup;
}

/** Logout: every token of the family stops working. */
export async function revokeSessionFamily(options: { db: Db; familyId: string }): Promise<void> {
  await options.db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: 'logout' satisfies RevokedReason })
    .where(and(eq(sessions.familyId, options.familyId), isNull(sessions.revokedAt)));
}
