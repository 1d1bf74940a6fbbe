import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, installSecurityHeaders } from './security-headers';

async function appWith(publicUrl: string) {
  const app = Fastify();
  installSecurityHeaders(app, { publicUrl });
  app.get('/msbapi/public/alive', async () => ({ code: 1, data: { alive: true } }));
  await app.ready();
  return app;
}

/** The policy as a map of directive to its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('security headers on every answer', () => {
  it('send a script CSP without inline scripts or eval, and the framing, sniffing and referrer rules', async () => {
    const app = await appWith('http://localhost:3000');
    for (const url of ['/msbapi/public/alive', '/missing']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: '127.0.0.1:3100' } });
      const csp = directives(res.headers['content-security-policy'] as string);
      expect(csp.get('script-src'), url).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('worker-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:3100', 'wss://127.0.0.1:3100']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    await app.close();
  });

  it('add HSTS when PUBLIC_URL is https', async () => {
    const app = await appWith('https://pakt.example');
    const res = await app.inject({ method: 'GET', url: '/msbapi/public/alive' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await app.close();
  });

  it('never let a forged Host header add sources to the policy', () => {
    expect(contentSecurityPolicy("evil.test; script-src *")).not.toContain('evil');
    expect(contentSecurityPolicy('pakt.example:8443')).toContain('wss://pakt.example:8443');
    expect(contentSecurityPolicy(undefined)).toContain("connect-src 'self';");
  });
});
