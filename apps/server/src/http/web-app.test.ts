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

describe('a signing page names its chunks in its HTML', () => {
  // Vite's manifest of a build: the signing page imports the ceremony, which imports a chunk the
  // entry already has (named in index.html) and one shared with the other signing page.
  const PAGE_INDEX = [
    '<!doctype html><html><head>',
    '<script type="module" crossorigin src="/assets/index-e1.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/react-r1.js">',
    '</head><body><div id="root"></div></body></html>',
  ].join('\n');
  const MANIFEST = {
    'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_react-r1.js'] },
    '_react-r1.js': { file: 'assets/react-r1.js' },
    'src/features/signing/email-sign-page.tsx': { file: 'assets/email-sign-page-p1.js', isDynamicEntry: true, imports: ['_react-r1.js', '_ceremony-c1.js'] },
    'src/features/signing/sign-page.tsx': { file: 'assets/sign-page-p2.js', isDynamicEntry: true, imports: ['_ceremony-c1.js'] },
    '_ceremony-c1.js': { file: 'assets/ceremony-c1.js', imports: ['_react-r1.js', '_modal-m1.js'], css: ['assets/ceremony-c1.css'] },
    '_modal-m1.js': { file: 'assets/modal-m1.js', imports: ['_ceremony-c1.js'] },
  };
  let pages: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-web-manifest-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.mkdirSync(path.join(dir, '.vite'));
    writeWithCopies(path.join(dir, 'index.html'), PAGE_INDEX);
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    pages = await buildTestApp({ env: { WEB_DIST_DIR: dir } });
  });
  afterAll(async () => {
    await pages.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const open = (url: string, acceptEncoding?: string) => pages.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it('lists every chunk the page imports, directly or not, once, leaving out those index.html already names', async () => {
    const emailSign = await open('/emailsign?token=abc');
    expect(emailSign.statusCode).toBe(200);
    expect(emailSign.headers['content-type']).toMatch(/^text\/html/);
    expect(emailSign.headers['cache-control']).toBe('no-cache');
    expect(preloads(emailSign.body)).toEqual(['/assets/react-r1.js', '/assets/email-sign-page-p1.js', '/assets/ceremony-c1.js', '/assets/modal-m1.js']);
    // The rest of the page is index.html as built; the links go in its head.
    expect(emailSign.body.replace(/ {4}<link rel="modulepreload" crossorigin href="\/assets\/(email-sign-page-p1|ceremony-c1|modal-m1)\.js">\n/g, '')).toBe(PAGE_INDEX.replace('</head>', '  </head>'));
    const sign = await open('/sign?ePakId=1');
    expect(preloads(sign.body)).toEqual(['/assets/react-r1.js', '/assets/sign-page-p2.js', '/assets/ceremony-c1.js', '/assets/modal-m1.js']);
  });

  it('sends it compressed as the browser accepts, saying the answer varies; other pages get index.html as built', async () => {
    const br = await open('/emailsign?token=abc', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(preloads(zlib.brotliDecompressSync(br.rawPayload).toString())).toHaveLength(4);
    const gzip = await open('/sign', 'gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(preloads(zlib.gunzipSync(gzip.rawPayload).toString())).toHaveLength(4);
    const plain = await open('/emailsign', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(preloads(plain.body)).toHaveLength(4);
    expect((await open('/dashboard')).body).toBe(PAGE_INDEX);
  });

  it('does not serve the manifest itself', async () => {
    const res = await open('/.vite/manifest.json');
    expect(res.body).not.toContain('email-sign-page');
  });
});
