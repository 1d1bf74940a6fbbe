import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { LocalFileStorage } from '../storage/file-storage';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { defineJob, type JobQueue, startJobQueue } from './job-queue';
import { sweepTemporaryFilesJob } from '../storage/sweep-temporary-files';

let database: TestDatabase;
let queue: JobQueue;
let root: string;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = await startJobQueue({ executor: database, pollingIntervalSeconds: 0.5, supervise: false });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-jobs-'));
});
afterAll(async () => {
  await queue.stop();
  await database.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('job queue', () => {
  it('runs a sent job end to end and records it completed', async () => {
    const storage = new LocalFileStorage(root);
    const tmp = path.join(root, 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'abandoned-upload'), 'partial');
    const old = new Date(Date.now() - 3 * 3600_000);
    fs.utimesSync(path.join(tmp, 'abandoned-upload'), old, old);

    let swept!: (removed: number) => void;
    const done = new Promise<number>((resolve) => (swept = resolve));
    const job = sweepTemporaryFilesJob({ storage, onSwept: (n) => swept(n) });
    await queue.register(job);
    const id = await queue.send(job, { olderThanMinutes: 60 });

    expect(await done).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual([]);
    // pg-boss marks the job completed right after the handler returns.
    await vi.waitFor(async () => expect(await queue.state(job, id)).toBe('completed'), { timeout: 10_000, interval: 100 });
  });

  it('refuses a payload that does not match the job schema, enqueuing nothing', async () => {
    const job = defineJob({
      name: 'test.strict-payload',
      payload: z.object({ documentId: z.uuid() }),
      run: async () => {},
    });
    await queue.register(job);
    await expect(queue.send(job, { documentId: 'nope' } as never)).rejects.toThrow();
    const { rows } = await database.executeSql(`select count(*)::int as n from pgboss.job where name = $1`, [job.name]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('tells a running job that the queue is stopping, so it winds up before the pool closes', async () => {
    // A queue of its own: stopping the shared one would end the other tests' jobs. Its writes that
    // complete a job are slowed, as on a loaded machine, where stop() once returned before the
    // completion landed and the job stayed "active" (to be run again after it expired).
    const slowCompletions = {
      executeSql: async (text: string, values?: unknown[]) => {
        if (/SET completed_on = now\(\)/.test(text)) await new Promise((resolve) => setTimeout(resolve, 800));
        return database.executeSql(text, values);
      },
    };
    const own = await startJobQueue({ executor: slowCompletions, pollingIntervalSeconds: 0.5, supervise: false });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let sawStop = false;
    const job = defineJob({
      name: 'test.long-running',
      payload: z.object({}),
      run: async (_payload, { signal }) => {
        started();
        // A job of minutes: it returns only when told to.
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        sawStop = signal.aborted;
      },
    });
    await own.register(job);
    const id = await own.send(job, {});
    await running;
    await own.stop();
    // Without being told, the job would still be waiting when pg-boss's own wait (10 s) ran out.
    expect(sawStop).toBe(true);
    expect(await queue.state(job, id)).toBe('completed');
  });
});
