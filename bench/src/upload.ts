/**
 * Memory of a large upload, for the whole process tree that serves it. Two servers run as
 * processes of their own, each on its embedded PostgreSQL (a fresh DATA_DIR, no DATABASE_URL)
 * seeded with the demo tenant:
 *   - "ranges": as shipped, the sandbox child reads the PDF by ranges;
 *   - "whole file": the same build with BENCH_SANDBOX_WHOLE_FILE=1, the child reading the file
 *     into memory whole as it did before (features/documents/sandbox.ts).
 * A PDF of UPLOAD_MB (default 100) is written to disk and streamed to each in turn, ROUNDS times
 * (default 3), the order alternating, so both sides see the same load.
 *
 * What is measured, from /proc (Linux), for each upload:
 *   - the server process's growth: its peak resident memory during the upload (VmHWM, reset just
 *     before) less its resident memory when idle just before (VmRSS);
 *   - the sandbox child's peak (its VmHWM, read with its VmRSS every SAMPLE_MS while it lives);
 *   - the tree's peak growth: the server, the embedded PostgreSQL (postmaster and backends) and
 *     the sandbox child, their VmRSS summed every SAMPLE_MS (default 20), highest sum less the sum
 *     when idle just before. Target: under 150 MB for a 100 MB upload.
 * PostgreSQL's processes share their buffers, so the summed VmRSS counts those pages once per
 * process: the idle sum is high, the growth (what the upload adds) is what counts.
 *
 *   npm run bench:upload -w @pakt/bench        (Linux; UPLOAD_MB, ROUNDS, SAMPLE_MS to change)
 *
 * Prints the section for docs/benchmarks.md and writes it there (only that section).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { type DemoServer, memoryOf, resetPeak, startDemoServer, streamUpload } from './demo-server';
import { loadavg, mb, processTree } from './server-process';

const UPLOAD_MB = Number(process.env.UPLOAD_MB ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3411);
const TARGET_MB = 150;

/** A valid one-page PDF carrying an image stream (not drawn by the page's content) of `megabytes` MB. */
function writeLargePdf(file: string, megabytes: number): void {
  const fd = fs.openSync(file, 'w');
  let offset = 0;
  const offsets: number[] = [];
  const write = (data: string | Buffer) => {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    fs.writeSync(fd, buffer);
    offset += buffer.length;
  };
  const object = (id: number, body: string) => {
    offsets[id] = offset;
    write(`${id} 0 obj\n${body}\nendobj\n`);
  };
  write('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Big 5 0 R >> >> /Contents 4 0 R >>');
  const content = 'BT /F1 12 Tf 72 770 Td (Large upload benchmark) Tj ET';
  object(4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  // A grey image of the requested size, written in 1 MB slices so this script stays small too.
  const side = Math.floor(Math.sqrt(megabytes * 1024 * 1024));
  const length = side * side;
  offsets[5] = offset;
  write(`5 0 obj\n<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${length} >>\nstream\n`);
  const slice = Buffer.alloc(1024 * 1024, 0x80);
  for (let left = length; left > 0; left -= slice.length) write(left >= slice.length ? slice : slice.subarray(0, left));
  write('\nendstream\nendobj\n');
  const xref = offset;
  write(`xref\n0 6\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  write(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  fs.closeSync(fd);
}

type Role = 'server' | 'sandbox' | 'database' | 'other';

const ROLES: readonly Role[] = ['server', 'sandbox', 'database', 'other'];

interface Sample {
  /** VmRSS summed over the tree, MB. */
  treeMb: number;
  /** Pss summed over the tree, MB: each shared page divided among the processes that map it. */
  treePssMb: number;
  /** VmRSS summed over the processes of each role, MB. */
  byRole: Record<Role, number>;
  /** Each process's VmRSS and VmHWM, MB, and what it is. */
  processes: Map<number, { role: Role; rssMb: number; peakMb: number }>;
}

function roleOf(pid: number, root: number): Role {
  if (pid === root) return 'server';
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmdline.includes('sandbox-child.mjs')) return 'sandbox';
    if (cmdline.startsWith('postgres') || cmdline.includes('/postgres')) return 'database';
  } catch {
    // gone meanwhile
  }
  return 'other';
}

/** The server's tree now: every process below it (the embedded PostgreSQL, a sandbox child), VmRSS and VmHWM. */
function sampleTree(root: number, roles: Map<number, Role>): Sample {
  const processes = new Map<number, { role: Role; rssMb: number; peakMb: number }>();
  let treeMb = 0;
  let treePssMb = 0;
  const byRole: Record<Role, number> = { server: 0, sandbox: 0, database: 0, other: 0 };
  for (const pid of processTree(root)) {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue;
    }
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    // Known roles are kept; 'other' is asked again, since a child just forked still shows the server's command line.
    let role = roles.get(pid);
    if (!role) {
      role = roleOf(pid, root);
      if (role !== 'other') roles.set(pid, role);
    }
    const rssMb = kb('VmRSS') / 1024;
    processes.set(pid, { role, rssMb, peakMb: kb('VmHWM') / 1024 });
    treeMb += rssMb;
    byRole[role] += rssMb;
    try {
      treePssMb += Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { treeMb, treePssMb, byRole, processes };
}

interface Measure {
  variant: string;
  seconds: number;
  serverIdleMb: number;
  serverGrowthMb: number;
  sandboxPeakMb: number;
  sandboxChildren: number;
  treeIdleMb: number;
  treeGrowthMb: number;
  treePssGrowthMb: number;
  /** At the tree's peak: how much each role had grown over idle (a role absent when idle, the sandbox, counts whole). */
  growthByRole: Record<Role, number>;
  samples: number;
  load: string;
}

async function measureUpload(variant: string, server: DemoServer, pdf: string): Promise<Measure> {
  const pid = server.server.pid!;
  const roles = new Map<number, Role>();
  const load = loadavg();
  const idle = sampleTree(pid, roles);
  const serverIdle = memoryOf(pid);
  resetPeak(pid);
  let treePeakMb = idle.treeMb;
  let peakByRole = idle.byRole;
  let treePssPeakMb = idle.treePssMb;
  let samples = 0;
  const sandboxPeaks = new Map<number, number>();
  const sample = () => {
    const now = sampleTree(pid, roles);
    samples += 1;
    treePssPeakMb = Math.max(treePssPeakMb, now.treePssMb);
    if (now.treeMb > treePeakMb) {
      treePeakMb = now.treeMb;
      peakByRole = now.byRole;
    }
    for (const [child, memory] of now.processes) {
      if (memory.role === 'sandbox') sandboxPeaks.set(child, Math.max(sandboxPeaks.get(child) ?? 0, memory.rssMb, memory.peakMb));
    }
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  const started = performance.now();
  const result = await streamUpload(`${server.base}/msbapi/v1/documents`, server.headers, {}, pdf, 'large.pdf', 'application/pdf').finally(() => clearInterval(sampler));
  const seconds = (performance.now() - started) / 1000;
  sample();
  if (result.status !== 200) throw new Error(`${variant}: upload failed: ${result.status} ${result.body}`);
  return {
    variant,
    seconds,
    serverIdleMb: serverIdle.rssMb,
    serverGrowthMb: memoryOf(pid).peakMb - serverIdle.rssMb,
    sandboxPeakMb: Math.max(0, ...sandboxPeaks.values()),
    sandboxChildren: sandboxPeaks.size,
    treeIdleMb: idle.treeMb,
    treeGrowthMb: treePeakMb - idle.treeMb,
    treePssGrowthMb: treePssPeakMb - idle.treePssMb,
    growthByRole: Object.fromEntries(ROLES.map((role) => [role, peakByRole[role] - idle.byRole[role]])) as Record<Role, number>,
    samples,
    load,
  };
}

async function main() {
  if (!fs.existsSync('/proc/self/status')) throw new Error('This benchmark reads memory from /proc (Linux).');
  if (process.env.DATABASE_URL) throw new Error('Unset DATABASE_URL: this benchmark measures the server on its embedded PostgreSQL.');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-upload-'));
  const pdf = path.join(work, 'large.pdf');
  writeLargePdf(pdf, UPLOAD_MB);
  const env = { DOCUMENT_MAX_MB: String(UPLOAD_MB + 10) };
  const servers: { variant: string; server: DemoServer }[] = [];
  try {
    for (const [index, variant] of ['ranges', 'whole file'].entries()) {
      const dir = path.join(work, `server-${index}`);
      fs.mkdirSync(dir);
      const extra: Record<string, string> = variant === 'whole file' ? { BENCH_SANDBOX_WHOLE_FILE: '1' } : {};
      servers.push({ variant, server: await startDemoServer({ work: dir, port: PORT + index, env: { ...env, ...extra } }) });
    }
    // Warm-up: one small upload each loads the routes, the multipart parser and the sandbox path.
    const small = path.join(REPO_ROOT, '../shared/corpus/pdfs/plain-1p-pdftex.pdf');
    for (const { server } of servers) {
      if (fs.existsSync(small)) await streamUpload(`${server.base}/msbapi/v1/documents`, server.headers, {}, small, 'small.pdf', 'application/pdf');
    }
    const loadBefore = loadavg();
    const measures: Measure[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, the order alternating: neither side always goes first.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const { variant, server } of order) measures.push(await measureUpload(variant, server, pdf));
    }
    const loadAfter = loadavg();
    const size = fs.statSync(pdf).size / 1024 / 1024;
    const of = (variant: string) => measures.filter((m) => m.variant === variant);
    const worst = (variant: string, pick: (m: Measure) => number) => Math.max(...of(variant).map(pick));
    const median = (variant: string, pick: (m: Measure) => number) => {
      const values = of(variant).map(pick).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!;
    };
    const ranges = worst('ranges', (m) => m.treeGrowthMb);
    const report = [
      `## Large upload (${UPLOAD_MB} MB PDF)`,
      '',
      `Run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, two servers each on its embedded PostgreSQL, ` +
        `\`ROUNDS=${ROUNDS} npm run bench:upload -w @pakt/bench\` (bench/src/upload.ts), ${ROUNDS} uploads of a ${size.toFixed(1)} MB PDF to each, interleaved, ` +
        `load average ${loadBefore} before and ${loadAfter} after (other work was running on the machine).`,
      '',
      '- **Ranges** is the sandbox child as shipped: pdf.js reads the PDF by ranges from the file on disk (128 KB slices, only',
      '  those it parses), /Encrypt is looked for in one pass of 1 MB slices, and pdf.js is loaded without the canvas library it',
      '  draws with. **Whole file** is the same build with `BENCH_SANDBOX_WHOLE_FILE=1`: the child reads the file into memory',
      '  whole and loads pdf.js with its canvas library, with the limits it had, as it did before.',
      `- The tree is the server process, its embedded PostgreSQL (postmaster and backends) and the sandbox child, read from /proc`,
      `  every ${SAMPLE_MS} ms; its growth is the highest sum during the upload less the sum just before it. VmRSS counts a page`,
      "  shared by PostgreSQL's processes (its buffers) in each process that touches it, so the database's part of that sum moves",
      '  by tens of MB of its own; the tree with Pss summed (a shared page divided among its processes: what the machine pays)',
      '  is beside it.',
      "- The server's growth is its VmHWM (reset just before) less its VmRSS just before; the child's peak is its VmHWM. A server",
      '  keeps some of the memory it freed (its idle figure rises from one upload to the next), so its later uploads show less',
      '  growth than its first: the worst of the rounds is reported.',
      '',
      `| | ranges (worst of ${ROUNDS}) | whole file (worst of ${ROUNDS}) |`,
      '|---|---|---|',
      `| process tree: peak growth over idle, VmRSS summed (target: under ${TARGET_MB} MB) | **${mb(ranges)}** | ${mb(worst('whole file', (m) => m.treeGrowthMb))} |`,
      `| process tree: peak growth over idle, Pss summed | ${mb(worst('ranges', (m) => m.treePssGrowthMb))} | ${mb(worst('whole file', (m) => m.treePssGrowthMb))} |`,
      `| sandbox child: peak resident memory | ${mb(worst('ranges', (m) => m.sandboxPeakMb))} | ${mb(worst('whole file', (m) => m.sandboxPeakMb))} |`,
      `| server process: growth over idle | ${mb(worst('ranges', (m) => m.serverGrowthMb))} | ${mb(worst('whole file', (m) => m.serverGrowthMb))} |`,
      `| upload, inspection and storing (median) | ${median('ranges', (m) => m.seconds).toFixed(1)} s | ${median('whole file', (m) => m.seconds).toFixed(1)} s |`,
      '',
      'Each upload, in the order run:',
      '',
      '| # | variant | load (1 min) | time | tree idle | tree growth (server + child + database at that moment) | tree growth, Pss | child peak | server idle | server growth | samples |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...measures.map(
        (m, index) =>
          `| ${index + 1} | ${m.variant} | ${m.load.split(' ')[0]} | ${m.seconds.toFixed(1)} s | ${mb(m.treeIdleMb)} | ${mb(m.treeGrowthMb)} (${[m.growthByRole.server, m.growthByRole.sandbox, m.growthByRole.database].map((n) => n.toFixed(0)).join(' + ')}${Math.abs(m.growthByRole.other) >= 1 ? ` + ${m.growthByRole.other.toFixed(0)} other` : ''}) | ${mb(m.treePssGrowthMb)} | ${mb(m.sandboxPeakMb)}${m.sandboxChildren === 1 ? '' : ` (${m.sandboxChildren} children)`} | ${mb(m.serverIdleMb)} | ${mb(m.serverGrowthMb)} | ${m.samples} |`,
      ),
      '',
      'Bounds (features/documents/sandbox.ts): the child that inspects a PDF runs with `--max-old-space-size=256` and is killed',
      'once its resident memory passes 512 MB (read every 20 ms), which answers -59 with 413 ("The file needs more memory to read',
      'than a document may (512 MB)"); a damaged file whose cross-reference pdf.js must rebuild is read whole, at some four times',
      'its size, so such a file is read up to about 120 MB. Image conversion, merging, the verifier and the anchors\' text reader',
      'keep 512 MB of heap and 1 GB resident. At most `DOCUMENT_PARSERS` (2 by default) of these children run at once, each',
      'upload waiting for a turn of the parser queue (parser-queue.ts; parser-queue.test.ts starts six together and sees two alive',
      'at most).',
      '',
      "What is left: the child is no longer the tree's peak. Once it has answered, the server reads the PDF whole once more, to",
      "check the signatures and certification it carries (features/documents/documents.ts, checkSigning, through platform/pdf's",
      "reader, which works on the bytes in memory): that is most of the server's growth, about the file's size, and with the",
      "database's VmRSS movement it makes the tree's peak. A reader working from the file would take it away.",
      '',
    ].join('\n');
    console.log(report);
    if (process.env.BENCH_WRITE_DOCS !== '0') {
      const doc = path.join(REPO_ROOT, 'docs/benchmarks.md');
      const current = fs.readFileSync(doc, 'utf8');
      // Only this section is replaced: the sections after it stay.
      const start = current.indexOf('## Large upload');
      const next = start < 0 ? -1 : current.indexOf('\n## ', start + 1);
      const updated = start < 0 ? `${current.trimEnd()}\n\n${report}` : `${current.slice(0, start)}${report}${next < 0 ? '' : `\n${current.slice(next + 1)}`}`;
      fs.writeFileSync(doc, updated);
    }
    if (ranges >= TARGET_MB) process.exitCode = 1;
  } finally {
    for (const { server } of servers) {
      if (server.server.exitCode !== null || server.server.signalCode !== null) continue;
      const exited = new Promise((resolve) => server.server.once('exit', resolve));
      server.server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
