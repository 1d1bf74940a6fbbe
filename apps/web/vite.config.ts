import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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

export default defineConfig({
  plugins: [react(), pdfJsAssets()],
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
    rolldownOptions: {
      output: {
        // Libraries change far less often than our code; separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            // pdf.js is imported on demand by the tag editor; its own chunk keeps it out of what
            // every page loads (inside 'vendor' it would be fetched with the app's first page).
            // The worker's `?url` import is only a string the app needs up front, so it stays out.
            { name: 'pdfjs', test: /node_modules[\\/]pdfjs-dist[\\/][^?]*$/, priority: 4 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
