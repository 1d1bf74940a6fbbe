import { DomainError, ResponseCode } from '@pakt/domain';
import type { AppContext } from '../../http/app-context';

/** How long a refused client is asked to wait before trying again (the Retry-After header). */
export const PARSER_RETRY_AFTER_SECONDS = 10;

/**
 * A bounded queue for the work that starts parsing and conversion children (the PDF sandbox,
 * LibreOffice, the anchors' text reader, the verifier's child). Each child may take up to its
 * memory limit, so without a bound a handful of parallel uploads of decompression bombs take the
 * machine's memory: at most `concurrency` jobs run at once in this process, at most `maxWaiting`
 * wait their turn, and beyond that a job is refused at once (-2, 503 with Retry-After) before it
 * starts anything.
 *
 * Every child of ours is started inside a turn (documents.ts, anchors/text-extraction.ts,
 * verify/verify-document.ts), and a turn runs its children one after another, so at most
 * `concurrency` children live at once (DOCUMENT_PARSERS, 2 by default), each within its own
 * resident limit (sandbox.ts: 512 MB to inspect a PDF, 1 GB to convert an image, merge, read text
 * or verify; LibreOffice is bounded in time only).
 */
export class ParserQueue {
  readonly concurrency: number;
  readonly maxWaiting: number;
  #running = 0;
  readonly #waiting: { start: () => void; abandon: () => void }[] = [];

  constructor(options: { concurrency: number; maxWaiting: number }) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error('A parser queue runs at least one job at a time.');
    if (!Number.isInteger(options.maxWaiting) || options.maxWaiting < 0) throw new Error('A parser queue cannot hold fewer than no waiting jobs.');
    this.concurrency = options.concurrency;
    this.maxWaiting = options.maxWaiting;
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `job` when a turn is free. `signal` aborting while the job waits (its client went away)
   * takes it out of the line without running it; once started, the job runs to its end, and its
   * slot is given back however it ends.
   */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw abandoned();
    if (this.#running >= this.concurrency) await this.#waitForTurn(signal);
    else this.#running += 1;
    try {
      return await job();
    } finally {
      this.#release();
    }
  }

  #waitForTurn(signal: AbortSignal | undefined): Promise<void> {
    if (this.#waiting.length >= this.maxWaiting) {
      throw new DomainError(ResponseCode.SYSTEM_ERROR, 'The server is busy reading other documents. Please try again in a few seconds.', {
        httpStatus: 503,
        data: { retryAfterSeconds: PARSER_RETRY_AFTER_SECONDS },
      });
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        // The slot is handed over by #release, so it is counted before this job runs.
        start: () => {
          signal?.removeEventListener('abort', entry.abandon);
          resolve();
        },
        abandon: () => {
          const at = this.#waiting.indexOf(entry);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(abandoned());
        },
      };
      signal?.addEventListener('abort', entry.abandon, { once: true });
      this.#waiting.push(entry);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    // The slot passes straight to the next job in line; only when none waits is it freed.
    if (next) next.start();
    else this.#running -= 1;
  }
}

/** Nobody is left to answer: a plain refusal, not logged as a fault of ours. */
const abandoned = () => new DomainError(ResponseCode.GENERIC_ERROR, 'The request was abandoned before the document was read.');

const queues = new WeakMap<AppContext, ParserQueue>();

/** The one queue of this process (of this app, in tests that build several), sized by configuration. */
export function parserQueueOf(ctx: AppContext): ParserQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new ParserQueue({ concurrency: ctx.config.documents.parsers, maxWaiting: ctx.config.documents.parseQueue });
    queues.set(ctx, queue);
  }
  return queue;
}
