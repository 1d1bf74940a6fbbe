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

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { heapMb: 512, rssMb: 1024, timeoutMs: 60_000 };

const CHILD = fileURLToPath(new URL('./sandbox-child.mjs', import.meta.url));
const RSS_POLL_MS = 50;
const PAGE_SIZE = 4096;

/** Resident memory of a process from /proc (Linux); undefined elsewhere or once it has gone. */
function residentMb(pid: number): number | undefined {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * PAGE_SIZE) / 1024 / 1024;
  } catch {
    return undefined;
  }
}

const overLimit = (what: string): SandboxFailure => ({
  ok: false,
  reason: 'tooLarge',
  message: `The file needs more ${what} to read than a document may: it is refused to protect the server.`,
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
  const timer = setTimeout(() => kill(overLimit('time')), limits.timeoutMs);
  const watch = setInterval(() => {
    const rss = child.pid === undefined ? undefined : residentMb(child.pid);
    if (rss !== undefined && rss > limits.rssMb) kill(overLimit('memory'));
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
      return code === 0 ? unreadable : overLimit('memory');
    }
    const result = schema.safeParse(parsed);
    return result.success ? result.data : unreadable;
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
  }
}

export function inspectPdf(input: string, maxPages: number, limits = DEFAULT_SANDBOX_LIMITS): Promise<InspectResult> {
  return runInSandbox({ mode: 'inspect', input, maxPages }, InspectResult, limits);
}

export function imageToPdf(input: string, format: string, output: string, limits = DEFAULT_SANDBOX_LIMITS): Promise<WriteResult> {
  return runInSandbox({ mode: 'image', input, format, output }, WriteResult, limits);
}

export function mergePdfs(inputs: string[], output: string, limits = DEFAULT_SANDBOX_LIMITS): Promise<WriteResult> {
  return runInSandbox({ mode: 'merge', inputs, output }, WriteResult, limits);
}
