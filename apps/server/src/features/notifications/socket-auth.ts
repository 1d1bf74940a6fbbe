import { API_HEADERS, effectivePermissionSettings, enforce, listNotifications } from '@pakt/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { actorOf, resolveAuth, type TenantAuth } from '../../http/auth-guard';
import { loadTenantSettings } from '../identity';

/** Who a socket speaks for, once its connect frame is accepted. */
export interface SocketIdentity {
  readonly userId: string;
  readonly tenantId: string;
  readonly sessionId: string;
  readonly familyId: string;
}

/**
 * A socket's connect frame is judged exactly as an HTTP call to listNotifications would be,
 * by the same guard (http/auth-guard.ts): the access token resolves to a live session, the
 * tenant is one the user is an active member of (else 404, -1), the trial has not ended, the
 * role may read notifications (epak.act), and a signing-link session is refused (-11): it
 * reaches one ePak, not anyone's notifications. Browsers cannot set headers on a WebSocket, so
 * the token and tenant travel in the frame and are handed to the guard as the headers it reads.
 */
export async function authenticateSocket(
  ctx: Pick<AppContext, 'database' | 'config'>,
  frame: { accessToken: string; tenantId: string },
  peer: { ip?: string | undefined } = {},
): Promise<SocketIdentity> {
  const db = ctx.database.db;
  // The token goes through the guard's own parsing (a malformed one is -37, as over HTTP), and
  // the socket's address with it: a session bound to another address is refused (-26).
  const request = {
    ip: peer.ip,
    headers: { authorization: `Bearer ${frame.accessToken}`, [API_HEADERS.tenant.toLowerCase()]: frame.tenantId },
    params: {},
    body: {},
  } as unknown as FastifyRequest;
  const auth = (await resolveAuth({ db, access: listNotifications.access, request, signingLink: false })) as TenantAuth;
  const settings = effectivePermissionSettings(ctx.config.features, await loadTenantSettings(db, auth.tenant.id));
  enforce(actorOf(auth), listNotifications.action!, { settings });
  return { userId: auth.user.id, tenantId: auth.tenant.id, sessionId: auth.session.sessionId, familyId: auth.session.familyId };
}
