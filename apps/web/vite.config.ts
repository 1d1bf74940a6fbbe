import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * pdf.js loads data files at run time (standard fonts, character maps, image decoders in
 * WebAssembly) from URLs it is given; they are not modules, so the bundler would not ship them.
 * This serves them under /pdfjs/ in development and copies them into the build.
 */
function pdfJsAssets(): Plugin {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const folders = ['standard_fonts', 'cmaps', 'wasm'];
  // LICENSE files travel with the fonts and decoders they cover.
  const filesOf = (folder: string) => fs.readdirSync(path.join(root, folder));
  return {
    name: 'pakt-pdfjs-assets',
    configureServer(server) {
      server.middlewares.use('/pdfjs', (request, response, next) => {
        const [folder, name] = (request.url ?? '').split('?')[0]!.replace(/^\//, '').split('/');
        if (!folder || !name || !folders.includes(folder) || !filesOf(folder).includes(name)) return next();
        response.setHeader('content-type', name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
        fs.createReadStream(path.join(root, folder, name)).pipe(response);
      });
    },
    generateBundle() {
      for (const folder of folders) {
        for (const name of filesOf(folder)) {
          this.emitFile({ type: 'asset', fileName: `pdfjs/${folder}/${name}`, source: fs.readFileSync(path.join(root, folder, name)) });
        }
      }
    },
  };
}

/** Files worth compressing: text, and binary formats that are not compressed already (pdf.js's fonts, maps, WebAssembly). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm|bcmap|pfb|ttf|otf|ico)$/;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file
 * of the build, once, at build time: the server hands the smaller one to a browser that accepts it
 * (apps/server/src/http/web-app.ts) and never compresses on the fly. A copy that would not be
 * smaller than its file is not written, so the file is sent as it is.
 */
function precompressedAssets(): Plugin {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  let outDir = '';
  return {
    name: 'pakt-precompressed-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file is written, the public folder's (favicon) and the emitted pdf.js ones included.
    async closeBundle() {
      if (!fs.existsSync(outDir)) return;
      const files = fs
        .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .filter((name) => COMPRESSIBLE.test(name))
        .map((name) => path.join(outDir, name));
      await Promise.all(
        files.map(async (file) => {
          const source = fs.readFileSync(file);
          const text = !/\.(?:wasm|bcmap|pfb|ttf|otf|ico)$/.test(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < source.length) fs.writeFileSync(`${file}.br`, br);
          if (gz.length < source.length) fs.writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/** zod's core, whose global config decides whether it compiles parsers with `new Function`. */
const ZOD_CORE = /node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;

/** Sources that only declare things (no statement with an effect at the top level); CSS is not one. */
const SIDE_EFFECT_FREE = /[\\/](?:packages[\\/]domain[\\/]src|apps[\\/]web[\\/]src[\\/](?:features|ui))[\\/][^?]*\.tsx?$/;

export default defineConfig({
  plugins: [react(), pdfJsAssets(), precompressedAssets()],
  server: {
    // The dev server only serves the UI; the API stays on the Pakt server so cookies, CORS and
    // paths behave as in production, where the server serves this build itself.
    proxy: {
      '/msbapi': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each page needs, so the server can name a signing
    // page's chunks in the HTML it answers for that page (apps/server/src/http/web-app.ts).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The contract (packages/domain) and the app's features and UI run nothing when imported:
        // they declare schemas, components and functions. Said so, a module none of whose exports
        // a page uses is left out of that page's chunks. Otherwise importing one thing from
        // '@pakt/domain' or a feature's index kept every module behind it, with every zod schema of
        // the API, in the chunk every page loads.
        moduleSideEffects: (id) => (SIDE_EFFECT_FREE.test(id) ? false : undefined),
      },
      output: {
        // zod probes for eval (`new Function`) when an object schema is made unless it is jitless, and
        // the CSP reports the probe. main.tsx's zod-config sets that first, but the shared chunks a
        // page imports run before the entry's own code, and the contract's schemas are made there.
        // So the chunk holding zod sets zod's global config before zod reads it (zod keeps it on
        // globalThis.__zod_globalConfig and adopts an object found there).
        banner: (chunk) => (chunk.moduleIds.some((id) => ZOD_CORE.test(id)) ? 'globalThis.__zod_globalConfig ??= { jitless: true };' : ''),
        // Libraries change far less often than our code; separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            // pdf.js is imported on demand by the tag editor; its own chunk keeps it out of what
            // every page loads (inside 'vendor' it would be fetched with the app's first page).
            // The worker's `?url` import is only a string the app needs up front, so it stays out.
            { name: 'pdfjs', test: /node_modules[\\/]pdfjs-dist[\\/][^?]*$/, priority: 4 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 },
            // Only the libraries every page needs ($initial: reached from index.html without a
            // dynamic import). Those only some pages use (most of Mantine's components, the
            // signature pad, the QR code maker) stay with those pages: one 'mantine' chunk of every
            // component the app uses made the sign-in page download the admin's tables and dialogs.
            { name: 'vendor', test: /node_modules[\\/]/, priority: 2, tags: ['$initial'] },
          ],
        },
      },
    },
  },
});
