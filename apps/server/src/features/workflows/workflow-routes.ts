import {
  createWorkflow,
  createWorkflowState,
  deleteWorkflow,
  getWorkflow,
  listWorkflows,
  listWorkflowStates,
  reorderWorkflowState,
  updateWorkflow,
  updateWorkflowState,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import {
  createState,
  createWorkflowTemplate,
  deleteWorkflowTemplate,
  getWorkflowTemplate,
  listStateDefinitions,
  listWorkflowTemplates,
  reorderState,
  updateState,
  updateWorkflowTemplate,
} from './workflows';

export function registerWorkflowRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;

  route(app, ctx, listWorkflowStates, async ({ auth }) => ({ states: await listStateDefinitions(db, auth.tenant.id) }));

  route(app, ctx, createWorkflowState, async ({ auth, body }) => createState({ db, tenantId: auth.tenant.id, actorId: auth.user.id, ...body }));

  route(app, ctx, updateWorkflowState, async ({ auth, params, body }) =>
    updateState({ db, tenantId: auth.tenant.id, actorId: auth.user.id, id: params.workflowStateId, ...body }),
  );

  route(app, ctx, reorderWorkflowState, async ({ auth, params }) => ({
    states: await reorderState({ db, tenantId: auth.tenant.id, actorId: auth.user.id, id: params.workflowStateId, order: params.workflowStateOrder }),
  }));

  route(app, ctx, listWorkflows, async ({ auth }) => ({ workflows: await listWorkflowTemplates(db, auth.tenant.id) }));

  route(app, ctx, createWorkflow, async ({ auth, body }) => createWorkflowTemplate({ db, tenantId: auth.tenant.id, ownerId: auth.user.id, input: body }));

  route(app, ctx, getWorkflow, async ({ auth, params }) => getWorkflowTemplate(db, auth.tenant.id, params.workflowId));

  route(app, ctx, updateWorkflow, async ({ auth, params, body }) =>
    updateWorkflowTemplate({ db, tenantId: auth.tenant.id, id: params.workflowId, actor: tenantActorOf(auth), input: body }),
  );

  route(app, ctx, deleteWorkflow, async ({ auth, params }) => {
    await deleteWorkflowTemplate({ db, tenantId: auth.tenant.id, id: params.workflowId, actor: tenantActorOf(auth) });
    return { deleted: true as const };
  });
}
