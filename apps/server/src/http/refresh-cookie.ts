import { API_HEADERS, COOKIE_TOKEN_TRANSPORT, refreshToken, type TokenGrant } from '@pakt/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../platform/config';

/**
 * The browser app's refresh token travels in this httpOnly cookie, never in JSON it could read:
 * an XSS can then use a session while the page is open but cannot carry a long-lived one away.
 * Scoped to the refresh path, so no other request (and no other endpoint's log) ever carries it.
 * Not `__Host-`: that prefix demands Path=/.
 */
export const REFRESH_COOKIE = 'pakt_refresh';
export const REFRESH_COOKIE_PATH = refreshToken.path;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header (no port); lower case. */
function hostName(host: string | undefined): string {
  if (!host) return '';
  const lower = host.toLowerCase();
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':')[0] ?? '');
}

/**
 * Secure whenever the browser will keep a Secure cookie: an https install (PUBLIC_URL), a request
 * that came over https, or a loopback host (Chromium and Firefox accept Secure cookies from
 * http://localhost and 127.0.0.1 as a secure context). Only a plain-http install reached by a LAN
 * name or address gets a cookie without it, since the browser would otherwise drop the cookie and
 * nobody there could stay signed in; such an install sends everything in clear anyway.
 */
export function refreshCookieIsSecure(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): boolean {
  if (config.publicUrl.startsWith('https:')) return true;
  if (request.protocol === 'https') return true;
  return LOOPBACK_HOSTS.has(hostName(request.headers.host));
}

/** Whether the caller (the web app) asked for the refresh token as a cookie. */
export function wantsCookieTransport(request: FastifyRequest): boolean {
  return request.headers[API_HEADERS.tokenTransport.toLowerCase()] === COOKIE_TOKEN_TRANSPORT;
}

/** The refresh token the browser's cookie carries, if any. */
export function refreshTokenFromCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies[REFRESH_COOKIE];
  return value && value.length <= 200 ? value : undefined;
}

/**
 * Hands out a grant: as it is (refresh token in the body) for API clients, or with the refresh
 * token moved into the cookie when the web app asked for that, or when the presented token itself
 * came in the cookie (a script calling refresh must never get a refresh token back in JSON).
 */
export function deliverGrant(options: {
  config: Pick<Config, 'publicUrl' | 'tokens'>;
  request: FastifyRequest;
  reply: FastifyReply;
  grant: TokenGrant & { refreshToken: string };
  viaCookie?: boolean;
}): TokenGrant {
  const { grant, request, reply, config } = options;
  if (!options.viaCookie && !wantsCookieTransport(request)) return grant;
  reply.setCookie(REFRESH_COOKIE, grant.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    maxAge: grant.refreshExpiresIn,
    secure: refreshCookieIsSecure(config, request),
  });
  const { refreshToken: _moved, ...withoutRefresh } = grant;
  return withoutRefresh;
}

/** Logout: the browser forgets the refresh cookie (same name and path, expired). */
export function clearRefreshCookie(config: Pick<Config, 'publicUrl'>, request: FastifyRequest, reply: FastifyReply): void {
  reply.setCookie(REFRESH_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    maxAge: 0,
    expires: new Date(0),
    secure: refreshCookieIsSecure(config, request),
  });
}
