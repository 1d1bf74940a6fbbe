import { DomainError, type PAGE_PREVIEW_WIDTHS, ResponseCode } from '@pakt/domain';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { childEnvironment, type ParserQueue } from '../documents';

/**
 * A picture of one page of an ePak's document, drawn by poppler on the server, for a signer's
 * first look on a slow phone: a few tens of KB that show the page while pdf.js (about 400 KB
 * compressed) and the file itself still download. pdf.js then draws over it, as before, so what
 * the signer reads and approves is the same file either way; poppler is also what our own checks
 * render with (pdftoppm).
 *
 * Pictures are kept in memory, by document, revision count, page and width: a document only
 * grows by revisions, so a key never goes stale, and nothing of a deleted ePak outlives the
 * process. The caller authorizes before asking.
 */

/** One of the few widths a picture may be asked for, in device pixels, so the cache stays small. */
export type PagePreviewWidth = (typeof PAGE_PREVIEW_WIDTHS)[number];

/** pdftoppm is stopped after this long, and beyond this much address space (a bomb's page). */
const RENDER_TIMEOUT_MS = 15_000;
const RENDER_ADDRESS_SPACE_BYTES = 1024 * 1024 * 1024;
/** A picture larger than this is not a preview; it is refused rather than kept. */
const MAX_PICTURE_BYTES = 4 * 1024 * 1024;
/** The cache's bound, in bytes of PNG (a text page at 480 px is about 20 KB). */
const CACHE_BYTES = 32 * 1024 * 1024;

const unavailable = () => new DomainError(ResponseCode.DOCUMENT_NOT_AVAILABLE, 'No picture of this page could be made; the page is drawn in the browser instead.');

/** Least recently used first: a Map keeps insertion order, and a hit is moved to the end. */
const cache = new Map<string, Buffer>();
let cachedBytes = 0;

function remember(key: string, png: Buffer): void {
  if (png.length > CACHE_BYTES / 4) return;
  cache.set(key, png);
  cachedBytes += png.length;
  for (const [oldest, picture] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= picture.length;
  }
}

function recall(key: string): Buffer | undefined {
  const png = cache.get(key);
  if (png) {
    cache.delete(key);
    cache.set(key, png);
  }
  return png;
}

/** Forgets every picture (tests). */
export function clearPagePreviews(): void {
  cache.clear();
  cachedBytes = 0;
}

/**
 * The PNG of page `page` (1-based) at `width` device pixels of the document whose current file
 * `read` gives, `revisions` its revision count. `page` must be one of the document's pages
 * (checked by the caller against its page count).
 */
export async function renderPagePreview(options: {
  documentId: string;
  revisions: number;
  page: number;
  width: PagePreviewWidth;
  read: () => Promise<Buffer>;
  parsers: ParserQueue;
  signal?: AbortSignal;
}): Promise<Buffer> {
  const key = `${options.documentId}:${options.revisions}:${options.page}:${options.width}`;
  const cached = recall(key);
  if (cached) return cached;
  const bytes = await options.read();
  // pdftoppm is a child like the sandbox's: it takes a turn of the same bounded queue.
  const png = await options.parsers.run(() => drawPage(bytes, options.page, options.width), options.signal);
  remember(key, png);
  return png;
}

async function drawPage(bytes: Buffer, page: number, width: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pakt-preview-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await fs.writeFile(file, bytes, { mode: 0o600 });
    // The crop box, as pdf.js and the page geometry use it; the page's /Rotate is applied.
    const args = ['pdftoppm', '-png', '-singlefile', '-cropbox', '-f', String(page), '-l', String(page), '-scale-to-x', String(width), '-scale-to-y', '-1', file];
    return await run(['prlimit', `--as=${RENDER_ADDRESS_SPACE_BYTES}`, '--', ...args]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Runs the command, answering its stdout if it ends well and is a PNG of a sane size. */
function run(command: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'ignore'], env: childEnvironment() });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = () => {
      failed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(fail, RENDER_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) fail();
      else chunks.push(chunk);
    });
    // Not installed (poppler-utils, or util-linux's prlimit): the browser draws the page itself.
    child.on('error', () => {
      clearTimeout(timer);
      reject(unavailable());
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const png = Buffer.concat(chunks);
      const isPng = png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      if (failed || code !== 0 || !isPng) reject(unavailable());
      else resolve(png);
    });
  });
}
