import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { ANCHOR_MAX_PAGES, ANCHOR_TIME_LIMIT_MS, DomainError, ResponseCode } from '@pakt/domain';
import { REPO_ROOT } from '../../paths';
import { FileNotFoundError, type FileStorage } from '../../platform/storage/file-storage';
import { type parserQueueOf, runScriptInSandbox, type SandboxLimits } from '../documents';
import { type TextExtraction, type TextJob, TextResult } from './text-protocol';

/**
 * A stored PDF's text (and drawn lines), read in a child process bounded like the upload sandbox,
 * in a turn of the process's parser queue: a document is parsed out of the server, whatever asks.
 */

export interface ExtractionLimits {
  readonly maxPages: number;
  /** The child's own budget: it stops at the next page past it and says so. */
  readonly deadlineMs: number;
  readonly maxItems: number;
  readonly maxChars: number;
  /** The hard bounds: past them the child is killed. */
  readonly sandbox: SandboxLimits;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxPages: ANCHOR_MAX_PAGES,
  deadlineMs: ANCHOR_TIME_LIMIT_MS,
  // About 10 MB of answer at most: the sandbox reads no more than that from a child.
  maxItems: 100_000,
  maxChars: 1_500_000,
  // The child stops itself at the deadline, after the page in hand; past this it is killed.
  sandbox: { heapMb: 512, rssMb: 1024, timeoutMs: ANCHOR_TIME_LIMIT_MS + 10_000 },
};

/** The child: beside this module when running from source; from the source tree when bundled (dist/ holds only main.mjs and its own children). */
function textChild(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'text-child.mjs');
  return fs.existsSync(beside) ? beside : path.join(REPO_ROOT, 'apps/server/src/features/anchors/text-child.mjs');
}

/**
 * The last few extractions, by tenant and content: a custodian who looks for signature lines and
 * then for anchors on the same document pays for one reading. Stored bytes never change under
 * their hash, so an entry is never stale.
 */
const CACHE_ENTRIES = 4;
const cache = new Map<string, Promise<TextExtraction>>();

function remember(key: string, value: Promise<TextExtraction>): Promise<TextExtraction> {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  const forget = () => {
    if (cache.get(key) === value) cache.delete(key);
  };
  // A failure is not kept, nor a reading cut short by time (another try may get further).
  value.then((extraction) => extraction.truncated === 'time' && forget(), forget);
  return value;
}

export async function extractText(options: {
  storage: FileStorage;
  tenantId: string;
  sha256: string;
  /** Drawn lines too (signature lines); text alone for anchors. */
  lines: boolean;
  workRoot: string;
  parsers: ReturnType<typeof parserQueueOf>;
  limits?: ExtractionLimits;
}): Promise<TextExtraction> {
  const limits = options.limits ?? DEFAULT_EXTRACTION_LIMITS;
  // Read under other limits, the same document may read differently.
  const base = `${options.tenantId}|${options.sha256}|${JSON.stringify(limits)}`;
  const withLines = cache.get(`${base}|lines`);
  // What was read with its lines serves a reading of text alone.
  if (!options.lines && withLines) return withLines;
  const key = `${base}|${options.lines ? 'lines' : 'text'}`;
  const kept = cache.get(key);
  if (kept) return remember(key, kept);
  // No client's abort signal: the reading may be shared by another request for the same document.
  return remember(key, options.parsers.run(() => readStored({ ...options, limits })));
}

async function readStored(options: { storage: FileStorage; sha256: string; lines: boolean; workRoot: string; limits: ExtractionLimits }): Promise<TextExtraction> {
  await fs.promises.mkdir(options.workRoot, { recursive: true });
  const dir = await fs.promises.mkdtemp(path.join(options.workRoot, 'anchors-'));
  try {
    const input = path.join(dir, 'document.pdf');
    try {
      await pipeline(await options.storage.get(options.sha256), fs.createWriteStream(input, { flags: 'wx' }));
    } catch (error) {
      if (error instanceof FileNotFoundError) throw new DomainError(ResponseCode.DOCUMENT_NOT_AVAILABLE, 'The document\'s file is not available.');
      throw error;
    }
    const run = (lines: boolean) => {
      const job: TextJob = { input, maxPages: options.limits.maxPages, deadlineMs: options.limits.deadlineMs, maxItems: options.limits.maxItems, maxChars: options.limits.maxChars, lines };
      return runScriptInSandbox({ script: textChild(), job, schema: TextResult, limits: options.limits.sandbox });
    };
    let result = await run(options.lines);
    // Drawing operators decode images: a page that is too much for that may still give its text.
    if (!result.ok && options.lines) result = await run(false);
    if (!result.ok) throw new DomainError(ResponseCode.INVALID_DOCUMENT, `The document's text could not be read: ${result.message}`);
    return result;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
