import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { childEnvironment } from './child-environment';
import { InspectResult, WriteResult, type SandboxFailure, type SandboxJob } from './sandbox-protocol';

export interface SandboxLimits {
  /** V8 heap of the child, in MB. */
  heapMb: number;
  /** Resident memory of the child (heap, buffers, everything), in MB; watched on Linux. */
  rssMb: number;
  timeoutMs: number;
}

/**
 * Conversions, merges and the verifier's child: pdf-lib and the verifier hold their inputs whole,
 * and an image is decoded to its pixels (up to 80 megapixels, 320 MB of RGBA) before it is
 * encoded again, so these get room.
 */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { heapMb: 512, rssMb: 1024, timeoutMs: 60_000 };

/**
 * Inspecting a PDF: the child reads it by ranges (sandbox-child.mjs) and holds Node, pdf.js, the
 * structure it parses and the slices it read, whatever the file's size: about 75 MB resident for a
 * one-page file of 100 MB, 140 MB for a 352-page book. The room above that is for a damaged file
 * whose cross-reference pdf.js rebuilds by scanning it, which it then holds whole, at some four
 * times its size (a damaged 100 MB file: 400 MB). Such files were read before the child read by
 * ranges, so they keep the room they had: the bound is what stops a hostile file, and a sound one
 * never comes near it.
 */
export const INSPECT_SANDBOX_LIMITS: SandboxLimits = { heapMb: 512, rssMb: 1024, timeoutMs: 60_000 };

/**
 * For the upload bench only (bench/src/upload.ts): inspection reads the file into memory whole and
 * loads pdf.js with its canvas library, as it did before it read by ranges, so the two are measured
 * side by side. Never set in production.
 */
export const WHOLE_FILE_INSPECTION_SWITCH = 'BENCH_SANDBOX_WHOLE_FILE';

const CHILD = fileURLToPath(new URL('./sandbox-child.mjs', import.meta.url));
/** A child can allocate fast: its resident memory is read often (a read of /proc costs microseconds). */
const RSS_POLL_MS = 20;
const PAGE_SIZE = 4096;

let alive = 0;

/**
 * Sandbox children of this process alive now. The parser queue (parser-queue.ts) is what bounds
 * them; this count is how that is seen.
 */
export function sandboxChildrenAlive(): number {
  return alive;
}

/** Resident memory of a process from /proc (Linux); undefined elsewhere or once it has gone. */
function residentMb(pid: number): number | undefined {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * PAGE_SIZE) / 1024 / 1024;
  } catch {
    return undefined;
  }
}

/** A child stopped at one of its limits: -59 with 413, the answer for a file too large to take. */
const overLimit = (what: 'time' | 'memory', limit: string): SandboxFailure => ({
  ok: false,
  reason: 'tooLarge',
  message: `The file needs more ${what} to read than a document may (${limit}): it is refused to protect the server.`,
});

/**
 * Runs one job on an untrusted file in a child process bounded in heap, resident memory and time.
 * Whatever happens in there (a decompression bomb, an endless loop, a crash), the answer is a
 * result or a failure: never an exception that takes the server down.
 */
async function runInSandbox<R>(job: SandboxJob, schema: z.ZodType<R>, limits: SandboxLimits): Promise<R | SandboxFailure> {
  return runScriptInSandbox({ script: CHILD, job, schema, limits });
}

/**
 * The same bounds for another child script (the verifier's): `job` goes to it as JSON in argv,
 * and its last stdout line, checked against `schema`, is the answer.
 */
export async function runScriptInSandbox<R>(options: { script: string; nodeArgs?: readonly string[]; job: unknown; schema: z.ZodType<R>; limits: SandboxLimits }): Promise<R | SandboxFailure> {
  const { schema, limits } = options;
  const child = spawn(process.execPath, [`--max-old-space-size=${limits.heapMb}`, ...(options.nodeArgs ?? []), options.script, JSON.stringify(options.job)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // None of the server's secrets: the child reads a stranger's file and could be led astray.
    env: childEnvironment(),
  });
  alive += 1;
  let stdout = '';
  let killedFor: SandboxFailure | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (stdout.length < 10_000_000) stdout += chunk;
  });
  child.stderr.resume();
  const kill = (failure: SandboxFailure) => {
    killedFor ??= failure;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => kill(overLimit('time', `${limits.timeoutMs / 1000} s`)), limits.timeoutMs);
  const watch = setInterval(() => {
    const rss = child.pid === undefined ? undefined : residentMb(child.pid);
    if (rss !== undefined && rss > limits.rssMb) kill(overLimit('memory', `${limits.rssMb} MB`));
  }, RSS_POLL_MS);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (exitCode) => resolve(exitCode));
    });
    if (killedFor) return killedFor;
    const line = stdout.trim().split('\n').pop() ?? '';
    const unreadable: SandboxFailure = { ok: false, reason: 'invalid', message: 'The file could not be read.' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // A heap overflow ends the child with no answer: that is the memory limit speaking.
      return code === 0 ? unreadable : overLimit('memory', `${limits.heapMb} MB of heap`);
    }
    const result = schema.safeParse(parsed);
    return result.success ? result.data : unreadable;
  } finally {
    alive -= 1;
    clearTimeout(timer);
    clearInterval(watch);
  }
}

export function inspectPdf(input: string, maxPages: number, limits?: SandboxLimits): Promise<InspectResult> {
  const wholeFile = process.env[WHOLE_FILE_INSPECTION_SWITCH] === '1';
  // The whole-file read keeps the limits it had, so the bench compares the reads, not the limits.
  const bounds = limits ?? (wholeFile ? DEFAULT_SANDBOX_LIMITS : INSPECT_SANDBOX_LIMITS);
  return runInSandbox({ mode: 'inspect', input, maxPages, ...(wholeFile ? { wholeFile } : {}) }, InspectResult, bounds);
}

export function imageToPdf(input: string, format: string, output: string, limits = DEFAULT_SANDBOX_LIMITS): Promise<WriteResult> {
  return runInSandbox({ mode: 'image', input, format, output }, WriteResult, limits);
}

export function mergePdfs(inputs: string[], output: string, limits = DEFAULT_SANDBOX_LIMITS): Promise<WriteResult> {
  return runInSandbox({ mode: 'merge', inputs, output }, WriteResult, limits);
}
