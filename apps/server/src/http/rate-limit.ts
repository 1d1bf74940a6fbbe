import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import {
  ALL_ENDPOINTS,
  authenticate,
  completeSetup,
  DomainError,
  type Endpoint,
  exchangeEasyToken,
  exchangeToken,
  forgotPassword,
  generateOtp,
  registerUserTenant,
  resetPassword,
  ResponseCode,
  signup,
  verifyEmail,
  verifyOtp,
} from '@pakt/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../platform/config';
import type { SqlExecutor } from '../platform/db/database';

/** Which budget a route spends: each client address has one counter per group and window. */
export type RateLimitGroup = 'sign-in' | 'public';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Calls that check a credential (password, code, link, token) or make the server send mail:
 * what an attacker repeats to guess or to flood, so they share the strict budget.
 */
const SIGN_IN_ENDPOINTS: readonly Endpoint[] = [
  authenticate,
  generateOtp,
  verifyOtp,
  forgotPassword,
  resetPassword,
  registerUserTenant,
  signup,
  verifyEmail,
  completeSetup,
  exchangeEasyToken,
  exchangeToken,
];

const routeKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

const GROUP_OF = new Map<string, RateLimitGroup>([
  // Every other call anyone may make without a session (alive, setup status, public
  // configuration, user type, announcements, invitation details, token refresh, OTP status...).
  ...ALL_ENDPOINTS.filter((e) => e.access === 'public').map((e) => [routeKey(e.method, e.path), 'public'] as const),
  ...SIGN_IN_ENDPOINTS.map((e) => [routeKey(e.method, e.path), 'sign-in'] as const),
]);

/**
 * The budget a route spends, or none. Static files cost the server next to nothing and are not
 * an oracle; a signed-in call has already passed authentication, and what it may do is bounded by
 * the account's own rights (a limit per address would also throttle a whole office behind one NAT).
 */
export function rateLimitGroupOf(method: string, url: string): RateLimitGroup | undefined {
  return GROUP_OF.get(routeKey(method, url)) ?? (url.startsWith('/msbapi/public/') ? 'public' : undefined);
}

/**
 * One atomic upsert per request: a window starts at the first hit and the counter restarts once
 * it has passed. Embedded and external PostgreSQL run the same statement, so every process on one database
 * shares the counters. The clock is the caller's (tests move it), not the database's.
 */
const HIT_SQL = `INSERT INTO rate_limit_counters AS c (key, hits, reset_at) VALUES ($1, 1, $3::timestamptz)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN c.reset_at <= $2::timestamptz THEN 1 ELSE LEAST(c.hits, 2000000000) + 1 END,
  reset_at = CASE WHEN c.reset_at <= $2::timestamptz THEN EXCLUDED.reset_at ELSE c.reset_at END
RETURNING hits, (extract(epoch FROM reset_at) * 1000)::float8 AS reset_ms`;

/** Counts a hit of `key` in the current window: how many so far, and the milliseconds left. */
export async function countRateLimitHit(options: { executor: SqlExecutor; key: string; windowMs: number; now: number }): Promise<{ current: number; ttl: number }> {
  const { executor, key, windowMs, now } = options;
  const { rows } = await executor.executeSql(HIT_SQL, [key, new Date(now).toISOString(), new Date(now + windowMs).toISOString()], { name: 'rate-limit-hit' });
  const row = rows[0] as { hits: number; reset_ms: number };
  return { current: row.hits, ttl: Math.max(0, Math.round(row.reset_ms - now)) };
}

/**
 * Deletes the counters whose window has ended (a scheduled job calls it), so the table holds
 * only the addresses seen in the last minute or so.
 */
export async function purgeRateLimitCounters(options: { executor: SqlExecutor; now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const { rows } = await options.executor.executeSql('WITH gone AS (DELETE FROM rate_limit_counters WHERE reset_at <= $1::timestamptz RETURNING 1) SELECT count(*)::int AS n FROM gone', [now.toISOString()]);
  return (rows[0] as { n: number }).n;
}

/** The plugin builds its store with `new`: this class closes over the database and the clock. */
function databaseStore(executor: SqlExecutor, now: () => number): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow = RATE_LIMIT_WINDOW_MS): void {
      countRateLimitHit({ executor, key, windowMs: timeWindow, now: now() }).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    // One table for every route: the key already names the group.
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * Issue 17: the public and sign-in calls are limited per client address (`request.ip`, which
 * TRUST_PROXY decides), with counters in the database. The check runs at onRequest, before the
 * body is read and before any authentication, and costs one round trip. An exceeded limit is
 * 429 with Retry-After and the usual envelope: code -1 (the catalogue's -198/-217/-227 each mean
 * one account's attempts, not a client's rate), `data.retryAfter` in seconds.
 * Call before any route is registered.
 */
export async function installRateLimits(app: FastifyInstance, options: { executor: SqlExecutor; limits: Config['rateLimits']; now?: () => number }) {
  const max: Record<RateLimitGroup, number> = { 'sign-in': options.limits.signInPerMinute, public: options.limits.publicPerMinute };
  // Runs before the plugin's own onRoute hook (registered below), which reads config.rateLimit.
  app.addHook('onRoute', (routeOptions) => {
    const url = routeOptions.url ?? routeOptions.path;
    const group = [routeOptions.method].flat().map((method) => rateLimitGroupOf(method, url)).find(Boolean);
    if (!group || max[group] <= 0) return;
    routeOptions.config = {
      ...routeOptions.config,
      rateLimit: { max: max[group], timeWindow: RATE_LIMIT_WINDOW_MS, keyGenerator: (request: FastifyRequest) => `${group}|${request.ip}` },
    };
  });
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    store: databaseStore(options.executor, options.now ?? Date.now),
    onExceeded: (request, key) => request.log.info({ key }, 'rate limit exceeded'),
    errorResponseBuilder: (_request, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return new DomainError(ResponseCode.GENERIC_ERROR, `Too many requests: try again in ${retryAfter} seconds.`, { httpStatus: 429, data: { retryAfter } });
    },
  });
}
