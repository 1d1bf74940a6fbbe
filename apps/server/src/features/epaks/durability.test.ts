import fs from 'node:fs';
import path from 'node:path';
import { newTag, type Tag } from '@pakt/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../../test/factories';
import { multipart } from '../../test/multipart';
import {
  type ClusterState,
  drawnSignature,
  DurabilityEnvironment,
  type Headers,
  HttpClient,
  isRunning,
  judgePdf,
  sha256,
  signIn,
  waitUntil,
} from '../../test/durability-support';
import { type EpakObservation, observeEpak, qpdfRank, type ServerProcess } from '../../test/sign-crash-support';
import { CORPUS } from '../../test/corpus';

/**
 * Issue 18, "done when": the server and its database are killed with SIGKILL right after a
 * signer's step is confirmed to the client, at least 20 times; after each restart every
 * confirmed step is present and the PDF and state are consistent.
 *
 * The server runs as `npm start` runs it, with no DATABASE_URL: it starts its own embedded
 * PostgreSQL 18 on DATA_DIR/db, durable (fsync, full_page_writes, synchronous_commit on), in a
 * data directory of the test's own under the temp directory (see DurabilityEnvironment.create).
 * Each round a signer views and signs; the moment the 200's status line arrives (the HTTP
 * client's 'response' event, before the body is read) the server process and its postmaster
 * (the first line of DATA_DIR/db/postmaster.pid) are sent SIGKILL in the same tick, so the
 * database gets no shutdown: pg_control still says "in production" afterwards, which the test
 * checks. The server is started again at once, without waiting for the dead postmaster's
 * backends to notice and exit; it has to cope with those, the stale postmaster.pid and its
 * directory lock, and PostgreSQL recovers from its WAL. Then, through the restarted cluster
 * (its URL from postmaster.pid and DATA_DIR/db/pakt-password), every step answered 200 so far
 * must be there: the recipient Signed, their revision the one the answer named, and no
 * revision nobody was told of; observeEpak must find nothing wrong with any ePak touched (the
 * file rebuilds to the last revision's SHA-256, the engine state is the engine's own account of
 * the revisions, the activity chain verifies, the mail is queued once). The restarted server
 * must serve the same: the ePak's state, and a PDF with that SHA-256 whose every signature
 * pdfsig finds valid.
 *
 * Seven ePaks with steps [SIGN: a, b], [SIGN: c] over five corpus files, composed before the
 * first kill; the 21 rounds go a's signature in each, then b's, then c's, so at any time ePaks
 * stand at every stage and each is reopened after several crashes.
 */

const FILES = ['plain-1p-pdftex.pdf', 'incremental-pdf20.pdf', 'rotate-0-90-180-270-arabic.pdf', 'signed-pades-b.pdf', 'enc-no-userpw-aes256.pdf'];
const SIGNERS = ['a', 'b', 'c'] as const;
/** 7 ePaks × 3 signers = 21 kills. */
const EPAKS = 7;
/**
 * Each restart loads the whole server in a fresh Node (about 4.5 s of CPU) before PostgreSQL
 * recovers: seconds on an idle machine, but ServerProcess allows a start 60 s, and a loaded
 * machine (load 15 to 30 on 2 cores) took 10 to 40 s per restart. A bound for hangs, not a goal.
 */
const TIMEOUT_MS = 25 * 60_000;

type Signer = (typeof SIGNERS)[number];

interface TrackedEpak {
  id: string;
  documentId: string;
  file: string;
  recipientOf: Record<Signer, string>;
  /** Recipient id → the revision their 200 named: the promises that must survive. */
  confirmed: Map<string, number>;
  body: Record<Signer, unknown>;
}

interface Round {
  round: number;
  file: string;
  signer: Signer;
  /** From sending the sign to the 200's status line. */
  signMs: number;
  /** From the 200 to the SIGKILLs (both sent in the event handler). */
  killLagMs: number;
  /** The 200's body could not be read (the kill came first); the revision is then the expected one. */
  bodyLost: boolean;
  /** From the SIGKILLs until both the server and the postmaster were gone. */
  deadMs: number;
  /** pg_control right after the kill. */
  clusterState: ClusterState;
  /** The killed cluster's processes (backends, auxiliaries) still running when the new server was started. */
  lingering: number;
  /** From spawning the server to its "listening" line: embedded PostgreSQL's crash recovery included. */
  restartMs: number;
  /** From spawning the server to its new postmaster's postmaster.pid (Node, tsx and the server's imports). */
  postgresSpawnedMs: number | null;
  /** From spawning the server to postmaster.pid saying "ready" (WAL recovery done). */
  postgresReadyMs: number | null;
  /** Reading back every ePak touched, and the signed one over HTTP. */
  checkMs: number;
}

const client = new HttpClient();
let env: DurabilityEnvironment | undefined;
let server: ServerProcess | undefined;
let failed = true;
const rounds: Round[] = [];

afterAll(async () => {
  if (env && failed) {
    console.error(`durability: kept for inspection: ${env.dataDir}`);
    console.error(`durability: the rounds so far:\n${rounds.map((r) => JSON.stringify(r)).join('\n')}`);
    const output = server?.output();
    if (output) console.error(`durability: the server's last output:\n${output.split('\n').slice(-40).join('\n')}`);
  }
  // A clean stop when it can (the server stops its PostgreSQL); dispose stops any orphan either way.
  if (server) await (failed ? server.kill() : server.stop());
  if (env) {
    const environment = env;
    await env.dispose({ keepDataDir: failed });
    // No process of the cluster, and no postmaster on it, is left behind.
    expect(environment.clusterProcesses()).toEqual([]);
  }
  // An orphan's fast shutdown, and waiting for its processes, may take a while on a loaded machine.
}, 120_000);

describe('signing when the server and its embedded PostgreSQL are killed', () => {
  it(`keeps every step confirmed with a 200, the PDF and state consistent (${EPAKS * SIGNERS.length} kills)`, async () => {
    const startedAt = performance.now();
    env = DurabilityEnvironment.create();
    const environment = env;

    // The first start makes the cluster (initdb) and migrates it; the people are written beside it.
    server = await env.startServer();
    client.base = server.url;
    const firstStartMs = performance.now() - startedAt;
    // The checks for processes left behind find the cluster's by their working directory: they do.
    expect(env.clusterProcesses().map((p) => p.pid)).toContain(env.postmaster().pid);
    const people = await env.withDatabase(async (db) => {
      const tenant = await makeTenant(db);
      const member = async (role: 'custodian' | 'signer', name: string) =>
        (await makeMember(db, { role, tenant, user: { email: `${name}-${Date.now()}@durability.test`, firstName: name, lastName: 'Durable' } })).user;
      return { tenant, owner: await member('custodian', 'owner'), a: await member('signer', 'a'), b: await member('signer', 'b'), c: await member('signer', 'c') };
    });
    const owner = await signIn(client, people.owner.email, GOOD_PASSWORD, people.tenant.id);
    const headersOf: Record<Signer, Headers> = {
      a: await signIn(client, people.a.email, GOOD_PASSWORD, people.tenant.id),
      b: await signIn(client, people.b.email, GOOD_PASSWORD, people.tenant.id),
      c: await signIn(client, people.c.email, GOOD_PASSWORD, people.tenant.id),
    };
    const states = (await client.ok('GET', '/msbapi/v1/workflow/states', owner)).states as Array<{ type: string; workflowStateId: string }>;
    const signState = states.find((s) => s.type === 'SIGN')!.workflowStateId;
    const source = new Map(
      FILES.map((file) => {
        const judged = judgePdf(fs.readFileSync(path.join(CORPUS, file)));
        return [file, { signatures: judged.signatures, qpdf: judged.qpdf }];
      }),
    );

    const tagUuid = (epakIndex: number, n: number) => `00000000-0000-4000-8000-${String(epakIndex * 10 + n).padStart(12, '0')}`;
    const tracked: TrackedEpak[] = [];
    async function composeAndStart(file: string): Promise<TrackedEpak> {
      const index = tracked.length;
      const upload = multipart(fs.readFileSync(path.join(CORPUS, file)), file);
      const doc = await client.ok('POST', '/msbapi/v1/documents', { ...owner, ...upload.headers }, upload.payload);
      const epak = await client.ok('POST', '/msbapi/v2/epak', owner, {
        subject: `Durability ${index} ${file}`,
        documentIds: [doc.documentId],
        viewEnforced: true,
        steps: [
          { workflowStateId: signState, recipients: [{ email: people.a.email }, { email: people.b.email }] },
          { workflowStateId: signState, recipients: [{ email: people.c.email }] },
        ],
      });
      const document = (epak.documents as Array<{ documentId: string; pages: Array<{ rotate: 0 | 90 | 180 | 270 }> }>)[0]!;
      // Upright pages: a column per signer; pages turned a quarter: a column per tag.
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
      await client.ok('POST', `/msbapi/v2/epaks/${epak.ePakId}/documents/${document.documentId}/signatureblocks`, owner, { tags });
      await client.ok('POST', `/msbapi/v2/epaks/${epak.ePakId}/start`, owner);
      const steps = epak.steps as Array<{ recipients: Array<{ recipientId: string; email: string }> }>;
      const recipientByEmail = new Map(steps.flatMap((s) => s.recipients.map((r) => [r.email.toLowerCase(), r.recipientId])));
      const tracking: TrackedEpak = {
        id: epak.ePakId as string,
        documentId: document.documentId,
        file,
        recipientOf: { a: recipientByEmail.get(people.a.email)!, b: recipientByEmail.get(people.b.email)!, c: recipientByEmail.get(people.c.email)! },
        confirmed: new Map(),
        body: {
          a: { values: [{ uuid: tagUuid(index, 1), value: drawnSignature() }], reason: 'Agreed' },
          b: { values: [{ uuid: tagUuid(index, 2), value: 'B. Durable' }], reason: 'Approved', location: 'Pune' },
          c: {
            values: [
              { uuid: tagUuid(index, 4), value: drawnSignature() },
              { uuid: tagUuid(index, 5), value: `Flat ${index}C` },
            ],
            reason: 'Witnessed',
          },
        },
      };
      tracked.push(tracking);
      return tracking;
    }
    for (let e = 0; e < EPAKS; e++) await composeAndStart(FILES[e % FILES.length]!);
    const composedAt = performance.now();

    const signUrl = (epak: TrackedEpak) => `/msbapi/v2/epaks/${epak.id}/documents/${epak.documentId}/sign`;

    /**
     * Every ePak touched so far, read from the restarted cluster: consistent, every confirmed
     * step there with the revision its answer named, no revision by anyone not confirmed.
     */
    async function checkConfirmed(touched: TrackedEpak[]): Promise<Map<string, EpakObservation>> {
      return environment.withDatabase(async (db) => {
        const seen = new Map<string, EpakObservation>();
        for (const epak of touched) {
          const observed = await observeEpak(db, environment.storage, epak.id);
          for (const [recipientId, revision] of epak.confirmed) {
            const at = observed.revisedBy.indexOf(recipientId);
            if (at < 0) observed.problems.push(`confirmed step lost: recipient ${recipientId} (revision ${revision}) has no revision`);
            else if (at + 1 !== revision) observed.problems.push(`recipient ${recipientId} was answered revision ${revision}, has revision ${at + 1}`);
            if (observed.recipientStatus.get(recipientId) !== 'Signed') observed.problems.push(`confirmed recipient ${recipientId} is ${observed.recipientStatus.get(recipientId)}`);
          }
          const extra = observed.revisedBy.filter((id) => !epak.confirmed.has(id));
          if (extra.length > 0) observed.problems.push(`revisions nobody was answered for: ${extra.join(', ')}`);
          const expectedStatus = epak.confirmed.size === SIGNERS.length ? 'Completed' : 'InProgress';
          if (observed.status !== expectedStatus) observed.problems.push(`status ${observed.status}, ${expectedStatus} expected`);
          expect(observed.problems, `ePak ${epak.id} (${epak.file})`).toEqual([]);
          seen.set(epak.id, observed);
        }
        return seen;
      });
    }

    /** What the restarted server serves of one ePak: the state read from the database, and its PDF, every signature valid. */
    async function checkServed(epak: TrackedEpak, observed: EpakObservation): Promise<void> {
      const detail = await client.ok('GET', `/msbapi/v2/epaks/${epak.id}`, owner);
      expect({
        status: detail.status,
        currentStep: detail.currentStep,
        revisions: (detail.documents as Array<{ revisions: number }>)[0]!.revisions,
        recipients: Object.fromEntries((detail.steps as Array<{ recipients: Array<{ recipientId: string; status: string }> }>).flatMap((s) => s.recipients.map((r) => [r.recipientId, r.status]))),
      }).toEqual({ status: observed.status, currentStep: observed.currentStep, revisions: observed.revisedBy.length, recipients: Object.fromEntries(observed.recipientStatus) });
      const reply = await client.call('GET', `/msbapi/v2/epaks/${epak.id}/documents/${epak.documentId}/download`, owner);
      expect(reply.status).toBe(200);
      expect(sha256(reply.bytes), 'the served PDF is the recorded one').toBe(observed.currentSha256);
      const judged = judgePdf(reply.bytes);
      const from = source.get(epak.file)!;
      const expected = from.signatures + observed.revisedBy.length;
      expect({ signatures: judged.signatures, valid: judged.valid }, judged.pdfsig).toEqual({ signatures: expected, valid: expected });
      expect(qpdfRank(judged.qpdf), `qpdf --check ${judged.qpdf}, the source ${from.qpdf}`).toBeLessThanOrEqual(qpdfRank(from.qpdf));
    }

    const order = SIGNERS.flatMap((signer) => tracked.map((epak) => ({ epak, signer })));
    for (const { epak, signer } of order) {
      const recipientId = epak.recipientOf[signer];
      await client.ok('PUT', `/msbapi/v2/epak/${epak.id}/document/${epak.documentId}/view`, headersOf[signer]);
      const postmaster = env.postmaster();
      const killed = server!;

      // Sign; the 200's arrival kills the server and its postmaster in the same tick.
      let killedAt = 0;
      let serverGone: Promise<void> | undefined;
      let answeredAt = 0;
      const answer = await client.postAndActOn200(signUrl(epak), headersOf[signer], epak.body[signer], () => {
        answeredAt = performance.now();
        process.kill(postmaster.pid, 'SIGKILL');
        serverGone = killed.kill();
        killedAt = performance.now();
      });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      server = undefined;
      await serverGone;
      await waitUntil(() => !isRunning(postmaster.pid), 10_000, `the postmaster ${postmaster.pid} is gone`);
      const deadMs = performance.now() - killedAt;
      const expectedRevision = epak.confirmed.size + 1;
      const data = answer.json?.data as { revision?: number; signerStatus?: string; epakStatus?: string } | undefined;
      if (!answer.bodyLost) {
        expect(data).toMatchObject({ signerStatus: 'Signed', revision: expectedRevision, epakStatus: signer === 'c' ? 'Completed' : 'InProgress' });
      }
      // The promise made to this signer.
      epak.confirmed.set(recipientId, data?.revision ?? expectedRevision);

      // The cluster was not shut down: its next start is a crash recovery.
      const clusterState = env.clusterState();
      expect(clusterState, 'pg_control after the SIGKILL').toBe('in production');

      // Started again at once, whatever of the dead cluster still runs.
      const lingering = env.clusterProcesses().filter((p) => p.pid !== postmaster.pid).length;
      const restartFrom = performance.now();
      const phases = env.watchStart(postmaster.pid);
      try {
        server = await env.startServer();
      } finally {
        phases.stop();
      }
      client.base = server.url;
      const restartMs = performance.now() - restartFrom;
      expect(env.postmaster().pid).not.toBe(postmaster.pid);

      const checkFrom = performance.now();
      const touched = tracked.filter((t) => t.confirmed.size > 0);
      const observed = await checkConfirmed(touched);
      await checkServed(epak, observed.get(epak.id)!);
      rounds.push({
        round: rounds.length + 1,
        file: epak.file,
        signer,
        signMs: answer.answeredMs,
        killLagMs: killedAt - answeredAt,
        bodyLost: answer.bodyLost,
        deadMs,
        clusterState,
        lingering,
        restartMs,
        postgresSpawnedMs: phases.spawnedMs,
        postgresReadyMs: phases.readyMs,
        checkMs: performance.now() - checkFrom,
      });
    }
    const killedAt = performance.now();

    // Last: every ePak complete and served whole, then a clean stop (which stops PostgreSQL too).
    const final = await checkConfirmed(tracked);
    for (const epak of tracked) {
      expect(final.get(epak.id)).toMatchObject({ status: 'Completed', currentStep: null });
      await checkServed(epak, final.get(epak.id)!);
    }
    await server!.stop();
    server = undefined;
    expect(env.clusterState(), 'pg_control after a clean stop').toBe('shut down');
    expect(env.clusterProcesses()).toEqual([]);

    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const stats = (values: number[]) => {
      const sorted = [...values].sort((x, y) => x - y);
      const avg = values.reduce((sum, v) => sum + v, 0) / values.length;
      return `min ${seconds(sorted[0]!)}, median ${seconds(sorted[Math.floor(sorted.length / 2)]!)}, mean ${seconds(avg)}, max ${seconds(sorted.at(-1)!)}`;
    };
    console.log(
      [
        `durability on the embedded PostgreSQL (durable, ${env.dataDir}): ${rounds.length} kills of server + postmaster right after a 200, ` +
          `${rounds.filter((r) => r.lingering > 0).length} restarts with the dead cluster's processes still running; ` +
          `first start ${seconds(firstStartMs)}, set-up ${seconds(composedAt - startedAt)}, kills ${seconds(killedAt - composedAt)}, total ${seconds(performance.now() - startedAt)}`,
        `restart (spawn → listening, WAL recovery included): ${stats(rounds.map((r) => r.restartMs))}`,
        `of which: Node and the server's imports until the postmaster starts ${stats(rounds.map((r) => r.postgresSpawnedMs ?? Number.NaN))}; ` +
          `PostgreSQL start and crash recovery ${stats(rounds.map((r) => (r.postgresReadyMs ?? Number.NaN) - (r.postgresSpawnedMs ?? Number.NaN)))}; ` +
          `from ready to listening (connect, migrate, listen) ${stats(rounds.map((r) => r.restartMs - (r.postgresReadyMs ?? Number.NaN)))}`,
        'round  file                              signer     sign  kill lag   dead  cluster        lingering  restart  (pg up  ready)   check',
        ...rounds.map((r) =>
          [
            String(r.round).padStart(5),
            r.file.padEnd(33),
            r.signer.padEnd(6),
            `${r.signMs.toFixed(0)} ms`.padStart(7),
            `${r.killLagMs.toFixed(2)} ms`.padStart(8),
            `${r.deadMs.toFixed(0)} ms`.padStart(6),
            (r.clusterState + (r.bodyLost ? ' (body lost)' : '')).padEnd(14),
            String(r.lingering).padStart(9),
            `${r.restartMs.toFixed(0)} ms`.padStart(8),
            `(${(r.postgresSpawnedMs ?? Number.NaN).toFixed(0)}`.padStart(6),
            `${(r.postgresReadyMs ?? Number.NaN).toFixed(0)})`.padStart(6),
            `${r.checkMs.toFixed(0)} ms`.padStart(7),
          ].join('  '),
        ),
      ].join('\n'),
    );
    expect(rounds.length).toBeGreaterThanOrEqual(20);
    failed = false;
  }, TIMEOUT_MS);
});
