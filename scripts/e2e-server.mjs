#!/usr/bin/env node
// Starts the real Pakt server for the browser tests: a fresh temporary data directory (embedded
// database and files), the built web app, port 3100 unless E2E_PORT says otherwise. The directory
// is removed when the server stops, so every run starts from an empty install.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-e2e-'));
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: process.env.E2E_PORT ?? '3100',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});

const cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  cleanup();
  process.exit(code ?? (signal ? 0 : 1));
});
