import { z } from 'zod';
import type { SqlExecutor } from '../platform/db/database';
import { purgeRateLimitCounters } from './rate-limit';
import { defineJob } from '../platform/jobs/job-queue';

/** Every ten minutes: the counters live a minute, so the table holds about ten minutes of addresses at most. */
export const PURGE_RATE_LIMIT_COUNTERS_CRON = '*/10 * * * *';

/** Deletes the rate-limit counters whose window has ended (once across all processes). */
export function purgeRateLimitCountersJob(options: { executor: SqlExecutor }) {
  return defineJob({
    name: 'http.purge-rate-limit-counters',
    payload: z.object({}),
    async run() {
      await purgeRateLimitCounters({ executor: options.executor });
    },
  });
}
