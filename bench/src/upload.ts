/**
 * Memory of the server while it takes a large upload. The server runs as its own process (so the
 * numbers are its own, not this script's) on its embedded PostgreSQL (a fresh DATA_DIR, no
 * DATABASE_URL), seeded with the demo tenant; a PDF of UPLOAD_MB (default 100) is written to disk
 * and sent as a stream. The server process's resident memory is read from /proc before the upload
 * and its peak (VmHWM) after: the growth shows whether the upload is streamed or held. Beside it,
 * the server and its database together: the server process and every process below it (the
 * embedded postmaster and its backends; the upload's sandbox child while it lives), VmRSS and Pss
 * summed, before and at their highest (sampled every 50 ms). The PDF is inspected in the sandbox
 * child, whose memory is its own and bounded.
 *
 *   npm run bench:upload -w @pakt/bench        (Linux: /proc is where memory is read)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../apps/server/src/paths';
import { memoryOf, resetPeak, startDemoServer, streamUpload } from './demo-server';
import { loadavg, mb, serverAndDatabaseMemory } from './server-process';

const UPLOAD_MB = Number(process.env.UPLOAD_MB ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 3411);

/** A valid one-page PDF carrying an unreferenced-by-content image stream of `megabytes` MB. */
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

async function main() {
  if (!fs.existsSync('/proc/self/smaps_rollup')) throw new Error('This benchmark reads memory from /proc (Linux).');
  if (process.env.DATABASE_URL) throw new Error('Unset DATABASE_URL: this benchmark measures the server on its embedded PostgreSQL.');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-upload-'));
  const pdf = path.join(work, 'large.pdf');
  writeLargePdf(pdf, UPLOAD_MB);
  const { server, base, headers } = await startDemoServer({ work, port: PORT, env: { DOCUMENT_MAX_MB: String(UPLOAD_MB + 10) } });
  try {
    // Warm-up: one small upload loads the routes, the multipart parser and the sandbox path.
    const small = path.join(REPO_ROOT, '../shared/corpus/pdfs/plain-1p-pdftex.pdf');
    if (fs.existsSync(small)) await streamUpload(`${base}/msbapi/v1/documents`, headers, {}, small, 'large.pdf', 'application/pdf');

    const dataDir = path.join(work, 'data');
    const before = memoryOf(server.pid!);
    const treeBefore = serverAndDatabaseMemory(server.pid!, dataDir);
    const loadBefore = loadavg();
    resetPeak(server.pid!);
    const treePeak = { rssMb: treeBefore.rssMb, pssMb: treeBefore.pssMb };
    const sampler = setInterval(() => {
      const now = serverAndDatabaseMemory(server.pid!, dataDir);
      treePeak.rssMb = Math.max(treePeak.rssMb, now.rssMb);
      treePeak.pssMb = Math.max(treePeak.pssMb, now.pssMb);
    }, 50);
    const started = Date.now();
    const result = await streamUpload(`${base}/msbapi/v1/documents`, headers, {}, pdf, 'large.pdf', 'application/pdf').finally(() => clearInterval(sampler));
    const seconds = (Date.now() - started) / 1000;
    const after = memoryOf(server.pid!);
    if (result.status !== 200) throw new Error(`upload failed: ${result.status} ${result.body}`);
    const growth = after.peakMb - before.rssMb;
    const report = [
      `## Large upload (${UPLOAD_MB} MB PDF)`,
      '',
      `Run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, embedded PostgreSQL, \`npm run bench:upload -w @pakt/bench\`, load average ${loadBefore} before and ${loadavg()} after.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| file | ${(fs.statSync(pdf).size / 1024 / 1024).toFixed(1)} MB |`,
      `| upload, inspection and storing | ${seconds.toFixed(1)} s (${(fs.statSync(pdf).size / 1024 / 1024 / seconds).toFixed(0)} MB/s) |`,
      `| server resident memory before | ${before.rssMb.toFixed(0)} MB |`,
      `| server peak resident memory during | ${after.peakMb.toFixed(0)} MB |`,
      `| growth (target: under 150 MB) | ${growth.toFixed(0)} MB |`,
      `| server and embedded PostgreSQL before, RSS / Pss (summed over their processes) | ${mb(treeBefore.rssMb)} / ${mb(treeBefore.pssMb)} |`,
      `| server and embedded PostgreSQL at their highest during, RSS / Pss (sampled every 50 ms, sandbox child included) | ${mb(treePeak.rssMb)} / ${mb(treePeak.pssMb)} |`,
      '',
      'The upload streams to a scratch file and from there into storage; the PDF is parsed only in the',
      'sandbox child, whose heap, resident memory and time are bounded separately (not counted in the',
      "server process's rows; counted, while it lives, in the sampled server-and-database rows).",
      '',
    ].join('\n');
    console.log(report);
    const doc = path.join(REPO_ROOT, 'docs/benchmarks.md');
    const current = fs.readFileSync(doc, 'utf8');
    // Only this section is replaced: the sections after it (sealing, inbox, bulk compose) stay.
    const start = current.indexOf('## Large upload');
    const next = start < 0 ? -1 : current.indexOf('\n## ', start + 1);
    const updated =
      start < 0 ? `${current.trimEnd()}\n\n${report}` : `${current.slice(0, start)}${report}${next < 0 ? '' : `\n${current.slice(next + 1)}`}`;
    fs.writeFileSync(doc, updated);
    if (growth >= 150) process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
