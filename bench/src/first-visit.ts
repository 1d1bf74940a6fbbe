/**
 * First visit on a slow phone connection (issue 23): what /login and the signing pages send and
 * how long they take to show their content, in Chromium throttled through CDP to a slow 4G
 * profile (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency) with its cache disabled.
 *
 * A real Pakt server runs from the build (apps/server/dist/main.mjs, serving apps/web/dist) as
 * its own process on a fresh DATA_DIR (embedded PostgreSQL) with the demo tenant. Its custodian
 * uploads a PDF (FIRST_VISIT_PDF, by default a one-page corpus file) and starts two ePaks: one
 * signed by an outsider, who opens it through a signing link (/emailsign?token=…, a fresh link
 * per visit), and one the custodian signs themselves (/sign?ePakId=…, a member who is signed in:
 * the session comes back from the refresh cookie, as when they open the mail's link).
 *
 * Each visit is a new browser context (a phone's screen, its cache disabled), so everything is
 * fetched: bytes are CDP's encodedDataLength of each finished request (headers included), by type
 * (JS: scripts and the pdf.js worker; CSS; other: the page, the API, the PDF, fonts), counted
 * until the network has been quiet for a second after the content showed. Time to content is
 * measured in the page from the start of navigation: the login form's password field shown; the
 * first page of the document first seen (the server's picture, data-picture="shown", or pdf.js's
 * drawing, whichever comes first) and drawn by pdf.js (data-rendered="true"); the JS that had
 * arrived when it was first seen is counted apart (by each request's finish on CDP's clock, from
 * the page's own request). Dedicated workers (pdf.js's)
 * are attached too, so their requests are throttled and counted like the page's.
 *
 * Variants, interleaved run by run: the build as served (brotli where accepted); the same build
 * with Accept-Encoding: identity (split, not compressed); and, when FIRST_VISIT_BASELINE_DIST
 * names the dist folder of an earlier build, that build on a second server (for issue 23:
 * main before it, one bundle, no compressed copies).
 *
 *   npm run build                                   # the web app and the server
 *   npm run bench:first-visit -w @pakt/bench
 *   FIRST_VISIT_RUNS=5 FIRST_VISIT_PDF=/path/to.pdf FIRST_VISIT_BASELINE_DIST=/path/to/old/dist
 *   FIRST_VISIT_PAGES=login,emailsign,sign FIRST_VISIT_IDENTITY=0 CHROMIUM=/usr/bin/chromium
 *
 * Prints the figures for docs/benchmarks.md. Tests never assert timings.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buildPath, createEpak, createSignatureBlocks, getEpakManagement, listWorkflowStates, newTag, showSigningLink, startEpak, uploadDocument } from '@pakt/domain';
import { type Browser, type BrowserContext, type CDPSession, chromium, devices } from '@playwright/test';
import { freePort } from '../../apps/server/src/platform/db/embedded-postgres';
import { REPO_ROOT } from '../../apps/server/src/paths';
import en from '../../apps/web/src/i18n/en.json';
import { type Answer, call, serverBundle } from './demo-server';
import { loadavg } from './server-process';

const RUNS = Number(process.env.FIRST_VISIT_RUNS ?? 5);
const PDF = process.env.FIRST_VISIT_PDF ?? path.join(REPO_ROOT, '../shared/corpus/pdfs/plain-1p-pdftex.pdf');
const BASELINE_DIST = process.env.FIRST_VISIT_BASELINE_DIST;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');

/** Chrome DevTools' "Slow 4G"-like profile of the issue: bytes per second, milliseconds. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };
/** How long after the content the network must stay quiet before the visit's bytes are summed. */
const QUIET_MS = 1_000;
const VISIT_TIMEOUT_MS = 90_000;
/** A phone: its screen, pixel ratio, touch and user agent. */
const PHONE = devices['Pixel 7'];

type PageKind = 'login' | 'emailsign' | 'sign';
const PAGES = (process.env.FIRST_VISIT_PAGES ?? 'login,emailsign,sign').split(',') as PageKind[];
/** FIRST_VISIT_IDENTITY=0 leaves out the uncompressed variant of the build. */
const IDENTITY = process.env.FIRST_VISIT_IDENTITY !== '0';

/**
 * What each page shows as its content, as the in-page probe looks for it: `first`, the content
 * first seen (the signing pages: the first page, as the server's picture or drawn by pdf.js,
 * whichever comes first); `drawn`, the signing pages' first page drawn by pdf.js.
 */
const CONTENT: Record<PageKind, { readonly first: string; readonly drawn: string }> = {
  login: { first: 'form input[type="password"]', drawn: 'form input[type="password"]' },
  emailsign: { first: '[data-testid="tag-editor-page"]:is([data-rendered="true"], [data-picture="shown"])', drawn: '[data-testid="tag-editor-page"][data-rendered="true"]' },
  sign: { first: '[data-testid="tag-editor-page"]:is([data-rendered="true"], [data-picture="shown"])', drawn: '[data-testid="tag-editor-page"][data-rendered="true"]' },
};

interface Server {
  readonly label: string;
  /** The web build this server serves. */
  readonly webDist: string;
  readonly base: string;
  readonly child: ChildProcessByStdio<null, Readable, null>;
  readonly work: string;
  readonly custodian: { readonly email: string; readonly password: string };
  readonly headers: Record<string, string>;
  readonly tenantUuid: string;
  /** The ePak the outsider signs through a link, and their place in it. */
  readonly linked: { readonly ePakId: string; readonly recipientId: string };
  /** The ePak the custodian signs as a member. */
  readonly own: { readonly ePakId: string };
}

interface Visit {
  /** When the first page was drawn by pdf.js (the login page: its form shown), ms after navigation began. */
  readonly ms: number;
  /** When the content was first seen (the signing pages: the server's picture or pdf.js, whichever came first). */
  readonly firstMs: number;
  readonly requests: number;
  /** Bytes on the wire (headers included), by type. */
  readonly js: number;
  /** The JS responses' bodies alone: what the 250 KB target counts. */
  readonly jsBody: number;
  /** Those that had arrived when the content was first seen. */
  readonly jsBeforeFirst: number;
  readonly css: number;
  readonly other: number;
  /** Bytes of the pdf.js worker's script (counted in `js` too). */
  readonly worker: number;
  /** Bodies of pdf.js: its library chunk and its worker (counted in `jsBody` too). */
  readonly pdfJs: number;
  readonly jsFiles: readonly { url: string; bytes: number }[];
  readonly encodings: string;
}

function ok(answer: Answer, what: string): Record<string, unknown> {
  if (answer.code !== 1) throw new Error(`${what}: ${answer.code} ${answer.message ?? ''}`);
  return answer.data;
}

/** The custodian's API headers: a fresh access token and their tenant. */
async function custodianHeaders(base: string, custodian: { readonly email: string; readonly password: string }): Promise<Record<string, string>> {
  const grant = ok(await call('POST', `${base}/msbapi/v1/authenticate`, new URLSearchParams({ username: custodian.email, password: custodian.password }).toString()), 'sign-in');
  const user = grant['user'] as { tenants: { tenantUuid: string }[] };
  return { authorization: `Bearer ${String(grant['accessToken'])}`, 'x-tenant-id': user.tenants[0]!.tenantUuid };
}

/** The server from the build, on its own DATA_DIR with the demo tenant; rate limits off (all visits come from 127.0.0.1). */
async function startServer(label: string, webDist: string): Promise<Omit<Server, 'linked' | 'own'>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-first-visit-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle(), '--demo'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: path.join(work, 'data'), WEB_DIST_DIR: webDist, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn', RATE_LIMIT_SIGN_IN_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const custodian = await new Promise<{ email: string; password: string }>((resolve, reject) => {
      child.on('exit', () => reject(new Error(`server exited:\n${out}`)));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /^\s+custodian\s+(\S+)\s+(\S+)$/m.exec(out);
        if (match) resolve({ email: match[1]!, password: match[2]! });
      });
    });
    const headers = await custodianHeaders(base, custodian);
    return { label, webDist, base, child, work, custodian, tenantUuid: headers['x-tenant-id']!, headers };
  } catch (error) {
    child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/** Uploads the PDF and starts an ePak with one signing step for `signer`, a signature field on page 1. */
async function startedEpak(server: Omit<Server, 'linked' | 'own'>, signer: string, subject: string): Promise<string> {
  const { base, headers } = server;
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(PDF)], { type: 'application/pdf' }), path.basename(PDF));
  const uploaded = (await (await fetch(`${base}${uploadDocument.path}`, { method: 'POST', headers, body: form })).json()) as Answer;
  const document = ok(uploaded, 'upload');
  const states = ok(await call('GET', `${base}${listWorkflowStates.path}`, undefined, headers), 'workflow states')['states'] as { workflowStateId: string; type: string }[];
  const sign = states.find((state) => state.type === 'SIGN')!.workflowStateId;
  const epak = ok(
    await call(createEpak.method, `${base}${createEpak.path}`, { subject, documentIds: [String(document['documentId'])], signingPolicy: 'QUICKSIGN', steps: [{ workflowStateId: sign, recipients: [{ email: signer }] }] }, headers),
    'compose',
  );
  const ePakId = String(epak['ePakId']);
  const documentId = String((epak['documents'] as { documentId: string }[])[0]!.documentId);
  const rotate = (document['pages'] as { rotate: 0 | 90 | 180 | 270 }[])[0]!.rotate;
  const tag = newTag({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 60, userEmail: signer, wfsOrderId: 1 }, { rotate });
  ok(await call(createSignatureBlocks.method, `${base}${buildPath(createSignatureBlocks.path, { ePakId, documentId })}`, { tags: [tag] }, headers), 'signature field');
  ok(await call(startEpak.method, `${base}${buildPath(startEpak.path, { ePakId })}`, {}, headers), 'start');
  return ePakId;
}

async function prepare(label: string, webDist: string): Promise<Server> {
  const server = await startServer(label, webDist);
  try {
    const linkedId = await startedEpak(server, 'outsider@example.net', 'First visit: an outsider signs');
    const management = ok(await call('GET', `${server.base}${buildPath(getEpakManagement.path, { ePakId: linkedId })}`, undefined, server.headers), 'management');
    const recipientId = (management['recipients'] as { recipientId: string; receivesSigningLink: boolean }[]).find((r) => r.receivesSigningLink)!.recipientId;
    const ownId = await startedEpak(server, server.custodian.email, 'First visit: a member signs');
    return { ...server, linked: { ePakId: linkedId, recipientId }, own: { ePakId: ownId } };
  } catch (error) {
    await stop(server);
    throw error;
  }
}

async function stop(server: Pick<Server, 'child' | 'work'>): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(server.work, { recursive: true, force: true });
}

/** The address a visit opens: a fresh signing link for the outsider (one link, one visit). */
async function addressOf(server: Server, kind: PageKind): Promise<string> {
  if (kind === 'login') return '/login';
  if (kind === 'sign') return `/sign?ePakId=${server.own.ePakId}&tenant=${server.tenantUuid}`;
  // Signed in afresh: a run outlasts the custodian's access token.
  const headers = await custodianHeaders(server.base, server.custodian);
  const shown = ok(await call(showSigningLink.method, `${server.base}${buildPath(showSigningLink.path, server.linked)}`, undefined, headers), 'signing link');
  const link = new URL(String(shown['link']));
  return `${link.pathname}${link.search}`;
}

/** Signs the custodian in through the login form, unthrottled: the context keeps the refresh cookie and the remembered user. */
async function signIn(context: BrowserContext, server: Server): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${server.base}/login`);
  await page.getByLabel(en.common.email).fill(server.custodian.email);
  await page.getByLabel(en.common.password, { exact: false }).first().fill(server.custodian.password);
  await page.getByRole('button', { name: en.login.submit }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: VISIT_TIMEOUT_MS });
  await page.close();
}

/** CDPSession with the protocol's names as plain strings: events of attached workers come by name, not by type. */
interface LooseSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: Record<string, unknown>) => void): unknown;
}

/**
 * Records every request of the page and of its dedicated workers (pdf.js's), which Chromium
 * reports on the worker's own target: reached through the page's session
 * (Target.sendMessageToTarget), each waits, paused at its start, until its network is watched.
 *
 * A worker's own script is fetched by the browser for the page and throttled with it (its bytes
 * arrive at the emulated pace), but the worker's target reports only the decoded bytes and the
 * headers (encodedDataLength 0 while it loads). Its body's size on the wire is therefore read
 * from the served build: the .br file when brotli was accepted and exists, else the file.
 */
class NetworkLog {
  readonly types = new Map<string, { kind: 'js' | 'css' | 'other'; url: string }>();
  /** Per request: bytes on the wire (headers and body), of the body alone, and when it finished (ms after the first request began). */
  readonly bytes = new Map<string, { wire: number; body: number; finishedAt: number }>();
  /** CDP's monotonic clock (seconds) when the first request (the page's) began: time 0, as the page's own performance.now(). */
  private startedAt: number | null = null;
  readonly headerBytes = new Map<string, number>();
  readonly pending = new Set<string>();
  /** Content-Encoding of the answers, to see that the variant got what it asked for. */
  readonly encodings = new Set<string>();
  /** The script of each dedicated worker started. */
  readonly workerScripts: string[] = [];
  requests = 0;
  lastActivity = Date.now();

  private next = 1;
  private readonly session: LooseSession;

  constructor(
    session: CDPSession,
    private readonly identity: boolean,
  ) {
    this.session = session as unknown as LooseSession;
  }

  async start(): Promise<void> {
    this.session.on('Target.attachedToTarget', (event) => {
      const target = event['targetInfo'] as { type: string; url: string };
      if (target.type === 'worker') this.workerScripts.push(target.url);
      void this.onAttached(String(event['sessionId']), target.type);
    });
    this.session.on('Target.receivedMessageFromTarget', (event) => {
      const message = JSON.parse(String(event['message'])) as { method?: string; params?: Record<string, unknown> };
      if (message.method) this.onEvent(`${String(event['sessionId'])}:`, message.method, message.params ?? {});
    });
    for (const method of ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.loadingFinished', 'Network.loadingFailed', 'Network.dataReceived']) {
      this.session.on(method, (params) => this.onEvent('', method, params));
    }
    for (const [method, params] of this.settings()) await this.session.send(method, params);
    await this.session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  }

  private settings(): [string, Record<string, unknown>][] {
    return [
      ['Network.enable', {}],
      ['Network.setCacheDisabled', { cacheDisabled: true }],
      ['Network.emulateNetworkConditions', SLOW_4G],
      ...(this.identity ? [['Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } }] as [string, Record<string, unknown>]] : []),
    ];
  }

  private async onAttached(sessionId: string, type: string): Promise<void> {
    const send = (method: string, params: Record<string, unknown> = {}) =>
      this.session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: this.next++, method, params }) });
    try {
      // A worker answers "Not supported" to emulateNetworkConditions: its fetches go through the page's throttled network.
      if (type === 'worker') for (const [method, params] of this.settings()) await send(method, params);
      await send('Runtime.runIfWaitingForDebugger');
    } catch {
      // The worker ended meanwhile.
    }
  }

  private onEvent(prefix: string, method: string, params: Record<string, unknown>): void {
    const id = `${prefix}${String(params['requestId'])}`;
    this.lastActivity = Date.now();
    if (method === 'Network.requestWillBeSent') {
      this.startedAt ??= Number(params['timestamp']);
      // A redirect reuses the id: one request, counted once.
      if (!this.pending.has(id)) this.requests += 1;
      this.pending.add(id);
    } else if (method === 'Network.responseReceived') {
      const response = params['response'] as { url: string; mimeType: string; headers: Record<string, string>; encodedDataLength: number };
      const encoding = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
      this.encodings.add(encoding ?? 'identity');
      const type = String(params['type']);
      const kind = type === 'Script' || /javascript/.test(response.mimeType) ? 'js' : type === 'Stylesheet' || response.mimeType === 'text/css' ? 'css' : 'other';
      this.types.set(id, { kind, url: response.url });
      this.headerBytes.set(id, response.encodedDataLength);
    } else if (method === 'Network.loadingFinished') {
      const wire = Number(params['encodedDataLength']);
      const finishedAt = (Number(params['timestamp']) - (this.startedAt ?? Number(params['timestamp']))) * 1000;
      this.bytes.set(id, { wire, body: wire - (this.headerBytes.get(id) ?? 0), finishedAt });
      this.pending.delete(id);
    } else if (method === 'Network.loadingFailed') {
      this.pending.delete(id);
    }
  }
}

interface Totals {
  js: number;
  jsBody: number;
  /** JS bodies that had arrived when the content was first seen. */
  jsBeforeFirst: number;
  css: number;
  other: number;
  worker: number;
}

async function visit(browser: Browser, server: Server, kind: PageKind, identity: boolean): Promise<Visit> {
  const context = await browser.newContext({ ...PHONE });
  try {
    if (kind === 'sign') await signIn(context, server);
    const address = await addressOf(server, kind);
    const page = await context.newPage();
    // In the page from the start: the moments (ms since navigation began) the content is first
    // seen and drawn. A string, since this project has no DOM types.
    await page.addInitScript({
      content: `(() => {
        const shown = (selector) => {
          const box = document.querySelector(selector)?.getBoundingClientRect();
          return Boolean(box && box.width > 0 && box.height > 0);
        };
        const probe = () => {
          if (window.__firstAt === undefined && shown(${JSON.stringify(CONTENT[kind].first)})) window.__firstAt = performance.now();
          if (window.__contentAt === undefined && shown(${JSON.stringify(CONTENT[kind].drawn)})) window.__contentAt = performance.now();
          if (window.__contentAt === undefined) requestAnimationFrame(probe);
        };
        requestAnimationFrame(probe);
      })();`,
    });
    const log = new NetworkLog(await context.newCDPSession(page), identity);
    await log.start();
    await page.goto(`${server.base}${address}`, { waitUntil: 'commit', timeout: VISIT_TIMEOUT_MS });
    // Functions, not strings: the page's CSP forbids eval (the init script above is not eval'd).
    const probed = () => (globalThis as { __contentAt?: number }).__contentAt;
    await page.waitForFunction(() => (globalThis as { __contentAt?: number }).__contentAt !== undefined, undefined, { timeout: VISIT_TIMEOUT_MS, polling: 100 });
    const ms = Number(await page.evaluate(probed));
    const firstMs = Number(await page.evaluate(() => (globalThis as { __firstAt?: number }).__firstAt));
    const deadline = Date.now() + 30_000;
    while ((log.pending.size > 0 || Date.now() - log.lastActivity < QUIET_MS) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const totals: Totals = { js: 0, jsBody: 0, jsBeforeFirst: 0, css: 0, other: 0, worker: 0 };
    const jsFiles: { url: string; bytes: number }[] = [];
    // A worker's script counts before the first look only if its request had finished by then.
    let workerBeforeFirst = false;
    for (const [id, { wire, body, finishedAt }] of log.bytes) {
      const type = log.types.get(id);
      if (!type) {
        // A worker's own script: only its headers are reported (see NetworkLog); its body is added below.
        totals.js += wire;
        totals.worker += wire;
        if (finishedAt <= firstMs) workerBeforeFirst = true;
        continue;
      }
      totals[type.kind] += wire;
      if (type.kind === 'js') {
        totals.jsBody += body;
        if (finishedAt <= firstMs) totals.jsBeforeFirst += body;
        jsFiles.push({ url: new URL(type.url).pathname, bytes: body });
      }
    }
    for (const script of log.workerScripts) {
      const file = path.join(server.webDist, new URL(script).pathname);
      const body = !identity && fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : fs.statSync(file).size;
      totals.js += body;
      totals.jsBody += body;
      totals.worker += body;
      if (workerBeforeFirst) totals.jsBeforeFirst += body;
      jsFiles.push({ url: `${new URL(script).pathname} (worker)`, bytes: body });
    }
    const pdfJs = jsFiles.filter((file) => /\/pdfjs-[^/]*\.js$|pdf\.worker/.test(file.url)).reduce((sum, file) => sum + file.bytes, 0);
    return { ms, firstMs, requests: log.requests + log.workerScripts.length, ...totals, pdfJs, jsFiles, encodings: [...log.encodings].sort().join('+') };
  } finally {
    await context.close();
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('No web build: run "npm run build" first.');
  if (!fs.existsSync(PDF)) throw new Error(`No PDF at ${PDF}: set FIRST_VISIT_PDF.`);
  const loadBefore = loadavg();
  console.log(`first-visit bench: ${os.cpus().length} cores, Node ${process.version}, ${RUNS} runs, ${path.basename(PDF)} (${kb(fs.statSync(PDF).size)}), load average ${loadBefore}`);

  const servers: Server[] = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    servers.push(await prepare('after', WEB_DIST));
    if (BASELINE_DIST) servers.push(await prepare('before', BASELINE_DIST));
    const variants = [
      ...(BASELINE_DIST ? [{ label: 'before (baseline build)', server: servers[1]!, identity: false }] : []),
      ...(IDENTITY ? [{ label: 'after, Accept-Encoding: identity', server: servers[0]!, identity: true }] : []),
      { label: 'after (brotli)', server: servers[0]!, identity: false },
    ];
    const results = new Map<string, Visit[]>();
    // Interleaved: every variant of every page once per run, so the machine's load falls on all alike.
    for (let run = 0; run < RUNS; run++) {
      for (const kind of PAGES) {
        for (const variant of variants) {
          const result = await visit(browser, variant.server, kind, variant.identity);
          const key = `${kind}|${variant.label}`;
          results.set(key, [...(results.get(key) ?? []), result]);
          console.log(`  run ${run + 1} ${kind} ${variant.label}: first seen ${seconds(result.firstMs)}, drawn ${seconds(result.ms)}, ${result.requests} requests, JS ${kb(result.js)} (bodies ${kb(result.jsBody)}, ${kb(result.jsBeforeFirst)} before the first look, worker ${kb(result.worker)}), CSS ${kb(result.css)}, other ${kb(result.other)}, encodings ${result.encodings} (load ${loadavg()})`);
        }
      }
    }
    const loadAfter = loadavg();

    console.log(`\nLoad average ${loadBefore} at the start, ${loadAfter} at the end (1, 5, 15 min).\n`);
    console.log('| page | variant | first seen (median, min–max) | drawn by pdf.js (median, min–max) | requests | JS on the wire | JS bodies | JS bodies before the first look | of which pdf.js (library + worker) | CSS | other | total |');
    console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const kind of PAGES) {
      for (const variant of variants) {
        const visits = results.get(`${kind}|${variant.label}`)!;
        const m = (pick: (v: Visit) => number) => median(visits.map(pick));
        const times = visits.map((v) => v.ms);
        const firsts = visits.map((v) => v.firstMs);
        console.log(
          `| ${kind} | ${variant.label} | ${seconds(m((v) => v.firstMs))} (${seconds(Math.min(...firsts))}–${seconds(Math.max(...firsts))}) | ${seconds(m((v) => v.ms))} (${seconds(Math.min(...times))}–${seconds(Math.max(...times))}) | ${m((v) => v.requests)} | ${kb(m((v) => v.js))} | ${kb(m((v) => v.jsBody))} | ${kb(m((v) => v.jsBeforeFirst))} | ${kb(m((v) => v.pdfJs))} | ${kb(m((v) => v.css))} | ${kb(m((v) => v.other))} | ${kb(m((v) => v.js + v.css + v.other))} |`,
        );
      }
    }
    // The scripts of the last run, for whoever wants to see what a page loads.
    for (const kind of PAGES) {
      const last = results.get(`${kind}|after (brotli)`)!.at(-1)!;
      console.log(`\n${kind}, after (brotli), JS files of the last run:`);
      for (const file of [...last.jsFiles].sort((a, b) => b.bytes - a.bytes)) console.log(`  ${kb(file.bytes).padStart(7)}  ${file.url}`);
    }
  } finally {
    await browser.close();
    for (const server of servers) await stop(server);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
