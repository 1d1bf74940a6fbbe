import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
  t = await buildTestApp({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('serves index.html at / and for every client-side route, never cached', async () => {
    for (const url of ['/', '/dashboard', '/accessdenied?status=expired', '/epaks/123/documents']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      // The page's script policy: its own files only, never inline (issue 17 item 7).
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(res.headers['content-security-policy'], url).toContain("object-src 'none'");
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('serves hashed assets for a year and other files revalidated', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The pdf.js worker is such an asset: it runs under the policy its own answer carries.
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'");
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing file, an unknown API route and a non-GET with the 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', '/assets/missing-1.js'],
      ['GET', '/msbapi/v1/unknown'],
      ['POST', '/dashboard'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe(-1);
    }
  });
});
