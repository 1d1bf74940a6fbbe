import {
  type Actor,
  API_HEADERS,
  DomainError,
  type EndpointAccess,
  forbidden,
  invalidInput,
  notFound,
  ResponseCode,
  type Role,
  type UserStatus,
} from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type ResolvedSession, resolveAccessTokenIn } from '../features/auth/sessions';
import type { Db } from '../platform/db/database';
import { memberships, tenants } from '../platform/db/schema';

export interface UserAuth {
  session: ResolvedSession;
  user: ResolvedSession['user'];
}

export interface TenantAuth extends UserAuth {
  tenant: { id: string; name: string };
  role: Role;
  /** The tenant's stored settings as read with the session (route() parses them when needed). */
  storedSettings?: unknown;
}

export type AuthFor<A extends EndpointAccess> = A extends 'public' ? undefined : A extends 'tenant' ? TenantAuth : UserAuth;

const TENANT_ID = z.uuid();

/** What every access token looks like (auth/secrets.ts generateSecret('pka'): 32 bytes, base64url). */
const ACCESS_TOKEN_SHAPE = /^Bearer (pka_[A-Za-z0-9_-]{43})$/;

/**
 * The access token of an Authorization header. No header at all is -5 (sign in first); one that
 * is sent but cannot be an access token (another scheme, a refresh token, wrong characters or
 * length) is -37, invalid JWT, before any database lookup. A well-formed token that matches no
 * live session stays -5 (resolveAccessTokenIn).
 */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header === '') throw new DomainError(ResponseCode.INVALID_ACCESS_TOKEN, 'Sign in first: no bearer token was sent.');
  const match = ACCESS_TOKEN_SHAPE.exec(header);
  if (!match) throw new DomainError(ResponseCode.INVALID_JWT, 'The Authorization header does not carry a valid bearer token.');
  return match[1]!;
}

/**
 * Authentication and tenant resolution, done once, centrally, before any handler runs. The
 * tenant header only selects among the caller's active memberships: anything else is 404, so
 * an outsider cannot even learn that a tenant exists.
 */
export async function resolveAuth(options: {
  db: Db;
  access: EndpointAccess;
  request: FastifyRequest;
  /** The endpoint is made for signing-link sessions too (contract `signingLink`). */
  signingLink?: boolean;
}): Promise<UserAuth | TenantAuth | undefined> {
  const { db, access, request } = options;
  if (access === 'public') return undefined;
  const tenantHeader = request.headers[API_HEADERS.tenant.toLowerCase()];
  const tenantId = typeof tenantHeader === 'string' && TENANT_ID.safeParse(tenantHeader).success ? tenantHeader : null;
  // The caller's membership of the tenant they name comes with the session, in one query.
  const { session, membership } = await resolveAccessTokenIn({
    db,
    accessToken: bearerToken(request.headers.authorization),
    tenantId: access === 'tenant' ? tenantId : null,
    ipAddress: request.ip,
  });
  const auth: UserAuth = { session, user: session.user };
  if (session.user.disabledAt) throw new DomainError(ResponseCode.USER_DISABLED, 'This account is disabled.');
  if (session.scopeEpakId) return resolveLinkAuth({ db, request, auth, signingLink: access === 'tenant' && options.signingLink === true });
  if (access === 'user') return auth;
  if (access === 'root') {
    if (!session.user.isRoot) throw forbidden('Only the instance administrator may do this.');
    return auth;
  }
  if (typeof tenantHeader !== 'string' || tenantHeader.length === 0) {
    throw invalidInput(`The ${API_HEADERS.tenant} header is required.`);
  }
  if (tenantId === null) throw notFound();
  const row = membership;
  if (!row || row.membership.status === 'invited') throw notFound();
  if (row.membership.status === 'disabled') {
    throw new DomainError(ResponseCode.USER_DISABLED, 'Your account is disabled in this tenant.');
  }
  if (row.membership.expiresAt && row.membership.expiresAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.USER_EXPIRED, 'Your access to this tenant has expired. Contact its administrator.');
  }
  if (row.tenant.trialEndsAt && row.tenant.trialEndsAt.getTime() <= Date.now()) {
    throw new DomainError(ResponseCode.TRIAL_PERIOD_EXPIRED, 'The trial period of this tenant has ended.');
  }
  return { ...auth, tenant: { id: row.tenant.id, name: row.tenant.name }, role: row.membership.role as Role, storedSettings: row.storedSettings };
}

/** The ePak a request is about: in its path (ePakId or epakId) or, for POST epak/status, its body. */
function epakIdOf(request: FastifyRequest): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const id = params['ePakId'] ?? params['epakId'] ?? body['ePakId'];
  return typeof id === 'string' ? id : undefined;
}

/**
 * A session opened from a signing link acts as a signer of one tenant on one ePak, whatever the
 * user's memberships (an external recipient's is still 'invited'). Any other endpoint is 403,
 * any other ePak or tenant 404.
 */
async function resolveLinkAuth(options: { db: Db; request: FastifyRequest; auth: UserAuth; signingLink: boolean }): Promise<TenantAuth> {
  const { auth, request } = options;
  const { scopeEpakId, scopeTenantId } = auth.session;
  if (!options.signingLink) throw forbidden('A signing link opens only the ePak it was sent for.');
  const tenantHeader = request.headers[API_HEADERS.tenant.toLowerCase()];
  if ((typeof tenantHeader === 'string' && tenantHeader.length > 0 && tenantHeader !== scopeTenantId) || epakIdOf(request) !== scopeEpakId) {
    throw notFound();
  }
  // The link is the grant: an external recipient may have no membership at all. One that an
  // administrator disabled still stops them.
  const [tenant] = await options.db.select().from(tenants).where(eq(tenants.id, scopeTenantId!));
  if (!tenant) throw notFound();
  const [membership] = await options.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenant.id), eq(memberships.userId, auth.user.id)));
  if (membership?.status === 'disabled') throw new DomainError(ResponseCode.USER_DISABLED, 'Your account is disabled in this tenant.');
  return { ...auth, tenant: { id: tenant.id, name: tenant.name }, role: 'signer' };
}

/**
 * The one "who is asking" that tenant commands receive: the verified tenant, the user, and their
 * role there. Route files pass it on rather than building their own.
 */
export function tenantActorOf(auth: TenantAuth): { tenantId: string; userId: string; role: Role } {
  return { tenantId: auth.tenant.id, userId: auth.user.id, role: auth.role };
}

/** The permissions module's view of the caller. Root acts outside any tenant. */
export function actorOf(auth: UserAuth | TenantAuth): Actor {
  const base = { userId: auth.user.id, userStatus: auth.user.status as UserStatus };
  if ('tenant' in auth) return { ...base, role: auth.role, tenantId: auth.tenant.id, ...(auth.session.scopeEpakId ? { viaSigningLink: true } : {}) };
  // Only root acts outside a tenant with a role; route() refuses actions on 'user' endpoints.
  if (!auth.user.isRoot) throw new Error('actorOf: a non-root user outside a tenant has no role');
  return { ...base, role: 'root' };
}

