#!/usr/bin/env node
// Starts the real Pakt server for the browser tests: a fresh temporary data directory (embedded
// database and files), the built web app, port 3100 unless E2E_PORT says otherwise. The directory
// is removed when the server stops, so every run starts from an empty install. The journeys'
// fixture (e2e/tests/fixtures.ts) starts one per Playwright worker, each on a port of its own, and
// hands it the directory to use (E2E_DATA_DIR, an empty folder) so it can remove it whatever happens.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-e2e-'));
// The first-run journey needs the setup token the server would print: make one and hand it to
// the tests through a file, fresh for every run.
const setupToken = `pks_${randomBytes(32).toString('base64url')}`;
const port = process.env.E2E_PORT ?? '3100';
const tokenFile = path.join(root, `e2e/.tmp/setup-token-${port}`);
fs.mkdirSync(path.dirname(tokenFile), { recursive: true });
fs.writeFileSync(tokenFile, setupToken);
// User sync-up reads feeds from files on the server: the journey drops its feed in this folder,
// which it finds by the same rule (e2e/tests/user-sync.spec.ts), unless both are given one.
const userSyncDir = process.env.USER_SYNC_DIR ?? path.join(root, `e2e/.tmp/user-sync-${port}`);
fs.mkdirSync(userSyncDir, { recursive: true });
// The server bundle (`npm run build` makes it with the web app), as `npm start` runs it.
const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: port,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SETUP_TOKEN: setupToken,
    USER_SYNC_DIR: userSyncDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // The journeys sign up on an install without a mail server, where sign-up is otherwise off.
    FEATURE_SIGNUP: process.env.FEATURE_SIGNUP ?? 'true',
    // The journeys sign in far more than 20 times a minute, all from 127.0.0.1.
    RATE_LIMIT_SIGN_IN_PER_MINUTE: process.env.RATE_LIMIT_SIGN_IN_PER_MINUTE ?? '100000',
    RATE_LIMIT_PUBLIC_PER_MINUTE: process.env.RATE_LIMIT_PUBLIC_PER_MINUTE ?? '100000',
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
