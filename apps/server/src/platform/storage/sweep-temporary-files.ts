import { z } from 'zod';
import type { FileStorage } from './file-storage';
import { defineJob } from '../jobs/job-queue';

export const SWEEP_TEMPORARY_FILES_CRON = '17 * * * *';

/** Hourly clean-up of partial uploads that a crash or a dropped connection left behind. */
export function sweepTemporaryFilesJob(options: { storage: FileStorage; onSwept?: (removed: number) => void }) {
  return defineJob({
    name: 'storage.sweep-temporary-files',
    payload: z.object({ olderThanMinutes: z.number().int().min(0).default(60) }),
    async run({ olderThanMinutes }) {
      const removed = await options.storage.sweepTemporaryFiles(olderThanMinutes * 60_000);
      options.onSwept?.(removed);
    },
  });
}
