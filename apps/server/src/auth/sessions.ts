import { randomUUID } from 'node:crypto';
import { DomainError, ResponseCode } from '@pakt/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { memberships, sessions, tenantSettings, tenants, users } from '../db/schema';
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

export async function issueSession(options: {
  db: Db;
  userId: string;
  clientId: string;
  lifetimes: TokenLifetimes;
  client?: ClientInfo;
  familyId?: string;
  /** A signing-link session: one ePak of one tenant (http/auth-guard.ts). */
  scope?: { tenantId: string; epakId: string };
}): Promise<IssuedTokens> {
  const { db, lifetimes } = options;
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
 * the whole family is revoked, so whoever holds the newer token is signed out as well.
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
    if (!row || row.revokedAt) throw invalidToken();
    if (row.clientId !== options.clientId) {
      throw new DomainError(ResponseCode.INVALID_CLIENT, 'The token was issued to another client.');
    }
    if (row.rotatedAt) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.familyId, row.familyId), isNull(sessions.revokedAt)));
      return { reused: true as const };
    }
    if (row.refreshExpiresAt.getTime() <= Date.now()) throw invalidToken();
    await tx.update(sessions).set({ rotatedAt: new Date() }).where(eq(sessions.id, row.id));
    const issued = await issueSession({
      db: tx as unknown as Db,
      userId: row.userId,
      clientId: row.clientId,
      lifetimes: options.lifetimes,
      client: options.client,
      familyId: row.familyId,
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

/** The session an access token belongs to: -27 when it has expired, -5 when it is not valid. */
export async function resolveAccessToken(options: { db: Db; accessToken: string }): Promise<ResolvedSession> {
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
}): Promise<{ session: ResolvedSession; membership: TenantMembership | undefined }> {
  const [row] = await sessionLookupOf(options.db).execute({ hash: digestSecret(options.accessToken), tenantId: options.tenantId });
  if (!row || row.session.revokedAt || row.session.rotatedAt) throw invalidToken();
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
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.familyId, options.familyId), isNull(sessions.revokedAt)));
}
