import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { SqlExecutor } from '../db/database';

/**
 * A background job: a name, the zod schema of its payload, and what it does. Payloads are
 * validated when sent and again when run, because rows may outlive the code that wrote them.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: S;
  readonly retryLimit?: number;
  /** How long one attempt may run before pg-boss takes it for lost and retries it (pg-boss's default: 15 minutes). */
  readonly expireInSeconds?: number;
  run(payload: z.infer<S>, context: { jobId: string }): Promise<void>;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

export interface JobQueue {
  /** Creates the job's queue if needed and starts working it in this process. */
  register<S extends z.ZodType>(job: JobDefinition<S>): Promise<void>;
  /** Enqueues a job; call it after the transaction that motivates it has committed. */
  send<S extends z.ZodType>(job: JobDefinition<S>, payload: z.input<S>): Promise<string>;
  /** Runs the job on a cron schedule (UTC), once across all processes. */
  schedule<S extends z.ZodType>(job: JobDefinition<S>, cron: string, payload: z.input<S>): Promise<void>;
  state(job: JobDefinition, id: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

export interface JobQueueOptions {
  executor: SqlExecutor;
  pollingIntervalSeconds?: number;
  /** Maintenance and cron timers; tests switch them off to keep runs quiet. */
  supervise?: boolean;
  onError?: (error: Error) => void;
}

export const PGBOSS_SCHEMA = 'pgboss';

/**
 * Starts pg-boss 10 over our own connection (a pg pool or PGlite), so the embedded and the
 * PostgreSQL set-ups run the very same queue. pg-boss creates and migrates its schema itself.
 */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => options.executor.executeSql(text, values) },
    schema: PGBOSS_SCHEMA,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  const polling = options.pollingIntervalSeconds ?? 2;

  return {
    async register(job) {
      await boss.createQueue(job.name, { name: job.name, retryLimit: job.retryLimit ?? 3, ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}) });
      await boss.work<unknown>(job.name, { pollingIntervalSeconds: polling }, async (jobs) => {
        for (const item of jobs) {
          await job.run(job.payload.parse(item.data), { jobId: item.id });
        }
      });
    },
    async send(job, payload) {
      const data = job.payload.parse(payload) as object;
      const id = await boss.send(job.name, data);
      if (!id) throw new Error(`pg-boss refused job ${job.name}`);
      return id;
    },
    async schedule(job, cron, payload) {
      await boss.schedule(job.name, cron, job.payload.parse(payload) as object, { tz: 'UTC' });
    },
    async state(job, id) {
      const found = await boss.getJobById(job.name, id, { includeArchive: true });
      return found?.state;
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
    },
  };
}
