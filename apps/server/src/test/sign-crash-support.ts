/**
 * For sign-crash.test.ts only: the real server as a child process (the entry `npm start` runs),
 * killed with SIGKILL and started again on the same data, and what the test reads of the
 * database between a kill and the next start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EngineState, type SignerStatus, transition, type WorkflowStateType } from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { type Database, type Db, openDatabase } from '../platform/db/database';
import { epakDocumentRevisions, epakDocuments, epakRecipients, epakSteps, epaks, outbox } from '../platform/db/schema';
import { REPO_ROOT } from '../paths';
import { LocalFileStorage } from '../platform/storage/file-storage';
import { databaseUrl, templateDatabaseName, testBackend } from './test-database';
import { loadActivity, verifyActivityChain } from '../features/epaks/activity';
import { loadEngineState } from '../features/epaks/engine-store';
import { readCurrentDocument } from '../features/epaks/revisions';

/** The server bundle `npm start` runs; the suites' global setup builds it from the source at hand. */
const MAIN = path.join(REPO_ROOT, 'apps/server/dist/main.mjs');
const START_TIMEOUT_MS = 60_000;

/** Servers still running; killed if the test process exits without doing it (no orphans). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The server process: `node apps/server/dist/main.mjs`, as scripts/start.mjs runs it. */
export class ServerProcess {
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitedYet = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly lines: string[],
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  ) {
    this.exited = exited.then((result) => {
      this.exitedYet = true;
      return result;
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the server and waits for its "listening" line (it listens on a port of its own choosing). */
  static start(env: Record<string, string>): Promise<ServerProcess> {
    const child = spawn(process.execPath, [MAIN], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const lines: string[] = [];
    const keep = (line: string) => {
      lines.push(line);
      if (lines.length > 300) lines.splice(0, lines.length - 300);
    };
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => {
        running.delete(child);
        resolve({ code, signal });
      }),
    );
    return new Promise<ServerProcess>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        child.kill('SIGKILL');
        reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${lines.join('\n')}`));
      }, START_TIMEOUT_MS);
      const onLine = (line: string) => {
        keep(line);
        if (settled) return;
        let message = line;
        try {
          message = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
        } catch {
          // not a log line (the first-run notice is printed as text)
        }
        const listening = /is listening on (http:\/\/\S+)/.exec(message);
        if (listening) {
          settled = true;
          clearTimeout(timer);
          resolve(new ServerProcess(child, listening[1]!, lines, exited));
        }
      };
      for (const stream of [child.stdout!, child.stderr!]) {
        let buffered = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          buffered += chunk;
          const parts = buffered.split('\n');
          buffered = parts.pop()!;
          for (const part of parts) onLine(part);
        });
      }
      void exited.then(({ code, signal }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening:\n${lines.join('\n')}`));
      });
    });
  }

  /** What the process printed last (for a failure message). */
  output(): string {
    return this.lines.join('\n');
  }

  /** SIGKILL: no handler runs, nothing is flushed or closed; resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.exitedYet) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the server's own shutdown (closes the database); fails if it does not exit cleanly. */
  async stop(): Promise<void> {
    if (this.exitedYet) return;
    this.child.kill('SIGTERM');
    const { code, signal } = await this.exited;
    if (code !== 0) throw new Error(`the server exited with code ${code} (signal ${signal}) on SIGTERM:\n${this.output()}`);
  }
}

/**
 * Where the data directory goes: tmpfs (/dev/shm) when there is one, else the temp directory.
 * A SIGKILL ends the process, not the machine: what it wrote is in the kernel either way, so
 * memory-backed files change nothing the test looks at, and make each upload cheaper (the file
 * store fsyncs). What a power cut would lose is not tested here.
 */
function scratchRoot(): string {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}

/**
 * A data directory and a database for the crash test: a clone of the run's migrated template on
 * the suites' PostgreSQL, which the server process reaches through DATABASE_URL. The server is
 * what is killed here; killing its embedded PostgreSQL with it is durability.test.ts's part.
 */
export class CrashEnvironment {
  readonly kind = 'postgres';

  private constructor(
    readonly dataDir: string,
    private readonly postgres: { adminUrl: string; name: string; url: string; database: Database },
  ) {}

  static async create(): Promise<CrashEnvironment> {
    const dataDir = fs.mkdtempSync(path.join(scratchRoot(), 'pakt-sign-crash-'));
    const { adminUrl } = testBackend();
    const name = `pakt_crash_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabaseName()}`);
    } finally {
      await admin.end();
    }
    const url = databaseUrl(adminUrl, name);
    // One connection: it is the only one that is ours when waiting for a killed server's to end.
    const database = await openDatabase({ url, poolSize: 1 });
    return new CrashEnvironment(dataDir, { adminUrl, name, url, database });
  }

  /**
   * The environment of the server process: nothing inherited but PATH and HOME. `extra` is laid
   * over it (scale-out.test.ts: S3 storage, jobs on, a data directory per process).
   */
  serverEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://localhost:3999',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // The job queue plays no part in a sign (its mail is an outbox row written in the sign's
      // transaction), and starting it is a good part of each restart.
      JOBS_ENABLED: 'false',
      DATA_DIR: this.dataDir,
      WEB_DIST_DIR: path.join(this.dataDir, 'no-web'),
      SEAL_KEY_ALGORITHM: 'ecdsa-p256',
      // Every call comes from 127.0.0.1: the shipped per-address limits would be a test's limit.
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
      DATABASE_URL: this.postgres.url,
      ...extra,
    };
  }

  /** Where the data is, to look at after a failure. */
  get location(): string {
    return `${this.dataDir} and database ${this.postgres.name}`;
  }

  startServer(extra: Record<string, string> = {}): Promise<ServerProcess> {
    return ServerProcess.start(this.serverEnv(extra));
  }

  get storageDir(): string {
    return path.join(this.dataDir, 'files');
  }

  get storage(): LocalFileStorage {
    return new LocalFileStorage(this.storageDir);
  }

  /** The database, read beside the server. */
  async withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return fn(this.postgres.database.db);
  }

  /**
   * What a killed server left, to read while the next one starts: the database itself, once every
   * connection of the killed server has ended (a COMMIT already sent is still carried out by its
   * backend; reading before that would race it).
   */
  async snapshotAfterKill(): Promise<{ read<T>(fn: (db: Db) => Promise<T>): Promise<T>; discard(): void }> {
    const database = this.postgres.database;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await database.executeSql(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()",
      );
      if ((rows[0] as { n: number }).n === 0) break;
      if (Date.now() > deadline) throw new Error('the killed server\'s connections did not end');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { read: (fn) => fn(database.db), discard: () => {} };
  }

  /** Removes the data directory and database; a failed run keeps its data directory to look at. */
  async dispose(options: { keepDataDir: boolean }): Promise<void> {
    await this.postgres.database.close();
    const admin = new pg.Client({ connectionString: this.postgres.adminUrl });
    await admin.connect();
    try {
      if (!options.keepDataDir) await admin.query(`DROP DATABASE IF EXISTS ${this.postgres.name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    if (!options.keepDataDir) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** What the database says of one ePak, and every way it is inconsistent (empty when it is not). */
export interface EpakObservation {
  status: string;
  currentStep: number | null;
  /** Recipient id → status. */
  recipientStatus: Map<string, string>;
  /** Recipient ids with a revision, in revision order. */
  revisedBy: string[];
  /** SHA-256 of the current file (the composed one when nobody has signed). */
  currentSha256: string;
  problems: string[];
}

/**
 * Reads one single-document ePak and checks what a sign must keep together: every revision's
 * tail is stored and the file they make hashes to the last revision's SHA-256, revisions follow
 * one another, a recipient is Signed iff they have a revision, the stored engine state is what
 * the engine makes of the ePak's start and those signatures in order, the activity has one
 * documentSigned per revision (with its hashes) and one signed per signer and its chain verifies,
 * and each notification the engine called for is in the outbox once.
 */
export async function observeEpak(db: Db, storage: LocalFileStorage, epakId: string): Promise<EpakObservation> {
  const problems: string[] = [];
  const [epak] = await db.select().from(epaks).where(eq(epaks.id, epakId));
  if (!epak) throw new Error(`ePak ${epakId} is missing`);
  const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId));
  if (docs.length !== 1) throw new Error(`ePak ${epakId} has ${docs.length} documents; the crash test composes one`);
  const doc = docs[0]!;
  const revisions = await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, doc.id)).orderBy(asc(epakDocumentRevisions.seq));
  const steps = await db.select().from(epakSteps).where(eq(epakSteps.epakId, epakId)).orderBy(asc(epakSteps.position));
  const recipients = await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, epakId)).orderBy(asc(epakRecipients.position));

  // The file: composed bytes + every tail, hashing to what the last revision says.
  let currentSha256 = revisions.at(-1)?.sha256 ?? doc.sha256;
  try {
    await readCurrentDocument(storage, doc, revisions);
  } catch (error) {
    problems.push(`the stored file does not rebuild: ${(error as Error).message}`);
    currentSha256 = 'unreadable';
  }
  revisions.forEach((revision, index) => {
    if (revision.seq !== index + 1) problems.push(`revision ${index + 1} has seq ${revision.seq}`);
    const predecessor = index === 0 ? doc.sha256 : revisions[index - 1]!.sha256;
    if (revision.predecessorSha256 !== predecessor) problems.push(`revision ${revision.seq} was appended to ${revision.predecessorSha256}, not ${predecessor}`);
    if (revision.size !== (index === 0 ? doc.size : revisions[index - 1]!.size) + revision.tailSize) problems.push(`revision ${revision.seq}: sizes do not add up`);
  });
  const revisedBy = revisions.map((revision) => revision.recipientId ?? 'removed');
  if (new Set(revisedBy).size !== revisedBy.length) problems.push(`a recipient has two revisions: ${revisedBy.join(', ')}`);

  // Signed iff revised.
  for (const recipient of recipients) {
    const revised = revisedBy.includes(recipient.id);
    if (revised !== (recipient.status === 'Signed')) problems.push(`recipient ${recipient.id} is ${recipient.status} with${revised ? '' : 'out'} a revision`);
  }

  // The engine's own account: start, then one sign per revision, in order.
  const draft: EngineState = {
    status: 'Draft',
    currentStep: null,
    steps: steps.map((step) => ({
      order: step.position,
      type: step.type as WorkflowStateType,
      recipients: recipients.filter((r) => r.stepId === step.id).map((r) => ({ recipientId: r.id, status: 'Pending' as SignerStatus })),
    })),
  };
  let replayed = transition(draft, { type: 'start' });
  for (const recipientId of revisedBy) {
    if (!replayed.ok) break;
    replayed = transition(replayed.state, { type: 'sign', recipientId });
  }
  const stored = (await loadEngineState(db, epak)).state;
  if (!replayed.ok) problems.push(`the engine refuses the signatures in revision order: ${replayed.code} ${replayed.reason}`);
  else if (JSON.stringify(replayed.state) !== JSON.stringify(stored)) {
    problems.push(`stored state ${JSON.stringify(stored)} is not the engine's ${JSON.stringify(replayed.state)}`);
  }
  if ((epak.status === 'Completed') !== (epak.endedAt !== null)) problems.push(`status ${epak.status} with endedAt ${String(epak.endedAt)}`);

  // The activity: one documentSigned per revision, one signed per signer, the chain whole.
  const activity = await loadActivity(db, epakId);
  const chain = await verifyActivityChain(db, epakId);
  if (!chain.ok) problems.push(`the activity chain breaks at ${chain.brokenAt}`);
  const documentSigned = activity.filter((entry) => entry.action === 'documentSigned');
  if (documentSigned.length !== revisions.length) problems.push(`${documentSigned.length} documentSigned entries for ${revisions.length} revisions`);
  documentSigned.forEach((entry, index) => {
    const details = entry.details as { revision?: number; before?: string; after?: string };
    const revision = revisions[index];
    if (revision && (details.revision !== revision.seq || details.after !== revision.sha256 || details.before !== revision.predecessorSha256)) {
      problems.push(`documentSigned #${index + 1} says revision ${details.revision} ${details.before}→${details.after}`);
    }
  });
  // One document per ePak: each revision is its signer's last document, so each comes with the step's `signed`.
  const signedEntries = activity.filter((entry) => entry.action === 'signed').length;
  if (signedEntries !== revisions.length) problems.push(`${signedEntries} signed entries for ${revisions.length} signers`);

  // The mail the engine's steps call for, each once (a retry must not send another).
  const mails = await db.select({ kind: outbox.kind, body: outbox.body }).from(outbox);
  const about = mails.filter((mail) => mail.body.includes(epakId));
  const count = (kind: string) => about.filter((mail) => mail.kind === kind).length;
  const reachedSteps = steps.filter((step) => replayed.ok && (replayed.state.currentStep === null ? replayed.state.status === 'Completed' : step.position <= replayed.state.currentStep));
  const expectedRequests = recipients.filter((r) => reachedSteps.some((step) => step.id === r.stepId)).length;
  if (count('epak_sign_request') !== expectedRequests) problems.push(`${count('epak_sign_request')} sign requests mailed, ${expectedRequests} expected`);
  // At the end everyone who took part (the owner and each signer, all members here) is mailed once.
  const completed = epak.status === 'Completed' ? new Set([epak.ownerId, ...recipients.filter((r) => r.status === 'Signed').map((r) => r.userId)]).size : 0;
  if (count('epak_completed') !== completed) problems.push(`${count('epak_completed')} completion mails, ${completed} expected`);

  return {
    status: epak.status,
    currentStep: epak.currentStep,
    recipientStatus: new Map(recipients.map((r) => [r.id, r.status])),
    revisedBy,
    currentSha256,
    problems,
  };
}

/** How many blobs a file store holds (its partial uploads in tmp/ left out). */
export function countStoredFiles(root: string): number {
  if (!fs.existsSync(root)) return 0;
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && path.relative(root, entry.parentPath).split(path.sep)[0] !== 'tmp').length;
}

/** qpdf --check exit statuses from best to worst: fine, warnings, errors. */
export function qpdfRank(status: number | null): number {
  return status === 0 ? 0 : status === 3 ? 1 : 2;
}

/** A small deterministic generator, so a run's delays can be drawn again from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
