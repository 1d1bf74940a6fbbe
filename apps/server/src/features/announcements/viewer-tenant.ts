import { API_HEADERS, DomainError } from '@pakt/domain';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/database';
import { resolveAuth } from '../../http/auth-guard';

/**
 * The tenant whose announcements a public call may also see: the one in the tenant header, when
 * the bearer token is a valid session of an active member of it. Anything less (no token, an
 * expired one, an outsider's header, a signing-link session) is simply an anonymous visitor, who
 * sees the instance-wide announcements only: the login page must never fail over a stale token.
 */
export async function viewerTenantId(db: Db, request: FastifyRequest): Promise<string | null> {
  const tenantHeader = request.headers[API_HEADERS.tenant.toLowerCase()];
  if (!request.headers.authorization || typeof tenantHeader !== 'string' || tenantHeader.length === 0) return null;
  try {
    const auth = await resolveAuth({ db, access: 'tenant', request });
    return auth && 'tenant' in auth ? auth.tenant.id : null;
  } catch (error) {
    // Refusals only; a database fault is still a fault.
    if (error instanceof DomainError) return null;
    throw error;
  }
}
