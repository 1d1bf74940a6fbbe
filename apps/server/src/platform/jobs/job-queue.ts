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
  /** `signal` aborts when the queue stops (the process is shutting down): a long job ends its step and returns. */
  run(payload: z.infer<S>, context: { jobId: string; signal: AbortSignal }): Promise<void>;
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
 * Starts pg-boss 10 over our own pg pool (no second pool of its own), so the embedded and the
 * PostgreSQL set-ups run the very same queue. pg-boss creates and migrates its schema itself.
 */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  // pg-boss fires some writes without awaiting them (its own completion of a job); stop() waits
  // for every statement still running, so none meets a pool that its owner has closed meanwhile.
  const inFlight = new Set<Promise<unknown>>();
  const boss = new PgBoss({
    db: {
      executeSql: (text, values) => {
        const running = options.executor.executeSql(text, values);
        inFlight.add(running);
        running.then(
          () => inFlight.delete(running),
          () => inFlight.delete(running),
        );
        return running;
      },
    },
    schema: PGBOSS_SCHEMA,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
  });
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  const polling = options.pollingIntervalSeconds ?? 2;
  // pg-boss waits for running jobs when it stops, but only so long (below); a job that runs for
  // minutes (bulk compose) is told to wind up instead, before the pool it uses is closed.
  const stopping = new AbortController();

  return {
    async register(job) {
      const queue = { name: job.name, retryLimit: job.retryLimit ?? 3, ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}) };
      // pg-boss's create_queue inserts the queue row and attaches its partition without a lock, so
      // two processes starting at once on a fresh database deadlock (40P01, issue 18's scale-out
      // test: 3 starts in 5). PostgreSQL aborts one; its retry finds the queue made.
      for (let attempt = 1; ; attempt++) {
        try {
          await boss.createQueue(job.name, queue);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 25 * attempt + Math.random() * 50));
        }
      }
      await boss.work<unknown>(job.name, { pollingIntervalSeconds: polling }, async (jobs) => {
        for (const item of jobs) {
          await job.run(job.payload.parse(item.data), { jobId: item.id, signal: stopping.signal });
          // pg-boss 10 marks the job completed without awaiting it, so stop() can return (and the
          // pool close) before that write lands, leaving the job "active" until it expires and runs
          // again. Completing it here, awaited, closes that gap; pg-boss's own update then matches
          // no active row and changes nothing.
          await boss.complete(job.name, item.id);
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
      stopping.abort();
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
      await Promise.allSettled([...inFlight]);
    },
  };
}
