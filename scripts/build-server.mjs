#!/usr/bin/env node
// Bundles the server's own code (apps/server/src and packages/domain) into apps/server/dist/main.mjs;
// packages from node_modules stay imports. `npm start`, the browser tests' server and the tests
// that start the server as a process run this file: importing some four hundred TypeScript modules
// through tsx's loader took 3.5 s of every start, the bundle about 2 s (issue 18; the crash and
// durability tests restart the server fifty times). The output lands at the same depth as src/, so
// the paths the code finds from import.meta.url (the repository, the migrations) are the same.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const src = path.join(root, 'apps/server/src');
const dist = path.join(root, 'apps/server/dist');

export async function buildServer() {
  // Built beside, then renamed into place: a server starting meanwhile reads the old file or the new one, whole.
  const staging = `${dist}.build-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  await build({
    // The server, and the verifier's child (features/verify/verify-child.ts), started by path from beside it.
    entryPoints: { main: path.join(src, 'app/main.ts'), 'verify-child': path.join(src, 'features/verify/verify-child.ts') },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-stay-imports',
        setup(b) {
          // Bare imports are packages, loaded by Node as usual; only our workspace package is TypeScript to bundle.
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@pakt/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  // Started by path from the bundle's directory (features/documents/sandbox.ts).
  fs.copyFileSync(path.join(src, 'features/documents/sandbox-child.mjs'), path.join(staging, 'sandbox-child.mjs'));
  // The same for the anchors' text reader (features/anchors/text-extraction.ts).
  fs.copyFileSync(path.join(src, 'features/anchors/text-child.mjs'), path.join(staging, 'text-child.mjs'));
  const old = `${dist}.old-${process.pid}`;
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(staging, dist);
  fs.rmSync(old, { recursive: true, force: true });
  return path.join(dist, 'main.mjs');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const file = await buildServer();
  console.log(`built ${path.relative(root, file)} in ${Math.round(performance.now() - t0)} ms`);
}
