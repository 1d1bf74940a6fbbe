import { DomainError } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { ParserQueue } from './parser-queue';
import { inspectPdf, sandboxChildrenAlive } from './sandbox';
import { CORPUS } from '../../test/corpus';

/** A job the test finishes when it wants: no sleeps, no timing. */
function controllable<T = string>() {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const done = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    job: () => {
      started = true;
      return done;
    },
    get started() {
      return started;
    },
    finish,
    fail,
  };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the parser queue', () => {
  it('runs one at a time with N=1: the second waits until the first has finished', async () => {
    const queue = new ParserQueue({ concurrency: 1, maxWaiting: 5 });
    const first = controllable();
    const second = controllable();
    const a = queue.run(first.job);
    const b = queue.run(second.job);
    await settle();
    expect([first.started, second.started]).toEqual([true, false]);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 1, waiting: 1 });

    first.finish('one');
    expect(await a).toBe('one');
    await settle();
    expect(second.started).toBe(true);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 1, waiting: 0 });
    second.finish('two');
    expect(await b).toBe('two');
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('runs N at once', async () => {
    const queue = new ParserQueue({ concurrency: 2, maxWaiting: 0 });
    const jobs = [controllable(), controllable()];
    const runs = jobs.map((j) => queue.run(j.job));
    await settle();
    expect(jobs.map((j) => j.started)).toEqual([true, true]);
    jobs.forEach((j) => j.finish('ok'));
    await Promise.all(runs);
    expect(queue.running).toBe(0);
  });

  it('refuses at once with -2 / 503 and a retry delay when the line is full, and starts nothing', async () => {
    const queue = new ParserQueue({ concurrency: 1, maxWaiting: 1 });
    const running = controllable();
    const waiting = controllable();
    const refused = controllable();
    const a = queue.run(running.job);
    const b = queue.run(waiting.job);
    const error = await queue.run(refused.job).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: -2, httpStatus: 503, data: { retryAfterSeconds: expect.any(Number) } });
    expect(refused.started).toBe(false);
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 1, waiting: 1 });
    running.finish('a');
    await a;
    waiting.finish('b');
    await b;
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the slot back when a job fails or its child crashes, and the next one runs', async () => {
    const queue = new ParserQueue({ concurrency: 1, maxWaiting: 2 });
    const crashing = controllable();
    const throwing = () => {
      throw new Error('synchronous fault');
    };
    const next = controllable();
    const a = queue.run(crashing.job);
    const b = queue.run(throwing);
    const c = queue.run(next.job);
    crashing.fail(new Error('child exited with SIGKILL'));
    await expect(a).rejects.toThrow(/SIGKILL/);
    await expect(b).rejects.toThrow(/synchronous fault/);
    await settle();
    expect(next.started).toBe(true);
    next.finish('fine');
    expect(await c).toBe('fine');
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps at most N sandbox children alive at once, however many uploads arrive together', async () => {
    const queue = new ParserQueue({ concurrency: 2, maxWaiting: 10 });
    const before = sandboxChildrenAlive();
    // How many children are alive just after each one has started (it starts within inspectPdf's call).
    const alive: number[] = [];
    const inspect = () => {
      const result = inspectPdf(`${CORPUS}plain-1p-pdftex.pdf`, 10);
      alive.push(sandboxChildrenAlive());
      return result;
    };
    const uploads = Array.from({ length: 6 }, () => queue.run(inspect));
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 2, waiting: 4 });
    const results = await Promise.all(uploads);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, true]);
    // Two ran side by side, never a third: each child's memory is bounded, so the children's together is too.
    expect(alive).toHaveLength(6);
    expect(Math.max(...alive) - before).toBe(2);
    expect(sandboxChildrenAlive()).toBe(before);
  });

  it('drops a waiting job whose client went away, without running it', async () => {
    const queue = new ParserQueue({ concurrency: 1, maxWaiting: 1 });
    const running = controllable();
    const left = controllable();
    const client = new AbortController();
    const a = queue.run(running.job);
    const b = queue.run(left.job, client.signal);
    expect(queue.waiting).toBe(1);
    client.abort();
    await expect(b).rejects.toBeInstanceOf(DomainError);
    expect(queue.waiting).toBe(0);
    // The freed place in line is there for the next one.
    const after = controllable();
    const c = queue.run(after.job);
    running.finish('a');
    await a;
    await settle();
    expect(left.started).toBe(false);
    expect(after.started).toBe(true);
    after.finish('c');
    await c;
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 0, waiting: 0 });
    // A client gone before asking is not queued at all.
    const gone = new AbortController();
    gone.abort();
    await expect(queue.run(controllable().job, gone.signal)).rejects.toBeInstanceOf(DomainError);
    expect(queue.running).toBe(0);
  });
});
