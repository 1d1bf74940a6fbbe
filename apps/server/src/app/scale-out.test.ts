import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { EpakDetail, notificationTopic, type TokenGrant } from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/db/database';
import { bulkComposeFailures, bulkComposeRuns, documentTemplates, epakDocumentRevisions, epakDocuments, epaks, outbox, workflows } from '../platform/db/schema';
import { CrashEnvironment, type ServerProcess } from '../test/sign-crash-support';
import { TestSocket } from '../test/socket-support';
import { run } from '../test/signing-support';
import { S3FileStorage } from '../platform/storage/s3-file-storage';
import { GOOD_PASSWORD, makeMember, makeTenant } from '../test/factories';
import { multipart, multipartForm } from '../test/multipart';
import { startS3rver, type TestS3Server } from '../test/s3-server';
import { listStates } from '../features/workflows/workflows';
import { CORPUS } from '../test/corpus';
import { signatureFieldsFor, signatureValues } from '../test/app-factories';

/**
 * Issue 18, "done when": two real server processes (the entry `npm start` runs) on one
 * PostgreSQL and one S3 bucket (s3rver), both working the job queue, each with a data directory
 * of its own, so that nothing is shared but the database and the bucket.
 *
 * - A document uploaded through A is read back through B, composed and started through B, signed
 *   by the first signer through B and by the last through A; the signed PDF downloads as the same
 *   bytes from either process, every signature valid in pdfsig. Every blob is in the bucket; no
 *   data directory holds a file.
 * - Each job runs once: every outbox message (sign requests, an EMAIL step's mail with the PDF as
 *   it stood attached, read from the bucket by whichever process delivers it, the completion mail,
 *   a bulk compose run's requests) reaches the SMTP server exactly once. While the ePak is signed
 *   (each sign nudges delivery in the process that served it) the relay holds the first message
 *   it is given until a second delivery job is under way, in the other process (one worker per
 *   process and queue): the two deliveries overlap by construction, not by luck. The same CSV
 *   uploaded through A and B at once makes one run, worked once, its rows made once.
 * - A notification raised through either process reaches the person's WebSocket clients on both.
 */

const FILE = 'plain-1p-pdftex.pdf';
const BULK_ROWS = 24;
/** The longest the relay holds a message waiting for a second delivery to start. */
const RELAY_HOLD_MAX_MS = 10_000;
const DELIVER_JOB = 'mail.deliver-outbox';
const BULK_JOB = 'epaks.bulk-compose';

type Headers = Record<string, string>;

let env: CrashEnvironment | undefined;
let s3: TestS3Server | undefined;
let smtp: SMTPServer | undefined;
const dataDirs: string[] = [];
const servers: { name: string; server: ServerProcess }[] = [];
const sockets: TestSocket[] = [];
let failed = true;
/** How long each part took, from the start of the test (printed at the end, or on failure). */
const phases: string[] = [];

afterAll(async () => {
  if (failed) console.error(`scale-out: the parts done:\n  ${phases.join('\n  ')}`);
  for (const socket of sockets) socket.close();
  await Promise.all(
    servers.map(async ({ name, server }) => {
      if (failed) console.error(`scale-out: server ${name} (pid ${server.pid}) said:\n${server.output().split('\n').slice(-30).join('\n')}`);
      await server.stop().catch(() => server.kill());
    }),
  );
  if (smtp) await new Promise<void>((resolve) => smtp!.close(() => resolve()));
  await s3?.close();
  await env?.dispose({ keepDataDir: false });
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function call(base: string, method: string, url: string, headers: Headers, body?: unknown): Promise<Record<string, unknown>> {
  const raw = body instanceof Buffer;
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: raw ? new Uint8Array(body) : JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${url} on ${base}: ${res.status} ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

async function download(base: string, url: string, headers: Headers): Promise<Buffer> {
  const res = await fetch(`${base}${url}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url} on ${base}: ${res.status} ${bytes.toString('utf8').slice(0, 500)}`);
  return bytes;
}

async function signIn(base: string, email: string, tenantId: string): Promise<{ grant: TokenGrant; headers: Headers }> {
  const res = await fetch(`${base}/msbapi/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: GOOD_PASSWORD }).toString(),
  });
  const grant = ((await res.json()) as { data: TokenGrant }).data;
  return { grant, headers: { authorization: `Bearer ${grant.accessToken}`, 'x-tenant-id': tenantId } };
}

/** Polls `probe` until it answers something other than undefined; fails with `what` after the deadline. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** pg-boss's jobs of one queue, by state (archived ones left out: none is, this soon). */
async function jobStates(db: Db, name: string): Promise<{ active: number; waiting: number; completed: number; other: number }> {
  const [counts] = await rows<{ active: number; waiting: number; completed: number; other: number }>(
    db,
    sql`select count(*) filter (where state = 'active')::int as active,
               count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
               count(*) filter (where state = 'completed')::int as completed,
               count(*) filter (where state not in ('active', 'created', 'retry', 'completed'))::int as other
        from pgboss.job where name = ${name}`,
  );
  return counts!;
}

/** pdfsig's count of signatures and of valid ones. */
function pdfsig(bytes: Buffer): { signatures: number; valid: number; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-scale-out-pdf-'));
  try {
    const file = path.join(dir, 'signed.pdf');
    fs.writeFileSync(file, bytes);
    const result = run('pdfsig', [file]);
    return {
      signatures: (result.stdout.match(/^Signature #\d+:/gm) ?? []).length,
      valid: (result.stdout.match(/Signature Validation: Signature is Valid\./g) ?? []).length,
      output: result.stdout + result.stderr,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The attached files of a message as nodemailer writes it (multipart/mixed, base64 parts). */
function attachmentsOf(raw: string): { filename: string; bytes: Buffer }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((part) => {
      const split = part.indexOf('\r\n\r\n');
      const head = part.slice(0, split);
      const filename = /filename="?([^";\r\n]+)"?/.exec(head)?.[1];
      if (!filename || !/Content-Disposition: attachment/i.test(head)) return [];
      return [{ filename, bytes: Buffer.from(part.slice(split).replace(/\s+/g, ''), 'base64') }];
    });
}

/** Every file under `dir` (none is expected: the processes keep nothing on local disk). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('two server processes on one PostgreSQL and one S3 bucket', () => {
  it('share documents through the bucket, run each job once, and fan notifications out to both', { timeout: 240_000 }, async () => {
    const startedAt = performance.now();
    const mark = (name: string) => phases.push(`${name} ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

    // The database, the bucket and the relay, at once.
    const received: { to: string[]; data: string }[] = [];
    const relay = { gated: false, heldMs: 0, overlapped: false };
    /** The test's connection, once the database is made (the relay asks it about pg-boss's jobs). */
    const reader: { db?: Db } = {};
    /**
     * While gated, the relay takes a message only once two delivery jobs are under way at once
     * (then the gate opens for good): the delivery it holds is still sending when the other starts.
     */
    const hold = async () => {
      const from = Date.now();
      while (relay.gated) {
        if ((await jobStates(reader.db!, DELIVER_JOB)).active >= 2) {
          relay.overlapped = true;
          relay.gated = false;
        } else if (Date.now() - from >= RELAY_HOLD_MAX_MS) relay.gated = false;
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      relay.heldMs += Date.now() - from;
    };
    const [environment, bucket, relayPort] = await Promise.all([
      CrashEnvironment.create(),
      startS3rver({ bucket: `pakt-scale-${randomBytes(4).toString('hex')}` }),
      new Promise<number>((resolve) => {
        smtp = new SMTPServer({
          authOptional: true,
          disabledCommands: ['STARTTLS'],
          onData(stream, session, callback) {
            let data = '';
            stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
            stream.on('end', () => {
              hold().then(
                () => {
                  received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
                  callback();
                },
                (error: unknown) => callback(error as Error),
              );
            });
          },
        });
        smtp.listen(0, '127.0.0.1', () => resolve((smtp!.server.address() as AddressInfo).port));
      }),
    ]);
    env = environment;
    s3 = bucket;
    const storage = new S3FileStorage(bucket.config);
    const db = await env.withDatabase(async (connection) => connection);
    reader.db = db;

    // People, and a template for bulk compose whose PDF only the bucket holds.
    const people = await env.withDatabase(async (db) => {
      const tenant = await makeTenant(db);
      const member = async (role: 'custodian' | 'signer', name: string) =>
        (await makeMember(db, { role, tenant, user: { email: `${name}-${randomUUID().slice(0, 8)}@scale.test`, firstName: name, lastName: 'Scale' } })).user;
      return { tenant, owner: await member('custodian', 'owner'), first: await member('signer', 'first'), records: await member('signer', 'records'), second: await member('signer', 'second') };
    });
    const outsider = `auditor-${randomUUID().slice(0, 8)}@elsewhere.test`;
    const templatePdf = fs.readFileSync(path.join(CORPUS, 'landscape-letter-1p.pdf'));
    const templateBlob = await storage.put(Readable.from([templatePdf]));
    const template = await env.withDatabase(async (db) => {
      const sign = (await listStates(db, people.tenant.id)).find((state) => state.type === 'SIGN')!;
      const [workflow] = await db
        .insert(workflows)
        .values({ tenantId: people.tenant.id, ownerId: people.owner.id, name: 'Scale flow', signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign.id, recipients: [{ type: 'placeholder', label: 'Client' }] }] })
        .returning();
      const tag = (init: Record<string, unknown>) => ({ uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 50, positionY: 50, blockWidth: 150, blockHeight: 40, ...init });
      const [row] = await db
        .insert(documentTemplates)
        .values({
          tenantId: people.tenant.id,
          ownerId: people.owner.id,
          name: 'Scale loan',
          documentName: 'loan.pdf',
          sha256: templateBlob.sha256,
          size: templateBlob.size,
          pageCount: 1,
          pages: [{ width: 792, height: 612, x: 0, y: 0, rotate: 0 }],
          tags: [
            tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
            tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
            tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
          ],
          signingPolicy: 'ESIGNATURE',
          workflowId: workflow!.id,
        })
        .returning();
      return row!;
    });
    mark('database, bucket, relay and people');

    // A and B, each with a data directory of its own; only the database and the bucket are shared.
    const shared = {
      JOBS_ENABLED: 'true',
      STORAGE: 's3',
      S3_ENDPOINT: bucket.endpoint,
      S3_BUCKET: bucket.bucket,
      S3_REGION: bucket.config.region,
      S3_ACCESS_KEY_ID: bucket.config.accessKeyId!,
      S3_SECRET_ACCESS_KEY: bucket.config.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
      SMTP_URL: `smtp://127.0.0.1:${relayPort}`,
      SMTP_FROM: 'Pakt <no-reply@scale.test>',
      // The same on every process (README): a key file per data directory would seal with two keys.
      SEAL_MASTER_KEY: randomBytes(32).toString('base64'),
    };
    const ownDataDir = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-scale-out-'));
      dataDirs.push(dir);
      return { DATA_DIR: dir, WEB_DIST_DIR: path.join(dir, 'no-web') };
    };
    const dirA = ownDataDir();
    const dirB = ownDataDir();
    const [startA, startB] = await Promise.allSettled([env.startServer({ ...shared, ...dirA }), env.startServer({ ...shared, ...dirB })]);
    if (startA.status === 'fulfilled') servers.push({ name: 'A', server: startA.value });
    if (startB.status === 'fulfilled') servers.push({ name: 'B', server: startB.value });
    if (startA.status === 'rejected') throw startA.reason;
    if (startB.status === 'rejected') throw startB.reason;
    const [a, b] = [startA.value, startB.value];
    expect(a.url).not.toBe(b.url);
    mark('A and B listening');

    // Sessions on both; the owner and the second signer each with a socket on A and one on B.
    const tenantId = people.tenant.id;
    const [ownerA, ownerB, firstB, secondA, secondB] = await Promise.all([
      signIn(a.url, people.owner.email, tenantId),
      signIn(b.url, people.owner.email, tenantId),
      signIn(b.url, people.first.email, tenantId),
      signIn(a.url, people.second.email, tenantId),
      signIn(b.url, people.second.email, tenantId),
    ]);
    const socket = async (server: ServerProcess, session: { grant: TokenGrant }, userId: string) => {
      const opened = await TestSocket.open(`${server.url.replace('http', 'ws')}/notification`);
      sockets.push(opened);
      const topic = notificationTopic(userId, tenantId);
      expect(await opened.connect(session.grant.accessToken, tenantId, topic)).toEqual([
        { type: 'connected', userId, tenantId },
        { type: 'subscribed', topic },
      ]);
      return opened;
    };
    const [ownerOnA, ownerOnB, secondOnA, secondOnB] = await Promise.all([
      socket(a, ownerA, people.owner.id),
      socket(b, ownerB, people.owner.id),
      socket(a, secondA, people.second.id),
      socket(b, secondB, people.second.id),
    ]);

    // Uploaded through A: into the bucket, nothing on A's disk.
    const source = fs.readFileSync(path.join(CORPUS, FILE));
    const upload = multipart(source, FILE);
    const doc = await call(a.url, 'POST', '/msbapi/v1/documents', { ...ownerA.headers, ...upload.headers }, upload.payload);
    expect(fs.existsSync(bucket.objectPath(`${String(doc.sha256).slice(0, 2)}/${String(doc.sha256).slice(2, 4)}/${String(doc.sha256)}`))).toBe(true);

    // Composed and started through B, which serves the file it never received.
    const states = (await call(b.url, 'GET', '/msbapi/v1/workflow/states', ownerB.headers)).states as Array<{ type: string; workflowStateId: string }>;
    const state = (type: string) => states.find((s) => s.type === type)!.workflowStateId;
    const subject = `Scale-out ${randomUUID().slice(0, 8)}`;
    const epak = await call(b.url, 'POST', '/msbapi/v2/epak', ownerB.headers, {
      subject,
      documentIds: [doc.documentId],
      viewEnforced: false,
      steps: [
        { workflowStateId: state('SIGN'), recipients: [{ email: people.first.email }] },
        { workflowStateId: state('EMAIL'), recipients: [{ email: people.records.email }, { email: outsider }] },
        { workflowStateId: state('SIGN'), recipients: [{ email: people.second.email }] },
      ],
    });
    const epakId = epak.ePakId as string;
    const epakDocumentId = (epak.documents as Array<{ documentId: string }>)[0]!.documentId;
    const downloadUrl = `/msbapi/v2/epaks/${epakId}/documents/${epakDocumentId}/download`;
    const composed = await download(b.url, downloadUrl, ownerB.headers);
    expect(sha256(composed)).toBe(doc.sha256);
    // Each signer's signature field, which the server asks for before it sends (-62).
    const placed = signatureFieldsFor(EpakDetail.parse(epak));
    for (const { documentId, tags } of placed) await call(b.url, 'POST', `/msbapi/v2/epaks/${epakId}/documents/${documentId}/signatureblocks`, ownerB.headers, { tags });
    await call(b.url, 'POST', `/msbapi/v2/epaks/${epakId}/start`, ownerB.headers);
    mark('uploaded through A, composed and started through B');

    // The first signer signs through B; the second signer's sockets on A and B both hear of their turn.
    // From now on the relay holds a message until a second delivery is under way (the next sign's).
    relay.gated = true;
    const signUrl = `/msbapi/v2/epaks/${epakId}/documents/${epakDocumentId}/sign`;
    expect(await call(b.url, 'POST', signUrl, firstB.headers, { values: signatureValues(placed, epakDocumentId, people.first.email) })).toMatchObject({ signerStatus: 'Signed', revision: 1 });
    for (const heard of [secondOnA, secondOnB]) {
      expect(await heard.next()).toMatchObject({
        type: 'message',
        topic: notificationTopic(people.second.id, tenantId),
        notification: { notificationType: 'signRequest', epak: { id: epakId }, title: `Please sign: ${subject}` },
      });
    }
    // The file as the EMAIL step mailed it, read through A.
    const afterFirst = await download(a.url, downloadUrl, ownerA.headers);
    expect(pdfsig(afterFirst)).toMatchObject({ signatures: 1, valid: 1 });

    // The second signer signs through A; the owner's sockets on A and B both hear it is complete.
    expect(await call(a.url, 'POST', signUrl, secondA.headers, { values: signatureValues(placed, epakDocumentId, people.second.email) })).toMatchObject({ signerStatus: 'Signed', revision: 2, epakStatus: 'Completed' });
    for (const heard of [ownerOnA, ownerOnB]) {
      expect(await heard.next()).toMatchObject({
        type: 'message',
        topic: notificationTopic(people.owner.id, tenantId),
        notification: { notificationType: 'signCompleted', epak: { id: epakId }, title: `Completed: ${subject}` },
      });
    }
    mark('signed through B, then A; notified on both');

    // The signed file: the same bytes from either process, both signatures valid.
    const [signedA, signedB] = await Promise.all([download(a.url, downloadUrl, ownerA.headers), download(b.url, downloadUrl, ownerB.headers)]);
    expect(sha256(signedB)).toBe(sha256(signedA));
    const judged = pdfsig(signedA);
    expect({ signatures: judged.signatures, valid: judged.valid }, judged.output).toEqual({ signatures: 2, valid: 2 });
    expect(signedA.subarray(0, afterFirst.length).equals(afterFirst)).toBe(true);

    // Bulk compose: the same CSV uploaded through A and B at once makes one run, worked once.
    const header = 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount';
    const bulkTag = randomUUID().slice(0, 8);
    const bulkEmails = Array.from({ length: BULK_ROWS }, (_, i) => `row${i + 1}-${bulkTag}@bulk.test`);
    const csv = [header, ...bulkEmails.map((email, i) => `${email},Row,Number${i + 1},,,${(i + 1) * 100}`)].join('\r\n');
    const bulkUpload = (server: ServerProcess, headers: Headers) => {
      const body = multipartForm({ docTemplateId: template.id }, { bytes: csv, name: 'people.csv', type: 'text/csv' });
      return call(server.url, 'POST', '/msbapi/v1/bulkcompose/upload', { ...headers, ...body.headers }, body.payload);
    };
    const uploads = await Promise.all([bulkUpload(a, ownerA.headers), bulkUpload(b, ownerB.headers)]);
    const runIds = uploads.map((u) => (u.run as { runId: string }).runId);
    expect(runIds[1]).toBe(runIds[0]);
    expect(uploads.map((u) => u.existing).sort()).toEqual([false, true]);
    const runId = runIds[0]!;
    const finished = await until('the bulk compose run to finish', async () => {
      const [found] = await db.select().from(bulkComposeRuns).where(eq(bulkComposeRuns.id, runId));
      return found && ['completed', 'failed'].includes(found.status) ? found : undefined;
    });
    const refused = await db.select().from(bulkComposeFailures).where(eq(bulkComposeFailures.runId, runId));
    expect(refused.map((f) => ({ row: f.rowNumber, errors: f.errors })).slice(0, 3)).toEqual([]);
    expect(finished).toMatchObject({ status: 'completed', totalRows: BULK_ROWS, processedRows: BULK_ROWS, createdEpaks: BULK_ROWS, failedRows: 0 });
    const made = await db.select({ row: epaks.bulkRow }).from(epaks).where(eq(epaks.bulkRunId, runId));
    expect(made.map((m) => m.row).sort((x, y) => x! - y!)).toEqual(Array.from({ length: BULK_ROWS }, (_, i) => i + 1));
    // One job for the run (the second upload found the run made), and it ran once: completed, no retry.
    const bulkJobs = await until('the bulk compose job to complete', async () => {
      const found = await rows<{ state: string; run_id: string; retry_count: number }>(
        db,
        sql`select state, data->>'runId' as run_id, retry_count from pgboss.job where name = ${BULK_JOB} and data ? 'runId'`,
      );
      return found.some((job) => job.state === 'active' || job.state === 'created') ? undefined : found;
    });
    expect(bulkJobs).toEqual([{ state: 'completed', run_id: runId, retry_count: 0 }]);
    mark('bulk compose run made once');

    // Every message delivered, by whichever process, once: nothing left queued or being delivered.
    const queued = await until(
      'the outbox to be delivered',
      async () => {
        const all = await db.select().from(outbox);
        return all.every((row) => row.sentAt !== null) ? all : undefined;
      },
      90_000,
    );
    await until('the delivery jobs to end', async () => {
      const jobs = await jobStates(db, DELIVER_JOB);
      return jobs.active === 0 && jobs.waiting === 0 ? jobs : undefined;
    });
    mark('outbox delivered');
    // Each person's request to act, the owner's and the bulk rows' mail, and everyone's completion mail (issue 22).
    const participants = [people.first.email, people.records.email, outsider, people.second.email];
    const expected = [...participants, people.owner.email, ...bulkEmails, ...participants].map((e) => e.toLowerCase());
    expect(queued.map((row) => row.recipient.toLowerCase()).sort()).toEqual([...expected].sort());
    // Counted per message (recipient and subject): a person now gets more than one.
    const deliveries = new Map<string, number>();
    for (const message of received) {
      const subjectLine = /^Subject: (.*)$/m.exec(message.data)?.[1] ?? '';
      for (const to of message.to) deliveries.set(`${to.toLowerCase()} ${subjectLine}`, (deliveries.get(`${to.toLowerCase()} ${subjectLine}`) ?? 0) + 1);
    }
    // The race this is about happened: two processes delivered at the same time.
    expect(relay.overlapped, 'no second delivery started while the relay held a message').toBe(true);
    const twice = [...deliveries].filter(([, n]) => n > 1);
    expect(twice, `messages delivered more than once (${received.length} received for ${queued.length} queued)`).toEqual([]);
    expect(received.length).toBe(queued.length);
    expect(queued.filter((row) => row.attempts !== 1).map((row) => `${row.recipient}: ${row.attempts} attempts`)).toEqual([]);

    // The EMAIL step's mail carries the file as it stood after the first signature, read from the bucket.
    for (const to of [people.records.email, outsider]) {
      const message = received.find((m) => m.to.map((t) => t.toLowerCase()).includes(to.toLowerCase()) && m.data.includes(`Subject: Documents: ${subject}`))!;
      expect(message.data).toContain(`Subject: Documents: ${subject}`);
      const attached = attachmentsOf(message.data);
      expect(attached.map((f) => sha256(f.bytes))).toEqual([sha256(afterFirst)]);
    }

    // Every blob is in the bucket, and only blobs: no temporary object left; no data directory holds a file.
    const [document] = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId));
    const revisions = await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, document!.id));
    const blobs = [String(doc.sha256), document!.sha256, ...revisions.map((r) => r.tailSha256), finished.fileSha256, templateBlob.sha256];
    const keys: string[] = [];
    for (let token: string | undefined; ; ) {
      const page = await storage.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, ...(token ? { ContinuationToken: token } : {}) }));
      keys.push(...(page.Contents ?? []).map((object) => object.Key!));
      if (!page.IsTruncated) break;
      token = page.NextContinuationToken;
    }
    expect(keys.filter((key) => !/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(key))).toEqual([]);
    for (const blob of blobs) expect(keys, blob).toContain(`${blob.slice(0, 2)}/${blob.slice(2, 4)}/${blob}`);
    expect(revisions).toHaveLength(2);
    for (const dir of [dirA.DATA_DIR, dirB.DATA_DIR]) expect(filesUnder(dir), dir).toEqual([]);

    expect([ownerOnA.pending(), ownerOnB.pending(), secondOnA.pending(), secondOnB.pending()]).toEqual([[], [], [], []]);
    await Promise.all([a.stop(), b.stop()]);
    mark('stopped');
    console.log(
      `scale-out: ${received.length} messages for ${queued.length} queued; the relay held messages ${relay.heldMs} ms ` +
        `for two deliveries at once\n  ${phases.join('\n  ')}`,
    );
    failed = false;
  });
});
