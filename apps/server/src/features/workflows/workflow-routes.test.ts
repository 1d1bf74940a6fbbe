import { WorkflowStateDefinition, WorkflowTemplate } from '@pakt/domain';
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { adminAuditLog, tenantSettings, workflows, workflowStates } from '../../platform/db/schema';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { signedInMember } from '../../test/app-factories';

let t: TestApp;
afterEach(() => t.close());

const member = (role: 'admin' | 'custodian' | 'submitter' | 'signer', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

async function statesOf(headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: '/msbapi/v1/workflow/states', headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.states as unknown[]).map((s) => WorkflowStateDefinition.parse(s));
}

describe('workflow states', () => {
  it('start as the four types, and admins add, rename and reorder them', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    await t.database.db.insert(tenantSettings).values({ tenantId: admin.tenant.id, settings: { showEditWorkflowStates: true } });
    const initial = await statesOf(admin.headers);
    expect(initial.map((s) => [s.name, s.type, s.order])).toEqual([
      ['Review', 'REVIEW', 1],
      ['Sign', 'SIGN', 2],
      ['Email', 'EMAIL', 3],
      ['In-person sign', 'INPERSONSIGN', 4],
    ]);
    const created = await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: admin.headers, payload: { name: 'Legal review', type: 'REVIEW' } });
    expect(created.json().data).toMatchObject({ name: 'Legal review', order: 5 });
    const duplicate = await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: admin.headers, payload: { name: 'legal REVIEW', type: 'SIGN' } });
    expect(duplicate.json().code).toBe(-63);

    const id = created.json().data.workflowStateId as string;
    const moved = await t.app.inject({ method: 'PUT', url: `/msbapi/v1/workflow/states/${id}/1`, headers: admin.headers });
    expect(moved.json().data.states.map((s: { name: string; order: number }) => `${s.order}:${s.name}`)).toEqual([
      '1:Legal review',
      '2:Review',
      '3:Sign',
      '4:Email',
      '5:In-person sign',
    ]);
    const renamed = await t.app.inject({ method: 'PUT', url: `/msbapi/v1/workflow/states/${id}`, headers: admin.headers, payload: { name: 'Counsel review' } });
    expect(renamed.json().data).toMatchObject({ name: 'Counsel review', type: 'REVIEW', order: 1 });
  });

  it('are edited by admins only, and only when the tenant shows the edit screen', async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const custodian = await member('custodian', admin.tenant);
    const body = { name: 'Notary', type: 'INPERSONSIGN' };
    expect((await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: custodian.headers, payload: body })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: admin.headers, payload: body })).statusCode).toBe(200);
    // The tenant hides the edit screen: its API is closed too, even to an admin.
    await t.database.db.insert(tenantSettings).values({ tenantId: admin.tenant.id, settings: { showEditWorkflowStates: false } });
    const hidden = await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: admin.headers, payload: { ...body, name: 'Witness' } });
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
    const [review] = await statesOf(admin.headers);
    const created = await t.app.inject({ method: 'POST', url: '/msbapi/v1/workflow/states', headers: admin.headers, payload: { name: 'Notary', type: 'INPERSONSIGN' } });
    const notary = created.json().data.workflowStateId as string;
    const put = (url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/msbapi/v1/workflow/states/${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
    expect((await put(review!.workflowStateId, { name: 'Legal review', description: 'Checked by counsel' })).json().data).toMatchObject({
      name: 'Legal review',
      description: 'Checked by counsel',
      type: 'REVIEW',
    });
    // The same again, and a move to where it already is: nothing changes, nothing is recorded.
    expect((await put(review!.workflowStateId, { name: 'Legal review', description: 'Checked by counsel' })).statusCode).toBe(200);
    expect((await put(`${notary}/5`)).statusCode).toBe(200);
    // An empty description clears it; a place past the end is the end.
    expect((await put(review!.workflowStateId, { description: '' })).json().data.description).toBeNull();
    const moved = await put(`${review!.workflowStateId}/99`);
    expect(moved.json().data.states.map((s: { name: string }) => s.name)).toEqual(['Sign', 'Email', 'In-person sign', 'Notary', 'Legal review']);

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
    const [review] = await statesOf(admin.headers);
    const url = `/msbapi/v1/workflow/states/${review!.workflowStateId}`;
    const blank = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { name: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().code).toBe(-6);
    const taken = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { name: 'SIGN' } });
    expect(taken.json().code).toBe(-63);
    expect((await statesOf(admin.headers))[0]).toEqual(review);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
  });

  it("answers an admin naming another tenant's state with 404 and changes nothing there or at home", async () => {
    t = await buildTestApp();
    const admin = await member('admin');
    const otherAdmin = await member('admin');
    const [theirs] = await statesOf(otherAdmin.headers);
    await statesOf(admin.headers);
    const before = JSON.stringify([await statesRows(admin.tenant.id), await statesRows(otherAdmin.tenant.id)]);
    const attempts = [
      t.app.inject({ method: 'PUT', url: `/msbapi/v1/workflow/states/${theirs!.workflowStateId}`, headers: admin.headers, payload: { name: 'Taken over' } }),
      t.app.inject({ method: 'PUT', url: `/msbapi/v1/workflow/states/${theirs!.workflowStateId}/3`, headers: admin.headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(-1);
    }
    expect(JSON.stringify([await statesRows(admin.tenant.id), await statesRows(otherAdmin.tenant.id)])).toBe(before);
    expect(await auditOf(admin.tenant.id)).toEqual([]);
    expect(await auditOf(otherAdmin.tenant.id)).toEqual([]);
  });
});

describe('workflow templates', () => {
  const template = (states: WorkflowStateDefinition[], name = 'Sale deed') => {
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
    const states = await statesOf(custodian.headers);
    const created = await t.app.inject({ method: 'POST', url: '/msbapi/v2/workflows', headers: custodian.headers, payload: template(states) });
    expect(created.statusCode, created.body).toBe(200);
    const workflow = WorkflowTemplate.parse(created.json().data);
    expect(workflow).toMatchObject({ name: 'Sale deed', signingPolicy: 'ESIGNATURE', signerCount: 2 });
    expect(workflow.steps.map((s) => [s.order, s.name, s.type, s.recipients.length])).toEqual([
      [1, 'Review', 'REVIEW', 1],
      [2, 'Sign', 'SIGN', 2],
      [3, 'Email', 'EMAIL', 1],
    ]);
    expect(workflow.steps[0]!.recipients[0]).toEqual({ type: 'user', email: 'legal@example.test' });

    const again = await t.app.inject({ method: 'POST', url: '/msbapi/v2/workflows', headers: custodian.headers, payload: template(states, 'SALE DEED') });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(-63);

    const list = await t.app.inject({ method: 'GET', url: '/msbapi/v2/workflows', headers: custodian.headers });
    expect(list.json().data.workflows.map((w: { name: string }) => w.name)).toEqual(['Sale deed']);
    const replaced = await t.app.inject({
      method: 'PUT',
      url: `/msbapi/v2/workflows/${workflow.workflowId}`,
      headers: custodian.headers,
      payload: { ...template(states, 'Sale deed v2'), steps: template(states).steps.slice(1, 2) },
    });
    expect(replaced.json().data).toMatchObject({ name: 'Sale deed v2', signerCount: 2, steps: [{ order: 1, type: 'SIGN' }] });
    expect((await t.app.inject({ method: 'GET', url: `/msbapi/v2/workflows/${workflow.workflowId}`, headers: custodian.headers })).json().data.name).toBe('Sale deed v2');
    expect((await t.app.inject({ method: 'DELETE', url: `/msbapi/v2/workflows/${workflow.workflowId}`, headers: custodian.headers })).json().data).toEqual({ deleted: true });
    expect((await t.app.inject({ method: 'GET', url: `/msbapi/v2/workflows/${workflow.workflowId}`, headers: custodian.headers })).statusCode).toBe(404);
  });

  it('refuse unknown states and someone named twice in a step, pointing at each', async () => {
    t = await buildTestApp();
    const custodian = await member('custodian');
    const states = await statesOf(custodian.headers);
    const body = template(states);
    (body.steps[1]!.recipients as unknown[]).push({ type: 'placeholder', label: 'buyer' });
    body.steps[0]!.workflowStateId = '00000000-0000-4000-8000-000000000000';
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/v2/workflows', headers: custodian.headers, payload: body });
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
    const states = await statesOf(owner.headers);
    const id = (await t.app.inject({ method: 'POST', url: '/msbapi/v2/workflows', headers: owner.headers, payload: template(states) })).json().data.workflowId as string;
    expect((await t.app.inject({ method: 'GET', url: `/msbapi/v2/workflows/${id}`, headers: colleague.headers })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'DELETE', url: `/msbapi/v2/workflows/${id}`, headers: colleague.headers });
    expect(refused.statusCode).toBe(403);
    expect((await t.database.db.select({ n: count() }).from(workflows))[0]!.n).toBe(1);
    expect((await t.app.inject({ method: 'DELETE', url: `/msbapi/v2/workflows/${id}`, headers: admin.headers })).statusCode).toBe(200);
  });

  it('are hidden from submitters when the tenant restricts workflows', async () => {
    t = await buildTestApp();
    const submitter = await member('submitter');
    expect((await t.app.inject({ method: 'GET', url: '/msbapi/v2/workflows', headers: submitter.headers })).statusCode).toBe(200);
    await t.database.db.insert(tenantSettings).values({ tenantId: submitter.tenant.id, settings: { restrictWorkflow: true } });
    expect((await t.app.inject({ method: 'GET', url: '/msbapi/v2/workflows', headers: submitter.headers })).statusCode).toBe(403);
  });
});
