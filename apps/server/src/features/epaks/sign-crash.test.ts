import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTag, type Tag } from '@pakt/domain';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import { run } from '../../test/signing-support';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { multipart } from '../../test/multipart';
import { countStoredFiles, CrashEnvironment, type EpakObservation, observeEpak, qpdfRank, seededRandom, type ServerProcess } from '../../test/sign-crash-support';
import { CORPUS } from '../../test/corpus';

/**
 * Issue 5, "done when": the real server process (the entry `npm start` runs) is killed with
 * SIGKILL at random points of a sign, 30 times, and started again on the same data. Each time the
 * ePak is found either before the signer's step or after it, never in between: the recipient is
 * Signed iff their revision is recorded, the stored engine state is the engine's own account of
 * the revisions, the activity has one documentSigned per revision and its chain verifies, the
 * mail the engine called for is queued once, and the PDF served is the composed file plus every
 * recorded revision (its SHA-256 the last revision's), every signature valid in pdfsig and qpdf
 * no unhappier than with the source. The signer then signs again: the retry succeeds, a second
 * retry answers the same, and the signer has exactly one revision.
 *
 * Every ePak has steps [SIGN: a, b], [SIGN: c]: a's signature leaves the step open, b's moves
 * the ePak to step 2 (and mails c), c's completes it (and mails the owner); the five files vary
 * (plain, an incremental update already, pages turned a quarter, an earlier PAdES signature,
 * encrypted without a user password). A sign's latency is measured per file and signer first, on a warm server
 * (one ePak per file signed through without a kill). A sign in a server just started again is
 * slower, so the commit's place is followed as a multiple of that latency by a staircase over
 * the kills aimed at it (CommitStaircase); 40% of the delays are drawn close around it, the
 * rest from 0 to 1.25× it. The output lists every kill: when it came, and which side of the commit.
 *
 * Runs on the suites' PostgreSQL, in a database of its own dropped afterwards; the server is
 * killed, not its database (durability.test.ts kills both). SIGN_CRASH_SEED=<n> repeats the
 * random draws.
 */

const FILES = ['plain-1p-pdftex.pdf', 'incremental-pdf20.pdf', 'rotate-0-90-180-270-arabic.pdf', 'signed-pades-b.pdf', 'enc-no-userpw-aes256.pdf'];
const SIGNERS = ['a', 'b', 'c'] as const;
/** ePaks killed once per signer: 10 × 3 = 30 kills. */
const KILLED_EPAKS = 10;
const SEED = Number(process.env.SIGN_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

type Headers = Record<string, string>;
type Signer = (typeof SIGNERS)[number];

interface Reply {
  status: number;
  json: { code?: number; data?: unknown } & Record<string, unknown>;
  bytes: Buffer;
}

let base = '';
async function call(method: string, url: string, headers: Headers, body?: unknown): Promise<Reply> {
  const raw = body instanceof Buffer;
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: raw ? new Uint8Array(body) : JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: Reply['json'] = {};
  if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(bytes.toString('utf8')) as Reply['json'];
  return { status: res.status, json, bytes };
}

async function ok(method: string, url: string, headers: Headers, body?: unknown): Promise<Record<string, unknown>> {
  const reply = await call(method, url, headers, body);
  if (reply.status !== 200) throw new Error(`${method} ${url}: ${reply.status} ${reply.bytes.toString('utf8').slice(0, 500)}`);
  return reply.json.data as Record<string, unknown>;
}

function drawnSignature(): string {
  const png = new PNG({ width: 60, height: 20 });
  for (let x = 5; x < 55; x++) {
    const at = ((10 + Math.round(4 * Math.sin(x / 5))) * 60 + x) * 4;
    png.data[at + 2] = 120;
    png.data[at + 3] = 255;
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** pdfsig's and qpdf's verdict on a file. */
function judgePdf(bytes: Buffer): { signatures: number; valid: number; qpdf: number | null; pdfsig: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-sign-crash-pdf-'));
  try {
    const file = path.join(dir, 'current.pdf');
    fs.writeFileSync(file, bytes);
    const sig = run('pdfsig', [file]);
    return {
      signatures: (sig.stdout.match(/^Signature #\d+:/gm) ?? []).length,
      valid: (sig.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
      qpdf: run('qpdf', ['--check', file]).status,
      pdfsig: sig.stdout + sig.stderr,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface TrackedEpak {
  id: string;
  documentId: string;
  file: string;
  recipientOf: Record<Signer, string>;
  /** Recipients whose sign has been answered with success. */
  done: Set<string>;
}

interface RunRecord {
  run: number;
  file: string;
  signer: Signer;
  /** The calibrated latency of this file's sign by this signer (a warm server). */
  latencyMs: number;
  kind: 'uniform' | 'around-commit' | 'steered';
  delayMs: number;
  /** When SIGKILL was sent, from sending the request. */
  killedAtMs: number;
  /** killedAtMs / latencyMs. */
  ratio: number;
  /** The response arrived before the kill. */
  answered: boolean;
  outcome: 'before' | 'after';
  /** Before the commit, with new blobs already stored (the kill fell between storing and the transaction). */
  blobStored: boolean;
  /** From the kill to the restarted server listening (the database read meanwhile). */
  restartMs: number;
  runMs: number;
}

/**
 * Where the commit falls in a sign on a server just started again, as a multiple of the warm
 * latency calibrated (a process that has sealed once or not at all is slower than a warmed-up
 * one, and the machine's load varies): an up-down staircase. Each kill aimed at the commit moves
 * it up after landing before, down after landing after, so it settles where half land on either
 * side, and keeps following as the load changes.
 */
class CommitStaircase {
  ratio = 1.5;
  update(outcome: 'before' | 'after') {
    this.ratio *= outcome === 'before' ? 1.2 : 1 / 1.2;
  }
}

let env: CrashEnvironment | undefined;
let server: ServerProcess | undefined;
let failed = true;
const runs: RunRecord[] = [];

afterAll(async () => {
  const output = server?.output();
  await server?.kill();
  if (env) {
    if (failed) {
      console.error(`sign-crash: kept for inspection: ${env.location}`);
      console.error(`sign-crash: the kills so far:\n${runs.map((r) => JSON.stringify(r)).join('\n')}`);
      if (output) console.error(`sign-crash: the server's last output:\n${output.split('\n').slice(-40).join('\n')}`);
    }
    await env.dispose({ keepDataDir: failed });
  }
});

describe('signing when the server process is killed', () => {
  it('leaves each ePak before or after the signer\'s step, its PDF and state consistent (30 kills)', async () => {
    const startedAt = performance.now();
    const random = seededRandom(SEED);
    env = await CrashEnvironment.create();
    const environment = env;

    // One tenant: an owner and three signers, written before the first start.
    const people = await env.withDatabase(async (db) => {
      const tenant = await makeTenant(db);
      const member = async (role: 'custodian' | 'signer', name: string) =>
        (await makeMember(db, { role, tenant, user: { email: `${name}-${Date.now()}@crash.test`, firstName: name, lastName: 'Crash' } })).user;
      return { tenant, owner: await member('custodian', 'owner'), a: await member('signer', 'a'), b: await member('signer', 'b'), c: await member('signer', 'c') };
    });
    server = await env.startServer();
    base = server.url;
    const signInAs = async (email: string): Promise<Headers> => {
      const res = await fetch(`${base}/msbapi/v1/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
      });
      const grant = ((await res.json()) as { data: { accessToken: string } }).data;
      return { authorization: `Bearer ${grant.accessToken}`, 'x-tenant-id': people.tenant.id };
    };
    const owner = await signInAs(people.owner.email);
    const headersOf: Record<Signer, Headers> = { a: await signInAs(people.a.email), b: await signInAs(people.b.email), c: await signInAs(people.c.email) };
    const states = (await ok('GET', '/msbapi/v1/workflow/states', owner)).states as Array<{ type: string; workflowStateId: string }>;
    const signState = states.find((s) => s.type === 'SIGN')!.workflowStateId;

    const source = new Map(
      FILES.map((file) => {
        const judged = judgePdf(fs.readFileSync(path.join(CORPUS, file)));
        return [file, { signatures: judged.signatures, qpdf: judged.qpdf }];
      }),
    );

    const tagUuid = (epakIndex: number, n: number) => `00000000-0000-4000-8000-${String(epakIndex * 10 + n).padStart(12, '0')}`;
    const bodies = new Map<string, unknown>();
    const tracked: TrackedEpak[] = [];

    async function composeAndStart(file: string): Promise<TrackedEpak> {
      const index = tracked.length;
      const upload = multipart(fs.readFileSync(path.join(CORPUS, file)), file);
      const doc = await ok('POST', '/msbapi/v1/documents', { ...owner, ...upload.headers }, upload.payload);
      const epak = await ok('POST', '/msbapi/v2/epak', owner, {
        subject: `Crash ${index} ${file}`,
        documentIds: [doc.documentId],
        viewEnforced: true,
        steps: [
          { workflowStateId: signState, recipients: [{ email: people.a.email }, { email: people.b.email }] },
          { workflowStateId: signState, recipients: [{ email: people.c.email }] },
        ],
      });
      const document = (epak.documents as Array<{ documentId: string; pages: Array<{ rotate: 0 | 90 | 180 | 270 }> }>)[0]!;
      // Upright pages: a column per signer. Pages turned a quarter show every tag tall and narrow:
      // a column per tag.
      const rotate = document.pages[0]!.rotate;
      const turned = rotate === 90 || rotate === 270;
      const tag = (n: number, type: Tag['type'], column: number, row: number, email: string, extra: Partial<Tag> = {}) => {
        const at = turned ? { positionX: 20 + 60 * (n - 1), positionY: 20 } : { positionX: 20 + 180 * column, positionY: [20, 80, 110][row]! };
        return { ...newTag({ uuid: tagUuid(index, n), type, pageNumber: 1, ...at, userEmail: email }, { rotate }), ...extra } as Tag;
      };
      const tags = [
        tag(1, 'signature', 0, 0, people.a.email),
        tag(6, 'reason', 0, 1, people.a.email),
        tag(2, 'signature', 1, 0, people.b.email),
        tag(7, 'reason', 1, 1, people.b.email),
        tag(3, 'timeStamp', 1, 2, people.b.email),
        tag(4, 'signature', 2, 0, people.c.email),
        tag(8, 'reason', 2, 1, people.c.email),
        tag(5, 'text', 2, 2, people.c.email, { validations: { required: { value: true } } }),
      ];
      await ok('POST', `/msbapi/v2/epaks/${epak.ePakId}/documents/${document.documentId}/signatureblocks`, owner, { tags });
      await ok('POST', `/msbapi/v2/epaks/${epak.ePakId}/start`, owner);
      const steps = epak.steps as Array<{ recipients: Array<{ recipientId: string; email: string }> }>;
      const recipientByEmail = new Map(steps.flatMap((s) => s.recipients.map((r) => [r.email.toLowerCase(), r.recipientId])));
      const tracking: TrackedEpak = {
        id: epak.ePakId as string,
        documentId: document.documentId,
        file,
        recipientOf: { a: recipientByEmail.get(people.a.email)!, b: recipientByEmail.get(people.b.email)!, c: recipientByEmail.get(people.c.email)! },
        done: new Set(),
      };
      bodies.set(`${tracking.id}:a`, { values: [{ uuid: tagUuid(index, 1), value: drawnSignature() }], reason: 'Agreed' });
      bodies.set(`${tracking.id}:b`, { values: [{ uuid: tagUuid(index, 2), value: 'B. Crash' }], reason: 'Approved', location: 'Pune' });
      bodies.set(`${tracking.id}:c`, {
        values: [
          { uuid: tagUuid(index, 4), value: drawnSignature() },
          { uuid: tagUuid(index, 5), value: `Flat ${index}C` },
        ],
        reason: 'Witnessed',
      });
      tracked.push(tracking);
      return tracking;
    }

    const signUrl = (epak: TrackedEpak) => `/msbapi/v2/epaks/${epak.id}/documents/${epak.documentId}/sign`;
    const view = (epak: TrackedEpak, signer: Signer) => ok('PUT', `/msbapi/v2/epak/${epak.id}/document/${epak.documentId}/view`, headersOf[signer]);

    /** The PDF served now: its hash, and every signature valid (source's + one per revision). */
    async function checkServedPdf(epak: TrackedEpak, revisions: number, expectedSha?: string): Promise<string[]> {
      const reply = await call('GET', `/msbapi/v2/epaks/${epak.id}/documents/${epak.documentId}/download`, owner);
      if (reply.status !== 200) return [`download answered ${reply.status}`];
      const problems: string[] = [];
      if (expectedSha && sha256(reply.bytes) !== expectedSha) problems.push(`served PDF ${sha256(reply.bytes)} is not the recorded ${expectedSha}`);
      const judged = judgePdf(reply.bytes);
      const from = source.get(epak.file)!;
      const expected = from.signatures + revisions;
      if (judged.signatures !== expected || judged.valid !== expected) problems.push(`pdfsig: ${judged.valid}/${judged.signatures} valid, ${expected} expected\n${judged.pdfsig}`);
      if (qpdfRank(judged.qpdf) > qpdfRank(from.qpdf)) problems.push(`qpdf --check ${judged.qpdf}, the source ${from.qpdf}`);
      return problems;
    }

    /** ePaks read from the database: consistent, and signed by those answered (and maybe the one in flight). */
    async function observeTracked(db: Db, which: TrackedEpak[], inFlight?: { epak: TrackedEpak; recipientId: string }): Promise<Map<string, EpakObservation>> {
      const seen = new Map<string, EpakObservation>();
      for (const epak of which) {
        const observed = await observeEpak(db, environment.storage, epak.id);
        const revised = new Set(observed.revisedBy);
        const extra = [...revised].filter((id) => !epak.done.has(id) && !(inFlight?.epak === epak && inFlight.recipientId === id));
        const lost = [...epak.done].filter((id) => !revised.has(id));
        if (extra.length > 0) observed.problems.push(`revisions by recipients who never signed: ${extra.join(', ')}`);
        if (lost.length > 0) observed.problems.push(`answered signatures missing: ${lost.join(', ')}`);
        expect(observed.problems, `ePak ${epak.id} (${epak.file})`).toEqual([]);
        seen.set(epak.id, observed);
      }
      return seen;
    }

    // Calibration: one ePak per file signed through, each sign timed.
    const latency = new Map<string, number>();
    for (const file of FILES) {
      const epak = await composeAndStart(file);
      for (const signer of SIGNERS) {
        await view(epak, signer);
        const t0 = performance.now();
        const signed = await ok('POST', signUrl(epak), headersOf[signer], bodies.get(`${epak.id}:${signer}`));
        latency.set(`${file}:${signer}`, performance.now() - t0);
        expect(signed).toMatchObject({ documentStatus: 'Signed', signerStatus: 'Signed', revision: SIGNERS.indexOf(signer) + 1 });
        epak.done.add(epak.recipientOf[signer]);
      }
      expect(await checkServedPdf(epak, 3)).toEqual([]);
    }
    const calibratedAt = performance.now();

    const totalRuns = KILLED_EPAKS * SIGNERS.length;
    const staircase = new CommitStaircase();
    const drawDelay = (): { kind: RunRecord['kind']; ratio: number } => {
      const commit = staircase.ratio;
      // The last runs make sure both outcomes were seen, should the draws have missed one.
      if (totalRuns - runs.length <= 3 && !runs.some((r) => r.outcome === 'before')) return { kind: 'steered', ratio: 0.3 * commit };
      if (totalRuns - runs.length <= 3 && !runs.some((r) => r.outcome === 'after')) return { kind: 'steered', ratio: 1.5 * commit };
      if (random() < 0.4) return { kind: 'around-commit', ratio: commit * (0.9 + 0.2 * random()) };
      return { kind: 'uniform', ratio: 1.25 * commit * random() };
    };

    for (let e = 0; e < KILLED_EPAKS; e++) {
      const epak = await composeAndStart(FILES[e % FILES.length]!);
      for (const signer of SIGNERS) {
        const recipientId = epak.recipientOf[signer];
        const latencyMs = latency.get(`${epak.file}:${signer}`)!;
        const runFrom = performance.now();
        const { kind, ratio } = drawDelay();
        const delayMs = ratio * latencyMs;
        await view(epak, signer);
        const blobsBefore = countStoredFiles(env.storageDir);

        // Sign, and kill the server after the delay whatever it is doing.
        const t0 = performance.now();
        const request = (async () => {
          try {
            return await call('POST', signUrl(epak), headersOf[signer], bodies.get(`${epak.id}:${signer}`));
          } catch {
            return null; // the connection died with the server
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, delayMs - (performance.now() - t0))));
        const killedAtMs = performance.now() - t0;
        await server.kill();
        const answer = await request;
        if (answer) expect(answer.status, answer.bytes.toString('utf8')).toBe(200);

        // What the kill left, read while the next server starts.
        const restartFrom = performance.now();
        server = undefined;
        const snapshot = await env.snapshotAfterKill();
        const [read, started] = await Promise.allSettled([snapshot.read((db) => observeTracked(db, [epak], { epak, recipientId })), env.startServer()]);
        snapshot.discard();
        if (started.status === 'rejected') throw started.reason;
        server = started.value;
        base = server.url;
        if (read.status === 'rejected') throw read.reason;
        const observed = read.value;
        const restartMs = performance.now() - restartFrom;
        const now = observed.get(epak.id)!;
        const outcome = now.revisedBy.includes(recipientId) ? 'after' : 'before';
        const blobStored = outcome === 'before' && countStoredFiles(env.storageDir) > blobsBefore;
        if (answer) expect(outcome, 'a sign answered 200 is recorded').toBe('after');
        runs.push({ run: runs.length + 1, file: epak.file, signer, latencyMs, kind, ratio: killedAtMs / latencyMs, delayMs, killedAtMs, answered: answer !== null, outcome, blobStored, restartMs, runMs: 0 });
        if (kind === 'around-commit') staircase.update(outcome);

        // The restarted server serves what the database says.
        const detail = await ok('GET', `/msbapi/v2/epaks/${epak.id}`, owner);
        const served = {
          status: detail.status,
          currentStep: detail.currentStep,
          revisions: (detail.documents as Array<{ revisions: number }>)[0]!.revisions,
          recipients: Object.fromEntries((detail.steps as Array<{ recipients: Array<{ recipientId: string; status: string }> }>).flatMap((s) => s.recipients.map((r) => [r.recipientId, r.status]))),
        };
        expect(served).toEqual({ status: now.status, currentStep: now.currentStep, revisions: now.revisedBy.length, recipients: Object.fromEntries(now.recipientStatus) });
        expect(await checkServedPdf(epak, now.revisedBy.length, now.currentSha256)).toEqual([]);
        expect((await ok('GET', `/msbapi/v2/epaks/${epak.id}/activity`, owner)).chainValid).toBe(true);

        // The signer tries again: it succeeds, and a second try answers the same.
        const retried = await ok('POST', signUrl(epak), headersOf[signer], bodies.get(`${epak.id}:${signer}`));
        const revision = outcome === 'after' ? now.revisedBy.indexOf(recipientId) + 1 : now.revisedBy.length + 1;
        expect(retried).toMatchObject({ documentStatus: 'Signed', signerStatus: 'Signed', revision, epakStatus: signer === 'c' ? 'Completed' : 'InProgress' });
        expect(await ok('POST', signUrl(epak), headersOf[signer], bodies.get(`${epak.id}:${signer}`))).toEqual(retried);
        epak.done.add(recipientId);
        expect(await checkServedPdf(epak, epak.done.size)).toEqual([]);
        runs.at(-1)!.runMs = performance.now() - runFrom;
      }
    }
    const killedAt = performance.now();

    // Last: every ePak served and verified, a clean stop, and the database read once more.
    for (const epak of tracked) expect(await checkServedPdf(epak, 3), epak.file).toEqual([]);
    await server.stop();
    server = undefined;
    const final = await env.withDatabase((db) => observeTracked(db, tracked));
    for (const epak of tracked) expect(final.get(epak.id)!).toMatchObject({ status: 'Completed', currentStep: null });

    const before = runs.filter((r) => r.outcome === 'before');
    const after = runs.filter((r) => r.outcome === 'after');
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      [
        `sign-crash on ${env.kind} (seed ${SEED}): ${runs.length} kills, ${before.length} before the commit ` +
          `(${before.filter((r) => r.blobStored).length} of them with the revision's blob stored), ${after.length} after ` +
          `(${after.filter((r) => !r.answered).length} of them before the answer); commit at ~${staircase.ratio.toFixed(2)}× the warm latency; ` +
          `calibration ${seconds(calibratedAt - startedAt)}, kills ${seconds(killedAt - calibratedAt)}, total ${seconds(performance.now() - startedAt)}`,
        `per kill: restart ${seconds(runs.reduce((sum, r) => sum + r.restartMs, 0) / runs.length)} on average, whole run ${seconds(runs.reduce((sum, r) => sum + r.runMs, 0) / runs.length)}`,
        'run  file                              signer  latency  kind           delay   killed  ratio  answered  outcome',
        ...runs.map((r) =>
          [
            String(r.run).padStart(3),
            r.file.padEnd(33),
            r.signer.padEnd(6),
            `${r.latencyMs.toFixed(0)} ms`.padStart(7),
            r.kind.padEnd(13),
            `${r.delayMs.toFixed(0)} ms`.padStart(7),
            `${r.killedAtMs.toFixed(0)} ms`.padStart(7),
            r.ratio.toFixed(2).padStart(5),
            (r.answered ? 'yes' : 'no').padEnd(8),
            r.outcome === 'before' ? (r.blobStored ? 'before (blob stored)' : 'before') : r.answered ? 'after (answered)' : 'after',
          ].join('  '),
        ),
      ].join('\n'),
    );
    expect(runs.length).toBeGreaterThanOrEqual(30);
    // A test whose kills all landed on one side of the commit would prove nothing.
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    failed = false;
  }, 600_000);
});
