import {
  createWorkflow,
  createWorkflowState,
  deleteWorkflow,
  type EndpointInput,
  getWorkflow,
  listWorkflows,
  listWorkflowStates,
  reorderWorkflowState,
  updateWorkflow,
  updateWorkflowState,
  WorkflowStateDefinition,
  WorkflowTemplate,
} from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { adminAuditLog, tenantSettings, workflows, workflowStates } from '../../platform/db/schema';
import { type Caller, inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember } from '../../test/app-factories';

let t: TestApp;
afterEach(() => t.close());

const member = (role: 'admin' | 'custodian' | 'submitter' | 'signer', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

async function statesOf(who: Caller) {
  const res = await inject(t.app, listWorkflowStates, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.states.map((s) => WorkflowStateDefinition.parse(s));
}

describe('workflow states', () => {
  it('start as the four types, and admins add, rename and reorder them', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    await t.database.db.insert(tenantSettings).values({ tenantId: admin.tenant.id, settings: { showEditWorkflowStates: true } });
    const initial = await statesOf(admin);
    expect(initial.map((s) => [s.name, s.type, s.order])).toEqual([
      ['Review', 'REVIEW', 1],
      ['Sign', 'SIGN', 2],
      ['Email', 'EMAIL', 3],
      ['In-person sign', 'INPERSONSIGN', 4],
    ]);
    const created = await inject(t.app, createWorkflowState, { body: { name: 'Legal review', type: 'REVIEW' }, as: admin });
    expect(created.data).toMatchObject({ name: 'Legal review', order: 5 });
    const duplicate = await inject(t.app, createWorkflowState, { body: { name: 'legal REVIEW', type: 'SIGN' }, as: admin });
    expect(duplicate.code).toBe(-63);

    const id = created.data.workflowStateId;
    const moved = await inject(t.app, reorderWorkflowState, { params: { workflowStateId: id, workflowStateOrder: 1 }, as: admin });
    expect(moved.data.states.map((s: { name: string; order: number }) => `${s.order}:${s.name}`)).toEqual([
      '1:Legal review',
      '2:Review',
      '3:Sign',
      '4:Email',
      '5:In-person sign',
    ]);
    const renamed = await inject(t.app, updateWorkflowState, { params: { workflowStateId: id }, body: { name: 'Counsel review' }, as: admin });
    expect(renamed.data).toMatchObject({ name: 'Counsel review', type: 'REVIEW', order: 1 });
  });

  it('are edited by admins only, and only when the tenant shows the edit screen', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const custodian = await member('custodian', admin.tenant);
    const body = { name: 'Notary', type: 'INPERSONSIGN' } as const;
    expect((await inject(t.app, createWorkflowState, { body, as: custodian })).statusCode).toBe(403);
    expect((await inject(t.app, createWorkflowState, { body, as: admin })).statusCode).toBe(200);
    // The tenant hides the edit screen: its API is closed too, even to an admin.
    await t.database.db.insert(tenantSettings).values({ tenantId: admin.tenant.id, settings: { showEditWorkflowStates: false } });
    const hidden = await inject(t.app, createWorkflowState, { body: { ...body, name: 'Witness' }, as: admin });
    expect(hidden.statusCode).toBe(403);
  });
});

describe('editing workflow states (admin)', () => {
  const auditOf = (tenantId: string) =>
    t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.tenantId, tenantId))
      .orderBy(adminAuditLog.createdAt)
      .then((rows) => rows.map((e) => ({ action: e.action, actorId: e.actorId, targetType: e.targetType, targetLabel: e.targetLabel, details: e.details })));
  const statesRows = (tenantId: string) =>
    t.database.db.select().from(workflowStates).where(eq(workflowStates.tenantId, tenantId)).orderBy(workflowStates.position);

  it('records every change in the admin audit log with who made it, and nothing for a change that changes nothing', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const [review] = await statesOf(admin);
    const created = await inject(t.app, createWorkflowState, { body: { name: 'Notary', type: 'INPERSONSIGN' }, as: admin });
    const notary = created.data.workflowStateId;
    const put = (workflowStateId: string, body: { name?: string; description?: string }) => inject(t.app, updateWorkflowState, { params: { workflowStateId }, body, as: admin });
    const move = (workflowStateId: string, workflowStateOrder: number) => inject(t.app, reorderWorkflowState, { params: { workflowStateId, workflowStateOrder }, as: admin });
    expect((await put(review!.workflowStateId, { name: 'Legal review', description: 'Checked by counsel' })).data).toMatchObject({
      name: 'Legal review',
      description: 'Checked by counsel',
      type: 'REVIEW',
    });
    // The same again, and a move to where it already is: nothing changes, nothing is recorded.
    expect((await put(review!.workflowStateId, { name: 'Legal review', description: 'Checked by counsel' })).statusCode).toBe(200);
    expect((await move(notary, 5)).statusCode).toBe(200);
    // An empty description clears it; a place past the end is the end.
    expect((await put(review!.workflowStateId, { description: '' })).data.description).toBeNull();
    const moved = await move(review!.workflowStateId, 99);
    expect(moved.data.states.map((s: { name: string }) => s.name)).toEqual(['Sign', 'Email', 'In-person sign', 'Notary', 'Legal review']);

    expect(await auditOf(admin.tenant.id)).toEqual([
      { action: 'workflow_state_created', actorId: admin.user.id, targetType: 'workflowState', targetLabel: 'Notary', details: { type: 'INPERSONSIGN', order: 5 } },
      {
        action: 'workflow_state_changed',
        actorId: admin.user.id,
        targetType: 'workflowState',
        targetLabel: 'Legal review',
        details: { from: 'Review', to: 'Legal review', description: 'Checked by counsel' },
      },
      { action: 'workflow_state_changed', actorId: admin.user.id, targetType: 'workflowState', targetLabel: 'Legal review', details: { description: null } },
      { action: 'workflow_state_moved', actorId: admin.user.id, targetType: 'workflowState', targetLabel: 'Legal review', details: { from: 1, to: 5 } },
    ]);
  });

  it('refuses a blank or taken name with a clear code, keeping the state as it was', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const [review] = await statesOf(admin);
    const rename = (name: string) => inject(t.app, updateWorkflowState, { params: { workflowStateId: review!.workflowStateId }, body: { name }, as: admin });
    const blank = await rename('   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.code).toBe(-6);
    const taken = await rename('SIGN');
    expect(taken.code).toBe(-63);
    expect((await statesOf(admin))[0]).toEqual(review);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
  });

  it("answers an admin naming another tenant's state with 404 and changes nothing there or at home", async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const otherAdmin = await member('admin');
    const [theirs] = await statesOf(otherAdmin);
    await statesOf(admin);
    const before = JSON.stringify([await statesRows(admin.tenant.id), await statesRows(otherAdmin.tenant.id)]);
    const attempts = [
      inject(t.app, updateWorkflowState, { params: { workflowStateId: theirs!.workflowStateId }, body: { name: 'Taken over' }, as: admin }),
      inject(t.app, reorderWorkflowState, { params: { workflowStateId: theirs!.workflowStateId, workflowStateOrder: 3 }, as: admin }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.code).toBe(-1);
    }
    expect(JSON.stringify([await statesRows(admin.tenant.id), await statesRows(otherAdmin.tenant.id)])).toBe(before);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
    expect(await auditOf(otherAdmin.tenant.id)).toEqual([]);
  });
});

describe('workflow templates', () => {
  const template = (states: WorkflowStateDefinition[], name = 'Sale deed'): EndpointInput<typeof createWorkflow>['body'] => {
    const id = (type: string) => states.find((s) => s.type === type)!.workflowStateId;
    return {
      name,
      description: 'Review by legal, then both parties sign',
      signingPolicy: 'ESIGNATURE',
      steps: [
        { workflowStateId: id('REVIEW'), recipients: [{ type: 'user', email: 'Legal@Example.test' }] },
        { workflowStateId: id('SIGN'), recipients: [{ type: 'placeholder', label: 'Buyer' }, { type: 'placeholder', label: 'Seller' }] },
        { workflowStateId: id('EMAIL'), recipients: [{ type: 'user', email: 'records@example.test' }] },
      ],
    };
  };

  it('are created, listed, read, replaced and deleted, with their steps in order', async () => {
    t = await buildTestApp();
    const custodian = await member('custodian');
    const states = await statesOf(custodian);
    const created = await inject(t.app, createWorkflow, { body: template(states), as: custodian });
    expect(created.statusCode, created.body).toBe(200);
    const workflow = WorkflowTemplate.parse(created.data);
    expect(workflow).toMatchObject({ name: 'Sale deed', signingPolicy: 'ESIGNATURE', signerCount: 2 });
    expect(workflow.steps.map((s) => [s.order, s.name, s.type, s.recipients.length])).toEqual([
      [1, 'Review', 'REVIEW', 1],
      [2, 'Sign', 'SIGN', 2],
      [3, 'Email', 'EMAIL', 1],
    ]);
    expect(workflow.steps[0]!.recipients[0]).toEqual({ type: 'user', email: 'legal@example.test' });

    const again = await inject(t.app, createWorkflow, { body: template(states, 'SALE DEED'), as: custodian });
    expect(again.statusCode).toBe(409);
    expect(again.code).toBe(-63);

    const list = await inject(t.app, listWorkflows, { as: custodian });
    expect(list.data.workflows.map((w: { name: string }) => w.name)).toEqual(['Sale deed']);
    const replaced = await inject(t.app, updateWorkflow, {
      params: { workflowId: workflow.workflowId },
      body: { ...template(states, 'Sale deed v2'), steps: template(states).steps.slice(1, 2) },
      as: custodian,
    });
    expect(replaced.data).toMatchObject({ name: 'Sale deed v2', signerCount: 2, steps: [{ order: 1, type: 'SIGN' }] });
    expect((await inject(t.app, getWorkflow, { params: { workflowId: workflow.workflowId }, as: custodian })).data.name).toBe('Sale deed v2');
    expect((await inject(t.app, deleteWorkflow, { params: { workflowId: workflow.workflowId }, as: custodian })).data).toEqual({ deleted: true });
    expect((await inject(t.app, getWorkflow, { params: { workflowId: workflow.workflowId }, as: custodian })).statusCode).toBe(404);
  });

  it('refuse unknown states and someone named twice in a step, pointing at each', async () => {
    t = await buildTestApp();
    const custodian = await member('custodian');
    const states = await statesOf(custodian);
    const body = template(states);
    (body.steps[1]!.recipients as unknown[]).push({ type: 'placeholder', label: 'buyer' });
    body.steps[0]!.workflowStateId = '00000000-0000-4000-8000-000000000000';
    const res = await inject(t.app, createWorkflow, { body, as: custodian });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().issues).toEqual([
      { path: 'steps.0.workflowStateId', message: 'no such workflow state' },
      { path: 'steps.1.recipients.2', message: 'already present' },
    ]);
    expect((await t.database.db.select({ n: count() }).from(workflows))[0]!.n).toBe(0);
  });

  it('are the whole tenant\u2019s to use, but changed only by their owner or an admin', async () => {
    t = await buildTestApp();
    const owner = await member('custodian');
    const colleague = await member('custodian', owner.tenant);
    const admin = await member('admin', owner.tenant);
    const states = await statesOf(owner);
    const id = (await inject(t.app, createWorkflow, { body: template(states), as: owner })).data.workflowId;
    expect((await inject(t.app, getWorkflow, { params: { workflowId: id }, as: colleague })).statusCode).toBe(200);
    const refused = await inject(t.app, deleteWorkflow, { params: { workflowId: id }, as: colleague });
    expect(refused.statusCode).toBe(403);
    expect((await t.database.db.select({ n: count() }).from(workflows))[0]!.n).toBe(1);
    expect((await inject(t.app, deleteWorkflow, { params: { workflowId: id }, as: admin })).statusCode).toBe(200);
  });

  it('are hidden from submitters when the tenant restricts workflows', async () => {
    t = await buildTestApp();
    const submitter = await member('submitter');
    expect((await inject(t.app, listWorkflows, { as: submitter })).statusCode).toBe(200);
    await t.database.db.insert(tenantSettings).values({ tenantId: submitter.tenant.id, settings: { restrictWorkflow: true } });
    expect((await inject(t.app, listWorkflows, { as: submitter })).statusCode).toBe(403);
  });
});
