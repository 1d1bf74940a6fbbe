/**
 * Every journey imports `test` and `expect` from here, not from '@playwright/test'.
 *
 * Each Playwright worker starts a Pakt server of its own (scripts/e2e-server.mjs) on its own port,
 * E2E_PORT (3100 unless set) plus the worker's parallelIndex, with a fresh data directory, and
 * stops it, directory and all, when the worker ends. Journeys running side by side therefore share
 * nothing that lives in a server: the instance-wide announcement, the first-run setup, root's
 * outbox, the setup token. `baseURL` points at the worker's server, so `page`, `request` and
 * `browser.newContext()` all talk to it; `e2eServer()` answers the rest (its port, the setup-token
 * file, the user sync-up folder) for helpers that are handed no fixture.
 *
 * A worker's server lives as long as the worker: files that run one after another in it share it,
 * as all files shared one server before. Playwright replaces a worker after a failed test and when
 * it switches project, so a server may be fresher than a journey expects, never older: journeys
 * arrange what they need (ensureRoot) rather than count on another file having run.
 */
import { publicAlive } from '@pakt/domain';
import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export { expect };

export interface E2EServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT`, the journeys' baseURL. */
  readonly url: string;
  /** Where scripts/e2e-server.mjs leaves the server's random first-run SETUP_TOKEN. */
  readonly setupTokenFile: string;
  /** The folder the server reads user sync-up feeds from (user-sync.spec.ts drops its feed there). */
  readonly userSyncDir: string;
  /**
   * The mail this server delivered over SMTP, as received by a real SMTP peer on loopback; null
   * unless the spec asked for one (`test.use({ mailServer: true })`). Other servers keep their
   * mail in the outbox, as an install without SMTP_URL does.
   */
  readonly mails: readonly ReceivedMail[] | null;
}

/** One message as the test SMTP server received it: the envelope's recipients and the raw message. */
export interface ReceivedMail {
  readonly to: readonly string[];
  readonly raw: string;
}

/** A real SMTP server on a free loopback port, keeping what it receives. */
async function startMailServer(): Promise<{ url: string; mails: ReceivedMail[]; close: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Completed ePaks carry their documents: room for a few of them.
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('latin1') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const BASE_PORT = Number(process.env.E2E_PORT ?? '3100');
/** Time for a server to start: migrations on a fresh database, on a loaded machine. */
const START_TIMEOUT_MS = 150_000;
/** Time for it to stop once asked (SIGTERM) before it is killed outright. */
const STOP_TIMEOUT_MS = 30_000;

let current: E2EServer | undefined;

/** The server of this worker (each worker process has exactly one). */
export function e2eServer(): E2EServer {
  if (!current) throw new Error('no e2e server in this worker: import test from ./fixtures, not from @playwright/test');
  return current;
}

async function answersAlive(url: string): Promise<boolean> {
  try {
    // Node's own fetch, not call(): it probes a port before the worker has a server or a request context.
    const response = await fetch(`${url}${publicAlive.path}`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

async function startServer(port: number, options: { mailServer: boolean }): Promise<{ server: E2EServer; stop: () => Promise<void> }> {
  const url = `http://127.0.0.1:${port}`;
  // A server left over from another run would answer for ours: refuse rather than test against it.
  if (await answersAlive(url)) throw new Error(`something already answers on ${url}: set E2E_PORT to a free range`);

  // The data directory is made here, so it is removed even if the server has to be killed.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pakt-e2e-${port}-`));
  const userSyncDir = process.env.USER_SYNC_DIR ? path.join(process.env.USER_SYNC_DIR, String(port)) : path.join(repoRoot, `e2e/.tmp/user-sync-${port}`);
  const mail = options.mailServer ? await startMailServer() : null;
  const server: E2EServer = { port, url, setupTokenFile: path.join(repoRoot, `e2e/.tmp/setup-token-${port}`), userSyncDir, mails: mail?.mails ?? null };
  // Its own process group: the server and whatever it starts (an embedded database) can be
  // stopped together if asking politely is not enough.
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/e2e-server.mjs')], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir, USER_SYNC_DIR: userSyncDir, ...(mail ? { SMTP_URL: mail.url } : {}) },
  });
  // The server's own output (warnings and errors at LOG_LEVEL=warn), marked with its port.
  const tail: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        process.stderr.write(`[e2e-server :${port}] ${line}\n`);
      }
    });
  }
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone already.
    }
  };
  // Should this worker die without tearing down, its server goes with it.
  process.once('exit', killGroup);

  const stop = async () => {
    current = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(killGroup, STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    }
    process.removeListener('exit', killGroup);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await mail?.close();
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answersAlive(url))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the e2e server on ${url} did not start (${child.exitCode ?? child.signalCode ?? 'timed out'}):\n${tail.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { server, stop };
}

export const test = base.extend<object, { freshServer: boolean; mailServer: boolean; server: E2EServer }>({
  /**
   * A spec that must see a server no other file has used (the first-run setup form) says
   * `test.use({ freshServer: true })`: a different worker option, so Playwright gives its tests a
   * worker, and so a server, of their own.
   */
  freshServer: [false, { scope: 'worker', option: true }],
  /** A spec that reads delivered mail says `test.use({ mailServer: true })`: a worker whose server sends over SMTP. */
  mailServer: [false, { scope: 'worker', option: true }],
  server: [
    async ({ freshServer, mailServer }, use, workerInfo) => {
      // Read only to make it this fixture's dependency: the option's value is what separates workers.
      void freshServer;
      const port = BASE_PORT + workerInfo.parallelIndex;
      const { server, stop } = await startServer(port, { mailServer });
      current = server;
      try {
        await use(server);
      } finally {
        await stop();
      }
    },
    { scope: 'worker', auto: true, timeout: START_TIMEOUT_MS + STOP_TIMEOUT_MS + 30_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});
