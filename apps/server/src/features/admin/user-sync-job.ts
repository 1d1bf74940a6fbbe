import { z } from 'zod';
import type { AppContext } from '../../http/app-context';
import { runUserSync, sweepUserSyncRuns } from './user-sync';
import { defineJob } from '../../platform/jobs/job-queue';

/** Every minute: picks up runs whose job was never sent, and fails runs a stopped process left. */
export const USER_SYNC_SWEEP_CRON = '* * * * *';

/**
 * The user sync-up job (issue 7). Sent with a run's id right after the start commits; scheduled
 * without one as the sweep. A run is claimed before it is worked, so a job delivered twice, or
 * a sweep racing a send, applies a feed once. Invitation mail goes out as the run commits (the
 * outbox's trigger); the job also nudges delivery itself when the run invited anyone, so a feed's
 * invitations do not wait on a listener that is reconnecting.
 */
export function userSyncJob(ctx: Pick<AppContext, 'config' | 'database' | 'nudgeMailDelivery'>, onError?: (error: unknown) => void) {
  const work = { db: ctx.database.db, userSyncDir: ctx.config.userSyncDir, publicUrl: ctx.config.publicUrl, installFeatures: ctx.config.features };
  const runOne = async (runId: string) => {
    const done = await runUserSync({ ...work, runId });
    // Read at call time: server.ts installs the real nudge after the jobs are registered.
    if (done && done.invited > 0) ctx.nudgeMailDelivery();
  };
  return defineJob({
    name: 'admin.user-sync',
    payload: z.object({ runId: z.uuid().optional() }),
    // The run records its own failure; retrying a claimed run would find nothing queued.
    retryLimit: 0,
    async run({ runId }) {
      if (runId) return runOne(runId);
      for (const id of await sweepUserSyncRuns({ db: ctx.database.db })) {
        await runOne(id).catch((error: unknown) => onError?.(error));
      }
    },
  });
}
