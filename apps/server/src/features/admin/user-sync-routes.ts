import { getUserSyncUp, listUserSyncUps, startUserSyncUp } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import { describeUserSync, getUserSyncRun, startUserSync } from './user-sync';
import type { AppContext } from '../../http/app-context';
import { route } from '../../http/route';
import { userSyncJob } from './user-sync-job';

/** User sync-up of a tenant (issue 7); the work is in admin/user-sync.ts, run by jobs/user-sync.ts. */
export function registerUserSyncRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const job = userSyncJob(ctx);

  route(app, ctx, startUserSyncUp, async ({ auth, tenantSettings }) => {
    const { run, queued } = await startUserSync({ db, tenantId: auth.tenant.id, startedBy: auth.user.id, settings: await tenantSettings() });
    // After the commit. Without jobs in this process the run waits for a worker's sweep.
    if (queued && ctx.jobs) {
      await ctx.jobs.send(job, { runId: run.runId }).catch((error: unknown) => app.log.error({ err: error, runId: run.runId }, 'could not enqueue a user sync-up; the sweep will'));
    }
    return run;
  });
  route(app, ctx, listUserSyncUps, async ({ auth, tenantSettings }) =>
    describeUserSync({ db, tenantId: auth.tenant.id, userSyncDir: ctx.config.userSyncDir, settings: await tenantSettings() }),
  );
  route(app, ctx, getUserSyncUp, async ({ auth, params }) => getUserSyncRun({ db, tenantId: auth.tenant.id, runId: params.runId }));
}
