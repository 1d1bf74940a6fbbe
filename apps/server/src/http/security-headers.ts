import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../platform/config';

/** A Host header as a CSP source may name it: a host name or address with an optional port. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The Content-Security-Policy of every answer (the app's pages, its assets and the API).
 * - script-src 'self': no inline script, no eval; the one extra is 'wasm-unsafe-eval', which lets
 *   pdf.js's worker compile its WebAssembly image decoders (JPEG 2000, JBIG2) and nothing else.
 *   pdf.js runs with isEvalSupported false, and its worker is a file of ours (worker-src 'self').
 * - style-src allows inline styles: Mantine writes a style element (its CSS variables) and style
 *   attributes at run time. Styles cannot run code; scripts are what the policy guards.
 * - img-src data: and blob:: drawn signatures are data URLs, photos and previews object URLs.
 * - connect-src: the API and the notification socket (/notification) on this same host; 'self'
 *   covers ws(s) in CSP 3 browsers, the explicit ws/wss sources cover the others.
 * - frame-ancestors 'none': no one may frame a signing page (clickjacking).
 */
export function contentSecurityPolicy(host: string | undefined): string {
  const socket = host && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${socket}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Headers on every answer: the CSP above; no framing (also for browsers without frame-ancestors);
 * no sniffing, so an uploaded file never runs as a script; no referrer, since signing, reset and
 * invitation links carry their secret in the query string; and HSTS on an https install.
 */
export function installSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  const hsts = config.publicUrl.startsWith('https:');
  app.addHook('onSend', async (request: FastifyRequest, reply) => {
    reply.header('Content-Security-Policy', contentSecurityPolicy(request.headers.host));
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (hsts) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
}
