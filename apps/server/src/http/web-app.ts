import fs from 'node:fs';
import path from 'node:path';
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
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
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
