/**
 * Bulk compose at scale (issue 8). The real server runs as its own process on embedded PGlite,
 * seeded with the demo tenant; the demo custodian makes a workflow with a "Client" placeholder and
 * a document template (signature, reason and an Amount field for that place) through the API,
 * then uploads a CSV of BULK_ROWS rows (default 10,000) and polls the run until it is completed.
 * Wall time is from the upload's first byte to the completed run; the server's peak resident
 * memory (VmHWM, reset before the upload) is read from /proc. Then a file of BULK_BIG_ROWS
 * (default 100,000) rows is uploaded to show it is accepted without a fixed cap; with
 * BULK_BIG_RUN=1 it is run through as well.
 *
 *   npm run bench:bulk -w @pakt/bench        (Linux: /proc is where memory is read)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { type Answer, call, memoryOf, resetPeak, startDemoServer, streamUpload } from './demo-server';

const ROWS = Number(process.env.BULK_ROWS ?? 10_000);
const BIG_ROWS = Number(process.env.BULK_BIG_ROWS ?? 100_000);
const BIG_RUN = process.env.BULK_BIG_RUN === '1';
const PORT = Number(process.env.BENCH_PORT ?? 3412);

/** A CSV of `rows` rows written a slice at a time; every row a different new person. */
function writeCsv(file: string, rows: number, tag: string): void {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'step1.recipient1.email,step1.recipient1.firstName,step1.recipient1.lastName,step1.recipient1.phone,step1.recipient1.countryCode,Amount\r\n');
  for (let start = 1; start <= rows; start += 1000) {
    let chunk = '';
    for (let row = start; row < Math.min(start + 1000, rows + 1); row++) chunk += `person${row}.${tag}@bulk.example,First${row},Last${row},555-123-4567,IN,${row * 10}\r\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
}

async function main() {
  if (!fs.existsSync('/proc/self/status')) throw new Error('This benchmark reads memory from /proc (Linux).');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-bulk-'));
  const { server, base, headers } = await startDemoServer({
    work,
    port: PORT,
    // A long run outlives the default 15-minute access token.
    env: { ACCESS_TOKEN_TTL_SECONDS: String(24 * 3600) },
  });
  try {
    const ok = (answer: Answer, what: string) => {
      if (answer.code !== 1) throw new Error(`${what} failed: ${answer.code} ${answer.message}`);
      return answer.data;
    };

    // The template: a one-page PDF, a SIGN step for "Client", signature + reason for that place, an Amount field.
    const states = ok(await call('GET', `${base}/msbapi/v1/workflow/states`, undefined, headers), 'states')['states'] as { workflowStateId: string; type: string }[];
    const sign = states.find((s) => s.type === 'SIGN')!;
    const workflow = ok(
      await call('POST', `${base}/msbapi/v2/workflows`, { name: `Bulk bench ${Date.now()}`, signingPolicy: 'ESIGNATURE', steps: [{ workflowStateId: sign.workflowStateId, recipients: [{ type: 'placeholder', label: 'Client' }] }] }, headers),
      'workflow',
    );
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]).drawText('Bulk compose benchmark', { x: 72, y: 770, size: 14 });
    const pdfFile = path.join(work, 'template.pdf');
    fs.writeFileSync(pdfFile, await pdf.save());
    const uploaded = await streamUpload(`${base}/msbapi/v1/documenttemplate/upload`, headers, { name: `Bulk bench ${Date.now()}`, workflowId: String(workflow['workflowId']) }, pdfFile, 'template.pdf', 'application/pdf');
    const template = ok(JSON.parse(uploaded.body) as Answer, 'template upload');
    const tag = (init: Record<string, unknown>) => ({ uuid: crypto.randomUUID(), type: 'signature', pageNumber: 1, positionX: 60, positionY: 60, blockWidth: 150, blockHeight: 40, ...init });
    ok(
      await call(
        'PUT',
        `${base}/msbapi/v1/documenttemplates/${String(template['docTemplateId'])}`,
        {
          tags: [
            tag({ userEmail: 'slot:1.1', wfsOrderId: 1 }),
            tag({ type: 'reason', userEmail: 'slot:1.1', wfsOrderId: 1, positionY: 150, blockHeight: 20 }),
            tag({ type: 'text', name: 'Amount', tagFor: 'custodian', positionY: 300, blockHeight: 20 }),
          ],
        },
        headers,
      ),
      'template tags',
    );
    const docTemplateId = String(template['docTemplateId']);

    const runFile = async (rows: number, tag: string, throughToTheEnd: boolean) => {
      const csv = path.join(work, `${tag}.csv`);
      writeCsv(csv, rows, tag);
      const before = memoryOf(server.pid!);
      resetPeak(server.pid!);
      const started = Date.now();
      const result = await streamUpload(`${base}/msbapi/v1/bulkcompose/upload`, headers, { docTemplateId }, csv, `${tag}.csv`, 'text/csv');
      const accepted = (Date.now() - started) / 1000;
      const answer = JSON.parse(result.body) as Answer;
      const run = ok(answer, 'bulk upload')['run'] as { runId: string; totalRows: number };
      let last: Record<string, unknown> = run;
      let samples = 0;
      let maxRss = before.rssMb;
      let lastPrint = Date.now();
      while (throughToTheEnd) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        last = ok(await call('GET', `${base}/msbapi/v1/bulkcompose/runs/${run.runId}`, undefined, headers), 'run')['run'] as Record<string, unknown>;
        maxRss = Math.max(maxRss, memoryOf(server.pid!).rssMb);
        samples++;
        if (Date.now() - lastPrint > 30_000) {
          lastPrint = Date.now();
          console.error(`${tag}: ${String(last['processedRows'])} of ${rows} rows after ${((Date.now() - started) / 1000).toFixed(0)} s, RSS ${memoryOf(server.pid!).rssMb.toFixed(0)} MB`);
        }
        if (last['status'] === 'completed' || last['status'] === 'failed') break;
      }
      const seconds = (Date.now() - started) / 1000;
      const after = memoryOf(server.pid!);
      return { rows, fileMb: fs.statSync(csv).size / 1024 / 1024, accepted, seconds, before, after, last, samples, maxRss };
    };

    const small = await runFile(ROWS, `rows${ROWS}`, true);
    if (small.last['status'] !== 'completed' || small.last['createdEpaks'] !== ROWS) throw new Error(`run did not make every ePak: ${JSON.stringify(small.last)}`);
    const big = await runFile(BIG_ROWS, `rows${BIG_ROWS}`, BIG_RUN);
    const line = (r: typeof small) =>
      `| ${r.rows.toLocaleString('en')} | ${r.fileMb.toFixed(1)} MB | ${r.accepted.toFixed(1)} s | ${r.samples > 0 ? `${r.seconds.toFixed(1)} s (${Math.round(r.rows / r.seconds)} rows/s)` : 'not run through'} | ${String(r.last['status'])}, ${String(r.last['createdEpaks'])} made, ${String(r.last['failedRows'])} refused | ${r.before.rssMb.toFixed(0)} MB | ${r.after.peakMb.toFixed(0)} MB | ${(r.after.peakMb - r.before.rssMb).toFixed(0)} MB |`;
    const report = [
      '## Bulk compose (CSV to started ePaks)',
      '',
      `Run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores, embedded PGlite, \`npm run bench:bulk -w @pakt/bench\` (bench/src/bulk.ts).`,
      '',
      '| rows | file | upload answered | until the run completed | result | server RSS before | peak RSS during | growth |',
      '|---|---|---|---|---|---|---|---|',
      line(small),
      line(big),
    ].join('\n');
    console.log(`\n${report}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
