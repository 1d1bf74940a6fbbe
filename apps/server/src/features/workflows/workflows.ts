import {
  BUILT_IN_WORKFLOW_STATE_NAMES,
  DomainError,
  enforce,
  fullName,
  invalidInput,
  notFound,
  ResponseCode,
  type Role,
  signerCountOf,
  type WorkflowStateDefinition,
  type WorkflowStateType,
  type WorkflowTemplate,
  type WorkflowTemplateInput,
  WORKFLOW_STATE_TYPES,
} from '@pakt/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { recordAdminAction } from '../../platform/audit-log';
import { users, workflowStates, workflows } from '../../platform/db/schema';

type StateRow = typeof workflowStates.$inferSelect;
type WorkflowRow = typeof workflows.$inferSelect;
type StepInput = WorkflowTemplateInput['steps'][number];

/** The catalogue a tenant starts with: each type once, named plainly (screens translate these names). */
const DEFAULT_STATES: { name: string; type: WorkflowStateType }[] = WORKFLOW_STATE_TYPES.map((type) => ({
  name: BUILT_IN_WORKFLOW_STATE_NAMES[type],
  type,
}));

/** PostgreSQL's unique violation: a name taken by a concurrent request. */
const isUniqueViolation = (error: unknown) => (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

function presentState(row: StateRow): WorkflowStateDefinition {
  return { workflowStateId: row.id, name: row.name, type: row.type as WorkflowStateType, order: row.position, description: row.description };
}

/** The tenant's states in order, seeding the default four the first time anyone asks. */
export async function listStates(db: Db, tenantId: string): Promise<StateRow[]> {
  const rows = await db.select().from(workflowStates).where(eq(workflowStates.tenantId, tenantId)).orderBy(asc(workflowStates.position));
  if (rows.length > 0) return rows;
  // Two first requests at once: the unique name index lets only one seeding win.
  await db
    .insert(workflowStates)
    .values(DEFAULT_STATES.map((state, index) => ({ tenantId, ...state, position: index + 1 })))
    .onConflictDoNothing();
  return db.select().from(workflowStates).where(eq(workflowStates.tenantId, tenantId)).orderBy(asc(workflowStates.position));
}

export async function listStateDefinitions(db: Db, tenantId: string): Promise<WorkflowStateDefinition[]> {
  return (await listStates(db, tenantId)).map(presentState);
}

const nameTaken = (what: string) => new DomainError(ResponseCode.WORKFLOW_TEMPLATE_ALREADY_EXISTS, `A ${what} with this name exists already.`);

/**
 * Admin: adds a state at the end of the catalogue. The catalogue rows are locked first, so two
 * admins adding at once take turns and get different places; the audit record commits with it.
 */
export async function createState(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  name: string;
  type: WorkflowStateType;
  description?: string | null | undefined;
}) {
  const { tenantId } = options;
  // Seeded outside the change: the defaults are the tenant's starting point, not this admin's act.
  await listStates(options.db, tenantId);
  try {
    return await options.db.transaction(async (db) => {
      const existing = await db.select().from(workflowStates).where(eq(workflowStates.tenantId, tenantId)).for('update');
      const position = existing.reduce((last, row) => Math.max(last, row.position), 0) + 1;
      const [row] = await db
        .insert(workflowStates)
        .values({ tenantId, name: options.name, type: options.type, description: options.description ?? null, position })
        .returning();
      await recordAdminAction({
        db,
        tenantId,
        actorId: options.actorId,
        action: 'workflow_state_created',
        target: { type: 'workflowState', id: row!.id, label: row!.name },
        details: { type: row!.type, order: position },
      });
      return presentState(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('workflow state');
    throw error;
  }
}

/** The tenant's state, locked for a change; 404 for another tenant's or none, so nothing leaks. */
async function lockState(db: Db, tenantId: string, id: string): Promise<StateRow> {
  const [row] = await db
    .select()
    .from(workflowStates)
    .where(and(eq(workflowStates.id, id), eq(workflowStates.tenantId, tenantId)))
    .for('update');
  if (!row) throw notFound('No such workflow state.');
  return row;
}

/**
 * Admin: renames or describes a state. Templates refer to states by id, so every template using it
 * shows the new name; its type never changes, since templates' signer counts rest on it. Saving
 * what is already there changes nothing and records nothing.
 */
export async function updateState(options: {
  db: Db;
  tenantId: string;
  actorId: string;
  id: string;
  name?: string | undefined;
  description?: string | null | undefined;
}) {
  const { tenantId } = options;
  try {
    return await options.db.transaction(async (db) => {
      const row = await lockState(db, tenantId, options.id);
      const renamed = options.name !== undefined && options.name !== row.name;
      // An empty description is no description: the list shows none rather than a blank line.
      const description = options.description === undefined ? row.description : options.description || null;
      const redescribed = description !== row.description;
      if (!renamed && !redescribed) return presentState(row);
      const [updated] = await db
        .update(workflowStates)
        .set({ ...(renamed ? { name: options.name } : {}), ...(redescribed ? { description } : {}) })
        .where(eq(workflowStates.id, row.id))
        .returning();
      await recordAdminAction({
        db,
        tenantId,
        actorId: options.actorId,
        action: 'workflow_state_changed',
        target: { type: 'workflowState', id: row.id, label: updated!.name },
        details: { ...(renamed ? { from: row.name, to: updated!.name } : {}), ...(redescribed ? { description } : {}) },
      });
      return presentState(updated!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('workflow state');
    throw error;
  }
}

/**
 * Admin: moves one state to `order` (clamped to the list); positions are rewritten 1..n in one
 * transaction with its audit record. A move to where it already is records nothing.
 */
export async function reorderState(options: { db: Db; tenantId: string; actorId: string; id: string; order: number }) {
  const { db, tenantId } = options;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(workflowStates)
      .where(eq(workflowStates.tenantId, tenantId))
      .orderBy(asc(workflowStates.position))
      .for('update');
    const moving = rows.find((row) => row.id === options.id);
    if (!moving) throw notFound('No such workflow state.');
    const from = rows.indexOf(moving) + 1;
    const others = rows.filter((row) => row.id !== options.id);
    const at = Math.min(options.order, rows.length) - 1;
    const ordered = [...others.slice(0, at), moving, ...others.slice(at)];
    for (const [index, row] of ordered.entries()) {
      if (row.position !== index + 1) await tx.update(workflowStates).set({ position: index + 1 }).where(eq(workflowStates.id, row.id));
    }
    if (at + 1 !== from) {
      await recordAdminAction({
        db: tx,
        tenantId,
        actorId: options.actorId,
        action: 'workflow_state_moved',
        target: { type: 'workflowState', id: moving.id, label: moving.name },
        details: { from, to: at + 1 },
      });
    }
    return ordered.map((row, index) => presentState({ ...row, position: index + 1 }));
  });
}

/**
 * Checks steps against the tenant's catalogue and within themselves: every state exists, and no
 * one is named twice in a step (the compose form's "already present").
 */
async function checkSteps(db: Db, tenantId: string, steps: StepInput[]): Promise<Map<string, StateRow>> {
  const ids = [...new Set(steps.map((step) => step.workflowStateId))];
  const rows = await db.select().from(workflowStates).where(and(eq(workflowStates.tenantId, tenantId), inArray(workflowStates.id, ids)));
  const states = new Map(rows.map((row) => [row.id, row]));
  const issues: { path: string; message: string }[] = [];
  steps.forEach((step, index) => {
    if (!states.has(step.workflowStateId)) issues.push({ path: `steps.${index}.workflowStateId`, message: 'no such workflow state' });
    const seen = new Set<string>();
    step.recipients.forEach((recipient, at) => {
      const key = recipient.type === 'user' ? `user:${recipient.email}` : `placeholder:${recipient.label.toLowerCase()}`;
      if (seen.has(key)) issues.push({ path: `steps.${index}.recipients.${at}`, message: 'already present' });
      seen.add(key);
    });
  });
  if (issues.length > 0) throw invalidInput('Some steps are not valid.', issues);
  return states;
}

async function presentWorkflow(db: Db, row: WorkflowRow): Promise<WorkflowTemplate> {
  const steps = row.steps as StepInput[];
  const states = new Map((await listStates(db, row.tenantId)).map((state) => [state.id, state]));
  const [owner] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, row.ownerId));
  const presented = steps.map((step, index) => {
    const state = states.get(step.workflowStateId);
    // A state deleted from the catalogue later keeps its place, unnamed, rather than vanishing.
    return { ...step, order: index + 1, name: state?.name ?? 'Removed state', type: (state?.type ?? 'REVIEW') as WorkflowStateType };
  });
  return {
    workflowId: row.id,
    name: row.name,
    description: row.description,
    signingPolicy: row.signingPolicy as WorkflowTemplate['signingPolicy'],
    steps: presented,
    signerCount: signerCountOf(presented),
    ownerId: row.ownerId,
    ownerName: owner ? fullName(owner) : '',
    createdOn: row.createdAt.toISOString(),
    modifiedOn: row.updatedAt.toISOString(),
  };
}

export async function listWorkflowTemplates(db: Db, tenantId: string): Promise<WorkflowTemplate[]> {
  const rows = await db.select().from(workflows).where(eq(workflows.tenantId, tenantId)).orderBy(asc(sql`lower(${workflows.name})`));
  return Promise.all(rows.map((row) => presentWorkflow(db, row)));
}

async function loadWorkflow(db: Db, tenantId: string, id: string): Promise<WorkflowRow> {
  const [row] = await db.select().from(workflows).where(and(eq(workflows.id, id), eq(workflows.tenantId, tenantId)));
  if (!row) throw notFound('No such workflow template.');
  return row;
}

export async function getWorkflowTemplate(db: Db, tenantId: string, id: string) {
  return presentWorkflow(db, await loadWorkflow(db, tenantId, id));
}

export async function createWorkflowTemplate(options: { db: Db; tenantId: string; ownerId: string; input: WorkflowTemplateInput }) {
  const { db, tenantId, input } = options;
  await checkSteps(db, tenantId, input.steps);
  try {
    const [row] = await db
      .insert(workflows)
      .values({
        tenantId,
        ownerId: options.ownerId,
        name: input.name,
        description: input.description ?? null,
        signingPolicy: input.signingPolicy,
        steps: input.steps,
      })
      .returning();
    return presentWorkflow(db, row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('workflow template');
    throw error;
  }
}


export async function updateWorkflowTemplate(options: { db: Db; tenantId: string; id: string; actor: { userId: string; role: Role }; input: WorkflowTemplateInput }) {
  const { db, tenantId, input } = options;
  const row = await loadWorkflow(db, tenantId, options.id);
  enforce({ ...options.actor, tenantId }, 'workflowTemplate.change', row);
  await checkSteps(db, tenantId, input.steps);
  try {
    const [updated] = await db
      .update(workflows)
      .set({ name: input.name, description: input.description ?? null, signingPolicy: input.signingPolicy, steps: input.steps, updatedAt: new Date() })
      .where(eq(workflows.id, row.id))
      .returning();
    return presentWorkflow(db, updated!);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken('workflow template');
    throw error;
  }
}

export async function deleteWorkflowTemplate(options: { db: Db; tenantId: string; id: string; actor: { userId: string; role: Role } }) {
  const row = await loadWorkflow(options.db, options.tenantId, options.id);
  enforce({ ...options.actor, tenantId: options.tenantId }, 'workflowTemplate.change', row);
  await options.db.delete(workflows).where(eq(workflows.id, row.id));
}
