import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let webDir: string;

// What a build leaves (apps/web/vite.config.ts): files, and beside those that compress, their
// brotli and gzip copies. Made here, so these tests need no build of the web app.
const INDEX = '<!doctype html><div id="root"></div>';
const SCRIPT = `console.log(1);\n${'export const page = () => "a line of the app";\n'.repeat(40)}`;
const ICON = '<svg/>';

function writeWithCopies(file: string, text: string): void {
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  writeWithCopies(path.join(webDir, 'index.html'), INDEX);
  writeWithCopies(path.join(webDir, 'assets', 'index-abc123.js'), SCRIPT);
  // Too small to gain from compression: the build writes no copies of it.
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), ICON);
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
      // The compressed copies are chosen by Accept-Encoding, not fetched by their own names.
      ['GET', '/assets/index-abc123.js.br'],
      ['GET', '/msbapi/v1/unknown'],
      ['POST', '/dashboard'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code, url).toBe(-1);
    }
  });
});

describe('compressed copies made at build time', () => {
  const script = '/assets/index-abc123.js';
  const get = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the brotli copy to a browser that accepts brotli, typed and cached as the file itself', async () => {
    const res = await get(script, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(fs.statSync(path.join(webDir, `${script}.br`)).size);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy to a browser that accepts only gzip', async () => {
    const res = await get(script, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself to a browser that accepts neither, still saying the answer varies', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get(script, acceptEncoding);
      expect(res.statusCode, acceptEncoding).toBe(200);
      expect(res.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(res.headers['content-type'], acceptEncoding).toMatch(/^application\/javascript/);
      expect(res.headers['vary'], acceptEncoding).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
      expect(res.body, acceptEncoding).toBe(SCRIPT);
    }
  });

  it('answers HEAD with the headers of the copy GET would send, and no body', async () => {
    const res = await get(script, 'br', 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(Number(res.headers['content-length'])).toBe(fs.statSync(path.join(webDir, `${script}.br`)).size);
    expect(res.rawPayload.length).toBe(0);
  });

  it('sends a file without copies as it is, whatever the browser accepts', async () => {
    const res = await get('/favicon.svg', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(ICON);
  });

  it('sends index.html compressed too, at / and for client-side routes, never cached', async () => {
    for (const [url, acceptEncoding] of [
      ['/', 'br'],
      ['/emailsign?token=x', 'gzip, deflate, br'],
      ['/dashboard', 'gzip'],
    ] as const) {
      const res = await get(url, acceptEncoding);
      const encoding = acceptEncoding === 'gzip' ? 'gzip' : 'br';
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe(encoding);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['vary'], url).toMatch(/accept-encoding/i);
      const body = encoding === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : zlib.gunzipSync(res.rawPayload);
      expect(body.toString(), url).toBe(INDEX);
    }
  });

  it('answers an unknown API route with the JSON 404 envelope, not the page', async () => {
    const res = await get('/msbapi/v1/unknown', 'gzip, deflate, br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().code).toBe(-1);
  });
});
