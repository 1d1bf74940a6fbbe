import { z } from 'zod';
import type { AppContext } from '../../http/app-context';
import { runBulkCompose, sweepBulkComposeRuns } from './bulk-compose';
import { defineJob } from '../../platform/jobs/job-queue';

/** Every minute: picks up runs whose job was never sent (a crash between the upload's commit and the send). */
export const BULK_COMPOSE_SWEEP_CRON = '* * * * *';

/**
 * The bulk compose job (issue 8). Sent with a run's id after the upload commits; scheduled without
 * one as the sweep. A run crashed half way is carried on from its last batch when pg-boss retries
 * the job (its rows already made are skipped). Each batch's mail goes out as it commits (the
 * outbox's trigger, platform/mail/queued-mail.ts).
 */
export function bulkComposeJob(ctx: Pick<AppContext, 'config' | 'database' | 'storage'>, onError?: (error: unknown) => void) {
  const runOne = async (runId: string, signal: AbortSignal) => {
    await runBulkCompose({
      db: ctx.database.db,
      storage: ctx.storage,
      runId,
      notify: { publicUrl: ctx.config.publicUrl, linkDays: ctx.config.signingLinkDays },
      // On shutdown the run goes back to queued after its batch in flight; the sweep carries it on.
      signal,
    });
  };
  return defineJob({
    name: 'epaks.bulk-compose',
    payload: z.object({ runId: z.uuid().optional() }),
    // A retry after a crash resumes the run where its last batch ended.
    retryLimit: 3,
    // A file of 100,000 rows takes minutes: an attempt is taken for lost only well after that,
    // so a slow run is never worked twice at once.
    expireInSeconds: 6 * 3600,
    async run({ runId }, { signal }) {
      if (runId) return runOne(runId, signal);
      for (const id of await sweepBulkComposeRuns({ db: ctx.database.db })) {
        if (signal.aborted) return;
        await runOne(id, signal).catch((error: unknown) => onError?.(error));
      }
    },
  });
}
