import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  bindTemplateTags,
  BULK_FAILURES_PAGE_SIZE,
  type BulkCellError,
  type BulkComposeColumn,
  type BulkComposeFailure,
  type BulkComposeRun,
  bulkColumnName,
  bulkComposeLayout,
  bulkFailureCsvLine,
  bulkFailuresCsvHeader,
  type BulkLayout,
  bulkNoRowsError,
  bulkRecordLimitError,
  type BulkRowRecipient,
  type BulkTemplateStep,
  checkBulkHeader,
  DomainError,
  type EngineEffect,
  type EngineState,
  failedRecipientFilter,
  filledSteps,
  invalidInput,
  notFound,
  type PageGeometry,
  ResponseCode,
  resolveViewEnforced,
  signerVerificationRequired,
  type Role,
  type SigningPolicy,
  Tag,
  tagLayoutError,
  type TenantSettings,
  transition,
  validateBulkRow,
  toSingleLine,
  validateTagLayout,
  presetValueProblems,
  type WorkflowStateType,
  type WorkflowStepInput,
  fullName,
  displayName,
} from '@pakt/domain';
import { and, asc, count, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import {
  bulkComposeFailures,
  bulkComposeRuns,
  documentTemplates,
  epakActivities,
  epakLinks,
  epakDocuments,
  epakRecipients,
  epakSteps,
  epaks,
  memberships,
  notifications,
  outbox,
  users,
  workflows,
} from '../../platform/db/schema';
import { activityHash, GENESIS_HASH, type HashedActivity, appLink, queueEngineEffects, requestMail, checkSigners } from '../epaks';
import { digestSecret, generateSecret } from '../auth';
import { NOTIFICATION_CHANNEL, type NotificationSignal, stepRequestNotification } from '../notifications';
import { mailHeaderValue } from '../../platform/mail/outbox';
import { loadTenantSettings } from '../identity';
import type { FileStorage } from '../../platform/storage/file-storage';
import { csvRefusal, csvRows } from '../../platform/csv';
import { listStates } from '../workflows';

/**
 * Bulk compose (issue 8): a CSV of rows, each one ePak made from a document template and
 * started. The upload stores the file (streamed and hashed, never held whole) and makes the run;
 * the job streams it again, checks each row, records the refused ones and makes the good ones in
 * batches, each batch one transaction with the run's progress, so a job resumed after a crash
 * carries on after the last batch, and the unique (bulk_run_id, bulk_row) index keeps any row
 * from being made twice.
 */

type RunRow = typeof bulkComposeRuns.$inferSelect;
type TemplateRow = typeof documentTemplates.$inferSelect;
type Notify = { publicUrl: string; linkDays: number };

/** Rows made per transaction: large enough for multi-row inserts to pay, small enough to keep a batch's memory low. */
export const BULK_BATCH_ROWS = 200;

/**
 * No pause between batches: the database has a pool of connections (embedded or not), so other
 * requests do not queue behind a run. A test or a bench may still ask for one.
 */
export const BULK_BATCH_PAUSE_MS = 0;

export interface BulkTemplate {
  readonly row: TemplateRow;
  readonly steps: readonly (BulkTemplateStep & { workflowStateId: string })[];
  readonly layout: BulkLayout;
}

/** A tenant's document template with its workflow's steps, as bulk compose needs it (404 from another tenant). */
export async function loadBulkTemplate(db: Db, tenantId: string, docTemplateId: string): Promise<BulkTemplate> {
  const [row] = await db.select().from(documentTemplates).where(and(eq(documentTemplates.id, docTemplateId), eq(documentTemplates.tenantId, tenantId)));
  if (!row) throw notFound('No such document template.');
  const [workflow] = row.workflowId ? await db.select().from(workflows).where(and(eq(workflows.id, row.workflowId), eq(workflows.tenantId, tenantId))) : [];
  if (!workflow) {
    throw invalidInput('Bulk compose needs a document template linked to a workflow template: its steps say who each row goes to.', [
      { path: 'docTemplateId', message: 'no workflow' },
    ]);
  }
  const steps = (workflow.steps as z.infer<typeof WorkflowStepInput>[]).map((step, index) => ({ order: index + 1, workflowStateId: step.workflowStateId, recipients: step.recipients }));
  // Read through the schema: stored tags get the defaults of fields added since they were written.
  const tags = z.array(Tag).parse(row.tags);
  return { row: { ...row, tags }, steps, layout: bulkComposeLayout({ tags, steps }) };
}

export function describeColumns(template: BulkTemplate): BulkComposeColumn[] {
  return template.layout.columns.map((column) => ({
    name: column.name,
    mandatory: column.mandatory,
    label: column.place ? (template.layout.places.find((p) => p.stepOrder === column.place!.stepOrder && p.position === column.place!.position)?.label ?? '') : (column.tagName ?? ''),
  }));
}

/**
 * A check that sits between the upload and the disk: it reads the CSV as it passes, refuses a bad
 * header at once (-182, -181, -175) and a file past the record limit as soon as it is (-143), and
 * counts the rows. Nothing but the row being read is kept.
 */
export function bulkFileCheck(layout: BulkLayout, maxRows: number) {
  const rows = csvRows();
  const seen = { header: null as string[] | null, rows: 0 };
  // A refusal found while reading rows; it fails the next chunk, or the end of the file.
  let refused: Error | null = null;
  const take = (rows: string[][]) => {
    for (const row of rows) {
      if (!seen.header) {
        const problem = checkBulkHeader(row, layout);
        if (problem) throw problem;
        seen.header = row.map((name) => name.trim());
      } else if (++seen.rows > maxRows) throw bulkRecordLimitError(maxRows);
    }
  };
  rows.on('data', (row: string[]) => {
    if (refused) return;
    try {
      take([row]);
    } catch (error) {
      refused = error as Error;
    }
  });
  rows.on('error', (error) => {
    refused ??= csvRefusal(error) as Error;
  });
  const ended = new Promise<void>((resolve) => {
    rows.once('end', resolve);
    rows.once('error', () => resolve());
  });
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (refused) return callback(refused);
      // The chunk goes on once the parser has taken it: a file refused midway stops at the next one.
      rows.write(chunk, () => callback(refused, refused ? undefined : chunk));
    },
    flush(callback) {
      rows.end();
      void ended.then(() => callback(refused));
    },
    destroy(error, callback) {
      rows.destroy();
      callback(error);
    },
  });
  return { transform, seen };
}

function present(run: RunRow, templateName: string | null): BulkComposeRun {
  const error = run.error as { code: number; message: string } | null;
  return {
    runId: run.id,
    docTemplateId: run.templateId,
    templateName,
    fileName: run.fileName,
    status: run.status,
    totalRows: run.totalRows,
    processedRows: run.processedRows,
    createdEpaks: run.createdEpaks,
    failedRows: run.failedRows,
    code: error ? error.code : run.failedRows > 0 ? ResponseCode.BULK_COMPOSE_CSV_VALIDATION.code : 1,
    message: error ? error.message : run.failedRows > 0 ? `${run.failedRows} row(s) were refused; download them, correct them and upload them again.` : null,
    createdOn: run.createdAt.toISOString(),
    startedOn: run.startedAt?.toISOString() ?? null,
    finishedOn: run.finishedAt?.toISOString() ?? null,
  };
}

/** A file name to show: the uploaded one, tidied. */
const nameOf = (fileName: string | undefined) => ((fileName ?? '').split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim().slice(0, 200) || 'bulk.csv';

/**
 * Stores an uploaded file and makes its run. The same file for the same template (by content)
 * answers the run it made before, and queues it again only when it had failed, to carry on where
 * it stopped. `queued` says whether the caller should send the job (after this has committed).
 */
export async function uploadBulkFile(options: {
  db: Db;
  storage: FileStorage;
  actor: { tenantId: string; userId: string };
  docTemplateId: string;
  fileName: string | undefined;
  content: Readable;
  maxRows: number;
  /** Whether the upload stopped at the byte limit (busboy's truncated flag, read after the stream ends). */
  truncated: () => boolean;
  maxBytes: number;
}): Promise<{ run: BulkComposeRun; existing: boolean; queued: boolean }> {
  const { db, actor } = options;
  const template = await loadBulkTemplate(db, actor.tenantId, options.docTemplateId);
  const check = bulkFileCheck(template.layout, options.maxRows);
  const stored = await options.storage.put(options.content, [check.transform]);
  if (options.truncated()) {
    throw new DomainError(ResponseCode.INVALID_INPUT, `The file is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB.`, {
      httpStatus: 413,
      issues: [{ path: 'file', message: 'maxSizeExceeded' }],
    });
  }
  if (!check.seen.header) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The file is empty.');
  if (check.seen.rows === 0) throw bulkNoRowsError();
  const [made] = await db
    .insert(bulkComposeRuns)
    .values({
      tenantId: actor.tenantId,
      ownerId: actor.userId,
      templateId: template.row.id,
      fileName: nameOf(options.fileName),
      fileSha256: stored.sha256,
      fileSize: stored.size,
      totalRows: check.seen.rows,
    })
    .onConflictDoNothing()
    .returning();
  if (made) return { run: present(made, template.row.name), existing: false, queued: true };
  const [earlier] = await db
    .select()
    .from(bulkComposeRuns)
    .where(and(eq(bulkComposeRuns.tenantId, actor.tenantId), eq(bulkComposeRuns.templateId, template.row.id), eq(bulkComposeRuns.fileSha256, stored.sha256)));
  if (!earlier) throw new Error('bulk run vanished');
  if (earlier.status === 'failed') {
    const [again] = await db.update(bulkComposeRuns).set({ status: 'queued', error: null, finishedAt: null }).where(and(eq(bulkComposeRuns.id, earlier.id), eq(bulkComposeRuns.status, 'failed'))).returning();
    if (again) return { run: present(again, template.row.name), existing: true, queued: true };
  }
  return { run: present(earlier, template.row.name), existing: true, queued: false };
}

async function loadOwnRun(db: Db, actor: { tenantId: string; userId: string }, runId: string): Promise<{ run: RunRow; templateName: string | null }> {
  const [found] = await db
    .select({ run: bulkComposeRuns, templateName: documentTemplates.name })
    .from(bulkComposeRuns)
    .leftJoin(documentTemplates, eq(documentTemplates.id, bulkComposeRuns.templateId))
    .where(and(eq(bulkComposeRuns.id, runId), eq(bulkComposeRuns.tenantId, actor.tenantId), eq(bulkComposeRuns.ownerId, actor.userId)));
  if (!found) throw notFound('No such bulk compose run.');
  return found;
}

export async function listBulkRuns(db: Db, actor: { tenantId: string; userId: string }): Promise<BulkComposeRun[]> {
  const rows = await db
    .select({ run: bulkComposeRuns, templateName: documentTemplates.name })
    .from(bulkComposeRuns)
    .leftJoin(documentTemplates, eq(documentTemplates.id, bulkComposeRuns.templateId))
    .where(and(eq(bulkComposeRuns.tenantId, actor.tenantId), eq(bulkComposeRuns.ownerId, actor.userId)))
    .orderBy(desc(bulkComposeRuns.createdAt))
    .limit(50);
  return rows.map((row) => present(row.run, row.templateName));
}

/** The header of a run's file: its first line, read from the stored file. */
async function readHeader(storage: FileStorage, sha256: string): Promise<string[]> {
  const stream = await storage.get(sha256);
  const rows = csvRows();
  pipeline(stream, rows, () => undefined);
  try {
    for await (const row of rows) return (row as string[]).map((name) => name.trim());
    return [];
  } catch (error) {
    throw csvRefusal(error);
  } finally {
    stream.destroy();
  }
}

export async function getBulkRun(options: { db: Db; storage: FileStorage; actor: { tenantId: string; userId: string }; runId: string; page: number }) {
  const { run, templateName } = await loadOwnRun(options.db, options.actor, options.runId);
  const failures = await options.db
    .select()
    .from(bulkComposeFailures)
    .where(eq(bulkComposeFailures.runId, run.id))
    .orderBy(asc(bulkComposeFailures.rowNumber))
    .limit(BULK_FAILURES_PAGE_SIZE)
    .offset((options.page - 1) * BULK_FAILURES_PAGE_SIZE);
  return {
    run: present(run, templateName),
    header: await readHeader(options.storage, run.fileSha256),
    failures: failures.map((f): BulkComposeFailure => ({ row: f.rowNumber, cells: f.cells as string[], errors: f.errors as BulkCellError[] })),
    page: options.page,
    pageSize: BULK_FAILURES_PAGE_SIZE,
  };
}

/** The refused rows as CSV, read from the database a page at a time and streamed out. */
export async function streamBulkFailures(options: { db: Db; storage: FileStorage; actor: { tenantId: string; userId: string }; runId: string }) {
  const { run } = await loadOwnRun(options.db, options.actor, options.runId);
  const header = await readHeader(options.storage, run.fileSha256);
  const { db } = options;
  async function* lines() {
    yield Buffer.from(bulkFailuresCsvHeader(header));
    let after = 0;
    for (;;) {
      const page = await db
        .select()
        .from(bulkComposeFailures)
        .where(and(eq(bulkComposeFailures.runId, run.id), gt(bulkComposeFailures.rowNumber, after)))
        .orderBy(asc(bulkComposeFailures.rowNumber))
        .limit(1000);
      if (page.length === 0) return;
      yield Buffer.from(page.map((f) => bulkFailureCsvLine(header, f.cells as string[], f.errors as BulkCellError[])).join(''));
      after = page.at(-1)!.rowNumber;
    }
  }
  // The size is known only once written; the failures of a run are bounded by its rows, so they are gathered.
  const chunks: Buffer[] = [];
  for await (const chunk of lines()) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  return { body, fileName: `${nameOf(run.fileName).replace(/\.csv$/i, '')}-failed-rows.csv` };
}

interface PendingRow {
  readonly rowNumber: number;
  readonly cells: string[];
}

interface Work {
  readonly db: Db;
  readonly run: RunRow;
  readonly template: BulkTemplate;
  readonly header: string[];
  readonly states: ReadonlyMap<string, { id: string; name: string; type: string }>;
  readonly settings: TenantSettings;
  readonly notify: Notify;
  /** The uploader's name, as the request mail and notification give it. */
  readonly ownerName: string;
}

type UserInfo = { id: string; email: string; firstName: string; lastName: string; status: string; disabledAt: Date | null; verified: boolean; membership: string | null; role: string | null };

/** Each row's people as users: existing ones checked as compose checks them, unknown ones invited as external users. */
async function resolvePeople(
  tx: Db,
  work: Work,
  rows: { rowNumber: number; people: BulkRowRecipient[]; columns: ReadonlyMap<string, string> }[],
  fail: (rowNumber: number, error: BulkCellError) => void,
) {
  const emails = [...new Set(rows.flatMap((row) => row.people.map((p) => p.email)))];
  const found = new Map<string, UserInfo>();
  const load = async (list: string[]) => {
    if (list.length === 0) return;
    const known = await tx
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, status: users.status, disabledAt: users.disabledAt, verifiedAt: users.emailVerifiedAt, membership: memberships.status, role: memberships.role })
      .from(users)
      .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantId, work.run.tenantId)))
      .where(inArray(users.email, list));
    for (const k of known) found.set(k.email, { ...k, verified: k.verifiedAt !== null });
  };
  await load(emails);
  const filters = work.settings;
  const skipNewUsers = work.settings.skipNewUsers ?? false;
  const newPeople = new Map<string, BulkRowRecipient>();
  for (const row of rows) {
    for (const person of row.people) {
      const user = found.get(person.email);
      const field = row.columns.get(person.email) ?? null;
      if (user) {
        if (user.disabledAt || user.membership === 'disabled') fail(row.rowNumber, { field, code: ResponseCode.USER_DISABLED.code, message: `${person.email} is disabled: contact your administrator.` });
        else if (user.status === 'cancelInvitation') fail(row.rowNumber, { field, code: ResponseCode.INVITATION_CANCELLED.code, message: `The invitation of ${person.email} was cancelled.` });
      } else if (skipNewUsers) fail(row.rowNumber, { field, code: ResponseCode.USER_DOES_NOT_EXIST.code, message: `${person.email} is not a user here, and new users are not invited.` });
      else if (!newPeople.has(person.email)) newPeople.set(person.email, person);
      const failed = failedRecipientFilter(filters, { email: person.email, verified: user?.verified ?? false, role: (user?.role as Role | null | undefined) ?? null });
      if (failed) fail(row.rowNumber, { field, code: ResponseCode.INVALID_INPUT.code, message: `invalid filter: ${failed}` });
    }
  }
  if (newPeople.size > 0) {
    await tx
      .insert(users)
      .values(
        [...newPeople.values()].map((p) => ({
          email: p.email,
          // The names the row gives; the address's local part when it gave none (a fixed person).
          firstName: p.firstName || p.email.split('@')[0]!,
          lastName: p.lastName,
          phone: p.phone,
          type: 'external' as const,
          status: 'admininvited',
          passwordHash: null,
        })),
      )
      .onConflictDoNothing();
    await load([...newPeople.keys()]);
  }
  return found;
}

/**
 * An ePak's subject: the template's name and the row's first named person ("Loan agreement – Ravi
 * Patil"), so a thousand ePaks of one file can be told apart in the inbox and the mail.
 */
function subjectOf(template: TemplateRow, steps: readonly { recipients: readonly BulkRowRecipient[] }[]): string {
  const person = steps.flatMap((step) => step.recipients).find((recipient) => recipient.firstName || recipient.lastName);
  const name = person ? fullName(person) : '';
  // One line, as every subject: a CSV cell may hold a quoted line break.
  return toSingleLine(name ? `${template.name} – ${name}` : template.name).trim().slice(0, 200);
}

type CheckedRow = { rowNumber: number; steps: { order: number; recipients: BulkRowRecipient[] }[]; tags: Tag[]; columns: Map<string, string> };
/** A batch after the checks that need no database: its good rows, and the errors of the others. */
interface CheckedBatch {
  readonly rows: readonly PendingRow[];
  readonly good: readonly CheckedRow[];
  readonly failures: Map<number, BulkCellError[]>;
}
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 25;

/**
 * The checks of a batch that need no database: the cells, the template's fields bound to the
 * row's people, the layout and the signers. The run checks a batch while the one before it is
 * written, so it hands the event loop back every few rows: the statements of the batch being
 * written are answered and sent on while this one is checked, and Node and PostgreSQL work at the
 * same time instead of taking turns.
 */
async function checkBatch(work: Work, batch: readonly PendingRow[]): Promise<CheckedBatch> {
  const { template } = work;
  const failures = new Map<number, BulkCellError[]>();
  const fail = (rowNumber: number, error: BulkCellError) => failures.set(rowNumber, [...(failures.get(rowNumber) ?? []), error]);
  const good: CheckedRow[] = [];
  const pages = template.row.pages as PageGeometry[];
  const policy = template.row.signingPolicy as SigningPolicy;
  for (const [at, row] of batch.entries()) {
    if (at > 0 && at % CHECK_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const checked = validateBulkRow({ header: work.header, cells: row.cells, layout: template.layout, steps: template.steps });
    if (!checked.ok) {
      for (const error of checked.errors) fail(row.rowNumber, error);
      continue;
    }
    // Slots are bound by place, so empty places stay where they are until the tags are bound.
    const slotSteps = checked.steps.map((step) => ({ order: step.order, recipients: step.recipients.map((r) => r ?? { email: '' }) }));
    const tags = bindTemplateTags(template.row.tags as Tag[], slotSteps, checked.values);
    const steps = filledSteps(checked.steps);
    // The email column of the place each address fills, to name it in a refusal (none for a fixed person).
    const columns = new Map<string, string>();
    checked.steps.forEach((step) =>
      step.recipients.forEach((recipient, at) => {
        if (recipient && template.steps[step.order - 1]!.recipients[at]!.type === 'placeholder') columns.set(recipient.email, bulkColumnName(step.order, at + 1, 'email'));
      }),
    );
    const layoutError = tagLayoutError([...validateTagLayout({ tags, pages, policy }), ...presetValueProblems(tags)]);
    if (layoutError) {
      fail(row.rowNumber, { field: null, code: layoutError.code, message: layoutError.message });
      continue;
    }
    const signerRows = steps.flatMap((step) => step.recipients.map((r) => ({ email: r.email, order: step.order, type: work.states.get(template.steps[step.order - 1]!.workflowStateId)!.type })));
    const signers = checkSigners([tags], signerRows);
    if (signers.error) {
      fail(row.rowNumber, { field: null, code: signers.error.code, message: signers.error.message });
      continue;
    }
    good.push({ rowNumber: row.rowNumber, steps, tags, columns });
  }
  return { rows: batch, good, failures };
}

/**
 * Makes one checked batch, in one transaction with the run's progress: refused rows are recorded
 * with their errors; each good row becomes an ePak, composed and started as compose and start
 * would (the engine's start transition, the activity chain, the first step's mail). Rows made
 * before a crash are left alone. Answers how many ePaks it made.
 */
async function processBatch(work: Work, checked: CheckedBatch): Promise<number> {
  const { template, run } = work;
  const batch = checked.rows;
  const last = batch.at(-1)!.rowNumber;
  return await work.db.transaction(async (tx) => {
    const already = new Set(
      (
        await tx
          .select({ row: epaks.bulkRow })
          .from(epaks)
          .where(and(eq(epaks.bulkRunId, run.id), inArray(epaks.bulkRow, batch.map((row) => row.rowNumber))))
      ).map((row) => row.row),
    );
    // A row made before a crash passed these checks then; it is neither made nor refused again.
    const failures = new Map([...checked.failures].filter(([rowNumber]) => !already.has(rowNumber)));
    const fail = (rowNumber: number, error: BulkCellError) => failures.set(rowNumber, [...(failures.get(rowNumber) ?? []), error]);
    const good = checked.good.filter((row) => !already.has(row.rowNumber));
    const people = await resolvePeople(tx, work, good.map((row) => ({ rowNumber: row.rowNumber, people: row.steps.flatMap((s) => s.recipients), columns: row.columns })), fail);
    const made = good.filter((row) => !failures.has(row.rowNumber));

    const now = new Date();
    const settings = work.settings;
    const viewEnforced = resolveViewEnforced(settings.viewEnforceOption, undefined);
    const epakRows: (typeof epaks.$inferInsert)[] = [];
    const documentRows: (typeof epakDocuments.$inferInsert)[] = [];
    const stepRows: (typeof epakSteps.$inferInsert)[] = [];
    const recipientRows: (typeof epakRecipients.$inferInsert)[] = [];
    const activityRows: (typeof epakActivities.$inferInsert)[] = [];
    const effectsOf: StartEffects[] = [];
    for (const row of made) {
      const epakId = randomUUID();
      const engineSteps = row.steps.map((step) => {
        const stepId = randomUUID();
        const state = work.states.get(template.steps[step.order - 1]!.workflowStateId)!;
        stepRows.push({ id: stepId, epakId, position: step.order, workflowStateId: state.id, name: state.name, type: state.type });
        const recipients = step.recipients.map((recipient, at) => {
          const id = randomUUID();
          // No per-recipient choice in a CSV run: the tenant's verification mode's default holds.
          const verificationRequired = signerVerificationRequired(settings.verificationMode, state.type as WorkflowStateType);
          recipientRows.push({ id, epakId, stepId, userId: people.get(recipient.email)!.id, position: at + 1, verificationRequired });
          return { recipientId: id, status: 'Pending' as const };
        });
        return { order: step.order, type: state.type as WorkflowStateType, recipients };
      });
      const draft: EngineState = { status: 'Draft', currentStep: null, steps: engineSteps };
      const started = transition(draft, { type: 'start' });
      if (!started.ok) {
        fail(row.rowNumber, { field: null, code: ResponseCode[started.code].code, message: started.reason });
        stepRows.splice(stepRows.length - engineSteps.length);
        recipientRows.splice(recipientRows.length - engineSteps.reduce((n, s) => n + s.recipients.length, 0));
        continue;
      }
      const statusOf = new Map(started.state.steps.flatMap((step) => step.recipients.map((r) => [r.recipientId, r.status])));
      for (const recipient of recipientRows) if (recipient.epakId === epakId) recipient.status = statusOf.get(recipient.id!) ?? 'Pending';
      epakRows.push({
        id: epakId,
        tenantId: run.tenantId,
        ownerId: run.ownerId,
        subject: subjectOf(template.row, row.steps),
        message: null,
        status: started.state.status,
        signingPolicy: template.row.signingPolicy,
        workflowId: template.row.workflowId,
        viewEnforced,
        startedAt: now,
        currentStep: started.state.currentStep,
        expiresAt: settings.ePakExpiryDays ? new Date(now.getTime() + settings.ePakExpiryDays * 86_400_000) : null,
        archivalPeriodDays: settings.ePakRetentionDays ?? null,
        docTemplateId: template.row.id,
        bulkRunId: run.id,
        bulkRow: row.rowNumber,
        updatedAt: now,
      });
      documentRows.push({
        epakId,
        sourceDocumentId: null,
        position: 1,
        name: template.row.documentName,
        sha256: template.row.sha256,
        size: template.row.size,
        pageCount: template.row.pageCount,
        pages: template.row.pages,
        tags: row.tags,
      });
      // The same two entries compose and start record, chained from the genesis hash.
      const composed: HashedActivity = {
        epakId,
        seq: 1,
        actorId: run.ownerId,
        action: 'composed',
        details: { documents: 1, steps: row.steps.length, bulkRunId: run.id, bulkRow: row.rowNumber },
        ip: null,
        at: now,
      };
      const composedHash = activityHash(GENESIS_HASH, composed);
      const startedEntry: HashedActivity = {
        epakId,
        seq: 2,
        actorId: run.ownerId,
        action: 'started',
        details: JSON.parse(JSON.stringify({ documents: 1, signers: signerCount(row, work), signatureFields: countSignatureFields(row.tags), effects: started.effects })) as unknown,
        ip: null,
        at: now,
      };
      activityRows.push({ ...composed, prevHash: GENESIS_HASH, hash: composedHash }, { ...startedEntry, prevHash: composedHash, hash: activityHash(composedHash, startedEntry) });
      effectsOf.push({ epakId, subject: epakRows.at(-1)!.subject, effects: started.effects });
    }
    if (epakRows.length > 0) {
      await tx.insert(epaks).values(epakRows);
      await tx.insert(epakDocuments).values(documentRows);
      await tx.insert(epakSteps).values(stepRows);
      await tx.insert(epakRecipients).values(recipientRows);
      await tx.insert(epakActivities).values(activityRows);
      await queueStartEffects(tx, work, effectsOf, new Map(recipientRows.map((r) => [r.id!, r.userId])), people);
    }
    const refused = [...failures.entries()];
    // Counted as inserted: a row refused before a crash is not counted twice when the batch is redone.
    let newlyRefused = 0;
    if (refused.length > 0) {
      const cellsOf = new Map(batch.map((row) => [row.rowNumber, row.cells]));
      const inserted = await tx
        .insert(bulkComposeFailures)
        .values(refused.map(([rowNumber, errors]) => ({ runId: run.id, rowNumber, cells: cellsOf.get(rowNumber)!, errors })))
        .onConflictDoNothing()
        .returning({ row: bulkComposeFailures.rowNumber });
      newlyRefused = inserted.length;
    }
    await tx
      .update(bulkComposeRuns)
      .set({
        processedRows: last,
        createdEpaks: sql`${bulkComposeRuns.createdEpaks} + ${epakRows.length}`,
        failedRows: sql`${bulkComposeRuns.failedRows} + ${newlyRefused}`,
      })
      .where(eq(bulkComposeRuns.id, run.id));
    return epakRows.length;
  });
}

type StartEffects = { epakId: string; subject: string; effects: readonly EngineEffect[] };

/**
 * The tables a run's batches grow, directly or through the inbox and tag-value triggers. Their
 * statistics steer the plans of every batch statement and of the triggers' plpgsql (whose cached
 * plans PostgreSQL replans when a table is analyzed).
 */
const GROWN_TABLES = [
  'epaks',
  'epak_documents',
  'epak_steps',
  'epak_recipients',
  'epak_activities',
  'epak_links',
  'epak_inbox',
  'epak_tag_values',
  'outbox',
  'notifications',
  'users',
] as const;
/** Fewer ePaks than this are too few to plan differently for. */
const ANALYZE_AFTER_AT_LEAST = 1_000;

/**
 * Analyzes the tables a run grows each time it has made as many ePaks as the statistics counted
 * (so at most about log2 of the run's size times). Autovacuum does this too, but only on its own
 * clock (a minute's naptime by default, then 10% growth): on a new install, the first big run made
 * its first 20,000 ePaks at two thirds of the later rate, with plans made for empty tables
 * (docs/benchmarks.md, bulk compose). Where the database refuses (a role that does not own the
 * tables only gets a warning), nothing changes but the speed.
 */
function growthAnalyzer(db: Db, atLeast = ANALYZE_AFTER_AT_LEAST) {
  let known: number | null = null;
  let sinceAnalyze = 0;
  const epaksCounted = async () => {
    const result = (await db.execute(sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'epaks'::regclass`)) as unknown as { rows: { n: number }[] };
    return Number(result.rows[0]?.n ?? 0);
  };
  return async (made: number) => {
    known ??= await epaksCounted();
    sinceAnalyze += made;
    if (sinceAnalyze < Math.max(known, atLeast)) return;
    await db.execute(sql.raw(`ANALYZE ${GROWN_TABLES.join(', ')}`));
    sinceAnalyze = 0;
    known = await epaksCounted();
  };
}

/**
 * What starting a batch's ePaks calls for, queued as startEpak queues it (queueEngineEffects) but
 * in a few multi-row inserts: the request mail of the first step's people (requestMail, with the
 * app link for active members and a signing link for everyone else) and the in-app notification
 * for members (stepRequestNotification, announced with NOTIFY). Any other effect (an EMAIL or
 * in-person step first, a workflow ended at once) goes through queueEngineEffects itself.
 */
async function queueStartEffects(tx: Db, work: Work, items: readonly StartEffects[], userOfRecipient: ReadonlyMap<string, string>, people: ReadonlyMap<string, UserInfo>) {
  const byId = new Map([...people.values()].map((person) => [person.id, person]));
  const links: (typeof epakLinks.$inferInsert)[] = [];
  const mails: (typeof outbox.$inferInsert)[] = [];
  const notes: (typeof notifications.$inferInsert)[] = [];
  const expiresAt = new Date(Date.now() + work.notify.linkDays * 86_400_000);
  for (const item of items) {
    const plain = item.effects.every((effect) => effect.type === 'notifyStep' && (effect.stepType === 'SIGN' || effect.stepType === 'REVIEW'));
    if (!plain) {
      await queueEngineEffects(tx, { epakId: item.epakId, effects: item.effects, ...work.notify });
      continue;
    }
    const { subject } = item;
    for (const effect of item.effects) {
      if (effect.type !== 'notifyStep' || (effect.stepType !== 'SIGN' && effect.stepType !== 'REVIEW')) continue;
      const note = stepRequestNotification(effect.stepType, work.ownerName, subject);
      for (const recipientId of effect.recipientIds) {
        const person = byId.get(userOfRecipient.get(recipientId)!)!;
        let link: string;
        if (person.membership === 'active') link = appLink(work.notify.publicUrl, { id: item.epakId, tenantId: work.run.tenantId });
        else {
          const token = generateSecret('pks');
          links.push({ epakId: item.epakId, recipientId, tokenHash: digestSecret(token), expiresAt });
          link = `${work.notify.publicUrl}/emailsign?token=${encodeURIComponent(token)}`;
        }
        const mail = requestMail({ kind: effect.stepType === 'REVIEW' ? 'review_request' : 'sign_request', review: effect.stepType === 'REVIEW', epak: { subject, message: null }, sender: work.ownerName, person, link });
        mails.push({ tenantId: work.run.tenantId, channel: 'email', recipient: mailHeaderValue(person.email), subject: mailHeaderValue(mail.subject), body: mail.body, kind: mail.kind });
        if (person.membership !== null) notes.push({ tenantId: work.run.tenantId, userId: person.id, type: note.type, epakId: item.epakId, title: note.title, body: note.body });
      }
    }
  }
  if (links.length > 0) await tx.insert(epakLinks).values(links);
  if (mails.length > 0) await tx.insert(outbox).values(mails);
  if (notes.length > 0) {
    const inserted = await tx.insert(notifications).values(notes).returning({ id: notifications.id, userId: notifications.userId, tenantId: notifications.tenantId });
    const signals = inserted.map((row) => sql`(${JSON.stringify({ id: row.id, userId: row.userId, tenantId: row.tenantId } satisfies NotificationSignal)})`);
    await tx.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, v.signal) from (values ${sql.join(signals, sql`, `)}) as v(signal)`);
  }
}

function signerCount(row: { steps: { order: number; recipients: BulkRowRecipient[] }[] }, work: Work): number {
  return row.steps
    .filter((step) => ['SIGN', 'INPERSONSIGN'].includes(work.states.get(work.template.steps[step.order - 1]!.workflowStateId)!.type))
    .reduce((n, step) => n + step.recipients.length, 0);
}

function countSignatureFields(tags: readonly Tag[]): number {
  return checkSigners([tags], []).signatureTags.length;
}

async function failRun(db: Db, runId: string, error: { code: number; message: string }) {
  await db.update(bulkComposeRuns).set({ status: 'failed', error, finishedAt: new Date() }).where(eq(bulkComposeRuns.id, runId));
}

/** The process is stopping (a deploy, a restart): the run ends its batch in flight and waits for another. */
class StopRequested extends Error {}

/**
 * Works one run: claims it (queued, or running after a crash), streams its file from the row after
 * the last batch made, and makes the ePaks. Answers the run's end state, or null when there was
 * nothing to do (completed, failed, or another worker's). When `signal` aborts (the process is
 * stopping), the batch being written ends, the run goes back to queued with its progress, and the
 * answer is 'stopped'.
 */
export async function runBulkCompose(options: { db: Db; storage: FileStorage; runId: string; notify: Notify; batchRows?: number; pauseMs?: number; analyzeAfterAtLeast?: number; onBatch?: (run: { processedRows: number }) => void; signal?: AbortSignal }): Promise<'completed' | 'failed' | 'stopped' | null> {
  const { db } = options;
  const [run] = await db
    .update(bulkComposeRuns)
    .set({ status: 'running', startedAt: sql`coalesce(${bulkComposeRuns.startedAt}, now())` })
    .where(and(eq(bulkComposeRuns.id, options.runId), inArray(bulkComposeRuns.status, ['queued', 'running'])))
    .returning();
  if (!run) return null;
  let writing: Promise<void> = Promise.resolve();
  try {
    const [owner] = await db
      .select({ status: memberships.status, disabledAt: users.disabledAt, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, run.tenantId), eq(memberships.userId, run.ownerId)));
    if (!owner || owner.status !== 'active' || owner.disabledAt) {
      await failRun(db, run.id, { code: ResponseCode.USER_DISABLED.code, message: 'Whoever uploaded the file is no longer an active member here.' });
      return 'failed';
    }
    if (!run.templateId) {
      await failRun(db, run.id, { code: notFound('').code, message: 'The document template was deleted.' });
      return 'failed';
    }
    const template = await loadBulkTemplate(db, run.tenantId, run.templateId);
    const states = new Map((await listStates(db, run.tenantId)).map((state) => [state.id, state]));
    const lost = template.steps.find((step) => !states.has(step.workflowStateId));
    if (lost) {
      await failRun(db, run.id, { code: ResponseCode.INVALID_INPUT.code, message: `Step ${lost.order} of the workflow names a workflow state that no longer exists.` });
      return 'failed';
    }
    const work0 = { db, run, template, states, settings: await loadTenantSettings(db, run.tenantId), notify: options.notify, ownerName: displayName(owner) };
    const stream = await options.storage.get(run.fileSha256);
    const rows = csvRows();
    pipeline(stream, rows, () => undefined);
    const batchRows = options.batchRows ?? BULK_BATCH_ROWS;
    const pauseMs = options.pauseMs ?? BULK_BATCH_PAUSE_MS;
    let header: string[] | null = null;
    let rowNumber = 0;
    let batch: PendingRow[] = [];
    const analyzeAsItGrows = growthAnalyzer(db, options.analyzeAfterAtLeast);
    // One batch is written at a time, in row order, so the run's progress only moves forward; the
    // next batch is read and checked while it is (checkBatch). The write in flight always has a
    // handler, so its failure waits to be rethrown where it is awaited.
    const write = async (checked: CheckedBatch) => {
      const made = await processBatch({ ...work0, header: header! }, checked);
      await analyzeAsItGrows(made);
      options.onBatch?.({ processedRows: checked.rows.at(-1)!.rowNumber });
      if (pauseMs > 0) await sleep(pauseMs);
    };
    const flush = async () => {
      if (batch.length === 0) return;
      const pending = batch;
      batch = [];
      const checked = await checkBatch({ ...work0, header: header! }, pending);
      await writing;
      if (options.signal?.aborted) throw new StopRequested();
      writing = write(checked);
      writing.catch(() => undefined);
    };
    const take = async (rows: string[][]) => {
      for (const cells of rows) {
        if (!header) {
          header = cells.map((name) => name.trim());
          const problem = checkBulkHeader(header, template.layout);
          if (problem) throw problem;
          continue;
        }
        rowNumber++;
        // Rows up to the last batch made were done before a crash; they are only counted.
        if (rowNumber <= run.processedRows) continue;
        batch.push({ rowNumber, cells });
        if (batch.length >= batchRows) await flush();
      }
    };
    try {
      for await (const cells of rows) await take([cells as string[]]);
    } catch (error) {
      throw csvRefusal(error);
    }
    await flush();
    await writing;
    await db.update(bulkComposeRuns).set({ status: 'completed', totalRows: rowNumber, finishedAt: new Date() }).where(eq(bulkComposeRuns.id, run.id));
    return 'completed';
  } catch (error) {
    // A batch still being written ends first, so nothing moves the run on after it has failed.
    await writing.catch(() => undefined);
    if (error instanceof StopRequested) {
      // Back in the queue with its progress: the sweep (any process's, once a minute) carries it
      // on after the last batch written, as after an upload whose job was never sent.
      await db
        .update(bulkComposeRuns)
        .set({ status: 'queued' })
        .where(and(eq(bulkComposeRuns.id, run.id), eq(bulkComposeRuns.status, 'running')));
      return 'stopped';
    }
    const known = error instanceof DomainError ? { code: error.code, message: error.message } : { code: ResponseCode.GENERIC_ERROR.code, message: 'The run stopped on an unexpected error; upload the same file again to carry on.' };
    await failRun(db, run.id, known);
    if (!(error instanceof DomainError)) throw error;
    return 'failed';
  }
}

/** Runs whose job was never sent (a crash between commit and send): the sweep picks them up. */
export async function sweepBulkComposeRuns(options: { db: Db; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  const waiting = await options.db
    .select({ id: bulkComposeRuns.id })
    .from(bulkComposeRuns)
    .where(and(eq(bulkComposeRuns.status, 'queued'), lt(bulkComposeRuns.createdAt, new Date(now.getTime() - 60_000))))
    .orderBy(asc(bulkComposeRuns.createdAt))
    .limit(20);
  return waiting.map((w) => w.id);
}

/** How many ePaks a run has made (for tests and the bench). */
export async function countRunEpaks(db: Db, runId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(epaks).where(eq(epaks.bulkRunId, runId));
  return row?.n ?? 0;
}
