/**
 * What the benches that drive one real server process share: the server started on its own data
 * directory with the demo tenant, signed in as the demo custodian, and its memory read from /proc.
 */
import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from '../../apps/server/src/paths';

export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Resets the peak so VmHWM measures from now (Linux: writing 5 to clear_refs). */
export function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export type Answer = { code: number; data: Record<string, unknown>; message?: string };

/** One API call: a string body is a form, anything else JSON. */
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return (await response.json()) as Answer;
}

export interface DemoServer {
  readonly server: ChildProcessByStdio<null, Readable, null>;
  readonly base: string;
  /** The demo custodian's headers: access token and tenant. */
  readonly headers: Record<string, string>;
}

/**
 * Starts the server in `work/data` with the demo tenant (`--demo`) and signs in as its custodian,
 * whose password the server prints once. The caller kills `server` when done.
 */
let built = false;

/**
 * The server bundle `npm start` runs (apps/server/dist/main.mjs), built from the source at hand once
 * per bench process: a bench measures what an install runs, not tsx compiling TypeScript (whose
 * esbuild service would also count in the server's memory).
 */
export function serverBundle(): string {
  if (!built) {
    const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('building the server bundle failed');
    built = true;
  }
  return path.join(REPO_ROOT, 'apps/server/dist/main.mjs');
}

export async function startDemoServer(options: { work: string; port: number; env?: Record<string, string> }): Promise<DemoServer> {
  // Rate limits off (0): a benchmark measures the server, and all its load comes from one address.
  const server = spawn(process.execPath, ['--enable-source-maps', serverBundle(), '--demo'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: path.join(options.work, 'data'), HOST: '127.0.0.1', PORT: String(options.port), LOG_LEVEL: 'warn', RATE_LIMIT_SIGN_IN_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const custodian = await new Promise<{ email: string; password: string }>((resolve, reject) => {
      server.on('exit', () => reject(new Error(`server exited:\n${out}`)));
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /^\s+custodian\s+(\S+)\s+(\S+)$/m.exec(out);
        if (match) resolve({ email: match[1]!, password: match[2]! });
      });
    });
    const base = `http://127.0.0.1:${options.port}`;
    const grant = await call('POST', `${base}/msbapi/v1/authenticate`, new URLSearchParams({ username: custodian.email, password: custodian.password }).toString());
    if (grant.code !== 1) throw new Error(`sign-in failed: ${grant.message}`);
    const user = grant.data['user'] as { tenants: { tenantUuid: string }[] };
    return { server, base, headers: { authorization: `Bearer ${String(grant.data['accessToken'])}`, 'x-tenant-id': user.tenants[0]!.tenantUuid } };
  } catch (error) {
    server.kill('SIGTERM');
    throw error;
  }
}

/** A multipart body of text fields, then one file streamed from disk: nothing of the file is held here. */
export function streamUpload(url: string, headers: Record<string, string>, fields: Record<string, string>, file: string, fileName: string, type: string): Promise<{ status: number; body: string }> {
  const boundary = '----pakt-bench';
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.write(head);
    const stream = fs.createReadStream(file);
    stream.on('error', reject);
    stream.on('end', () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}
