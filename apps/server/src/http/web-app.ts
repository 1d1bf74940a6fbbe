import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFound } from './error-handler';

/**
 * Serves the built single-page app. Hashed assets are cached for a year; index.html never is,
 * so a deploy is picked up at the next navigation. Any GET outside /msbapi that matches no file
 * gets index.html, and React Router takes it from there.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy beside each file that compresses
 * (apps/web/vite.config.ts): a browser that accepts brotli gets the .br file, one that accepts
 * only gzip the .gz one, any other the file itself, with the file's own type and Content-Encoding
 * saying which. Nothing is compressed while answering. The copies have no address of their own.
 */
export async function serveWebApp(app: FastifyInstance, webDistDir: string) {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    // The signing pages' own HTML names their chunks, so they download beside the entry's.
    for (const [page, html] of pagesWithTheirChunks(webDistDir, fs.readFileSync(indexFile, 'utf8'))) {
      // Compressed once, here, like the build's copies of index.html.
      const copies = { br: zlib.brotliCompressSync(html), gzip: zlib.gzipSync(html, { level: 9 }), identity: Buffer.from(html) };
      app.get(page, (request, reply) => {
        const encoding = preferredEncoding(request.headers['accept-encoding']);
        reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
        if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
        return reply.send(copies[encoding]);
      });
    }
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The build's manifest is read here, not served.
      globIgnore: ['**/*.br', '**/*.gz', '**/.vite/**'],
      // Our setHeaders decides caching; the plugin's default would overwrite it with max-age=0.
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The answer depends on Accept-Encoding (the plugin does not say so): a shared cache must
        // not hand the brotli copy to a browser that asked for none.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
    app.get('/', (_request, reply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html'));
  } else {
    app.log.warn(`No web app at ${webDistDir}: run "npm run build" to serve the user interface.`);
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/msbapi' || request.url.startsWith('/msbapi/');
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (hasWebApp && wantsPage && !isApi && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return apiNotFound(request, reply);
  });
}

/**
 * Pages most often opened cold, from a link on a phone (issue 23): a signer's. A page's code is
 * otherwise asked for only once the entry's scripts have run (React Router's lazy routes), which on
 * a slow line put 130 KB and 1.3 s after the entry's own 1.5 s. Named in the page's HTML as
 * module preloads, they share the line with the entry instead. Keyed by the web app's sources as
 * its build manifest names them; a page the manifest lacks is served the plain index.html.
 */
const PRELOADED_PAGES: Readonly<Record<string, string>> = {
  '/emailsign': 'src/features/signing/email-sign-page.tsx',
  '/sign': 'src/features/signing/sign-page.tsx',
};

interface ManifestChunk {
  readonly file: string;
  readonly imports?: readonly string[];
}

/**
 * index.html for each page of PRELOADED_PAGES, with a modulepreload for every chunk the page's
 * module imports, directly or not, that index.html does not already name. Empty without a
 * manifest (a build from before it, or a test's stand-in).
 */
export function pagesWithTheirChunks(webDistDir: string, indexHtml: string): Map<string, string> {
  const pages = new Map<string, string>();
  const manifestFile = path.join(webDistDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile) || !indexHtml.includes('</head>')) return pages;
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return pages;
  }
  for (const [page, source] of Object.entries(PRELOADED_PAGES)) {
    if (!manifest[source]) continue;
    const files: string[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      files.push(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(source);
    // The same attributes as Vite's own preloads, so the browser reuses what it fetched.
    const links = files
      .filter((file) => /^[\w./-]+\.js$/.test(file) && !indexHtml.includes(`/${file}"`))
      .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">`)
      .join('\n');
    pages.set(page, links ? indexHtml.replace('</head>', `${links}\n  </head>`) : indexHtml);
  }
  return pages;
}

/** brotli, else gzip, else none, as the browser's Accept-Encoding allows (a q of 0 refuses). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
