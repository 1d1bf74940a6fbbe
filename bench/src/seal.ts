/**
 * Sealing one signer's step on a large PDF (issue 5): our incremental update, side by side with
 * the naive pipeline (pdf-lib load, draw, full save, then hash and sign) and with one SHA-256
 * pass over the file, the floor any signer has to pay. Each run happens in a fresh child process,
 * so its peak memory (VmHWM from /proc) is its own, and times the second of two runs there, as a
 * warm server would do it; runs alternate between pipelines so machine noise hits them alike,
 * and the medians are compared as ratios.
 *
 *   npm run bench:seal -w @pakt/bench        (SEAL_PAGES=500 SEAL_MB=20 SEAL_RUNS=5 by default)
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { shownSizeOfRect, textAppearance, type Rotation } from '../../apps/server/src/platform/sealing/appearance';
import { sealRevision } from '../../apps/server/src/platform/sealing/seal';
import { maxCmsSize, signDigest } from '../../apps/server/src/platform/signing/cms';
import { createTenantCa, issueSealCertificate, type TenantCertificate } from '../../apps/server/src/platform/signing/tenant-ca';

const PAGES = Number(process.env.SEAL_PAGES ?? 500);
const MEGABYTES = Number(process.env.SEAL_MB ?? 20);
const RUNS = Number(process.env.SEAL_RUNS ?? 5);
const PIPELINES = ['hash', 'incremental', 'naive'] as const;
type Pipeline = (typeof PIPELINES)[number];

interface Keys {
  readonly ca: TenantCertificate;
  readonly seal: TenantCertificate;
}

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/pdfs/', import.meta.url));
/** Real-world pages, copied in turn: two books (fonts, many small objects) and scans. */
const CORPUS_SOURCES = ['pages-352-freeculture.pdf', 'pages-117-geotopo.pdf', 'mixed-sizes-scans-6p.pdf', 'form-irs-1040-2010.pdf'];
const SOURCES = ['synthetic', 'corpus'] as const;
type Source = (typeof SOURCES)[number];

/** Random bytes in image-like streams until the file is about MEGABYTES large. */
function padTo(doc: PDFDocument, bytes: number, pieces: number): void {
  if (bytes <= 0) return;
  const each = Math.ceil(bytes / pieces);
  for (let i = 0; i < pieces; i++) {
    doc.context.register(doc.context.stream(crypto.randomBytes(each), { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }));
  }
}

/**
 * PAGES pages copied round-robin from real files of the shared corpus (fonts, content streams,
 * annotations, form fields: tens of thousands of small objects, as real documents have), then
 * padded with image data to about MEGABYTES MB.
 */
async function makeCorpusPdf(file: string): Promise<void> {
  const doc = await PDFDocument.create();
  const sources = await Promise.all(CORPUS_SOURCES.map(async (name) => PDFDocument.load(fs.readFileSync(path.join(CORPUS, name)), { ignoreEncryption: true })));
  // One copyPages call per source, so pages of one book share its fonts as they do in the book.
  const wanted = sources.map(() => 0);
  for (let i = 0; i < PAGES; i++) wanted[i % sources.length]! += 1;
  const copied = await Promise.all(
    sources.map((source, which) => doc.copyPages(source, Array.from({ length: wanted[which]! }, (_, k) => k % source.getPageCount()))),
  );
  for (let i = 0; i < PAGES; i++) doc.addPage(copied[i % sources.length]![Math.floor(i / sources.length)]!);
  const unpadded = (await doc.save({ useObjectStreams: true })).length;
  padTo(doc, MEGABYTES * 1024 * 1024 - unpadded, PAGES);
  fs.writeFileSync(file, await doc.save({ useObjectStreams: true }));
}

/** A PDF of PAGES pages and about MEGABYTES MB: each page carries its share as a compressed-poorly content stream. */
async function makePdf(file: string): Promise<void> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const perPage = Math.floor((MEGABYTES * 1024 * 1024) / PAGES);
  for (let i = 0; i < PAGES; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i + 1} of ${PAGES}`, { x: 72, y: 770, size: 14, font, color: rgb(0, 0, 0) });
    // Random bytes as an image-like stream do not compress: the file really is MEGABYTES large.
    const noise = doc.context.stream(crypto.randomBytes(perPage), { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceGray', BitsPerComponent: 8 });
    doc.context.register(noise);
  }
  fs.writeFileSync(file, await doc.save({ useObjectStreams: true }));
}

function peakMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function runPipeline(pipeline: Pipeline, file: string, keys: Keys): Promise<number> {
  const chain = [keys.ca.certificatePem];
  const sign = (digest: Buffer) => signDigest({ digest, key: keys.seal.privateKeyPkcs8Pem, certificate: keys.seal.certificatePem, chain });
  const started = process.hrtime.bigint();
  const source = fs.readFileSync(file);
  if (pipeline === 'hash') {
    crypto.createHash('sha256').update(source).digest();
  } else if (pipeline === 'incremental') {
    // The generated pages are upright A4: no need to open the file twice to learn that.
    const pageIndex = Math.floor(PAGES / 2);
    const rotate: Rotation = 0;
    const rect = [72, 72, 222, 122] as const;
    const sealed = await sealRevision({
      source,
      signature: {
        pageIndex,
        rect,
        appearance: textAppearance({ ...shownSizeOfRect(rect, rotate), rotate, lines: ['Signed by Asha Rao'], border: true }),
        fieldName: 'Signature 1',
        signerName: 'Asha Rao',
        signedAt: new Date(),
      },
      cmsMaxSize: maxCmsSize({ certificate: keys.seal.certificatePem, chain }),
      sign,
    });
    // An incremental revision is the old file plus a tail: storage keeps the tail (a few KB)
    // and serves the previous revision's bytes before it, so only the tail is written.
    fs.writeFileSync(`${file}.sealed-tail`, sealed.tail);
  } else {
    const doc = await PDFDocument.load(source);
    const page = doc.getPage(Math.floor(PAGES / 2));
    page.drawText('Signed by Asha Rao', { x: 72, y: 72, size: 12 });
    const saved = Buffer.from(await doc.save());
    sign(crypto.createHash('sha256').update(saved).digest());
    fs.writeFileSync(`${file}.naive`, saved);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const child = process.argv.find((arg) => arg.startsWith('--pipeline='));
  if (child) {
    const [pipeline, file, keysFile] = [child.split('=')[1] as Pipeline, process.argv.at(-2)!, process.argv.at(-1)!];
    const keys = JSON.parse(fs.readFileSync(keysFile, 'utf8')) as Keys;
    // A server seals in a warm process: one untimed run first, so what is timed is the work,
    // not the JIT compiling it.
    await runPipeline(pipeline, file, keys);
    const ms = await runPipeline(pipeline, file, keys);
    process.stdout.write(JSON.stringify({ ms, peakMb: peakMb() }));
    return;
  }
  // SEAL_KEEP=dir keeps the generated files (and keys) there, for profiling one pipeline alone.
  const kept = process.env.SEAL_KEEP;
  const dir = kept ? (fs.mkdirSync(kept, { recursive: true }), kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-bench-seal-'));
  const ca = await createTenantCa({ tenantName: 'Bench Ltd', keyAlgorithm: 'rsa-3072' });
  const keys: Keys = { ca, seal: await issueSealCertificate({ ca, tenantName: 'Bench Ltd' }) };
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(keysFile, JSON.stringify(keys));
  const self = fileURLToPath(import.meta.url);
  for (const source of SOURCES) {
    const file = path.join(dir, `${source}.pdf`);
    await (source === 'corpus' ? makeCorpusPdf(file) : makePdf(file));
    await measure(source, file, keysFile, self);
  }
  if (!kept) fs.rmSync(dir, { recursive: true, force: true });
}

async function measure(source: Source, file: string, keysFile: string, self: string) {
  const results: Record<Pipeline, { ms: number[]; peakMb: number[] }> = { hash: { ms: [], peakMb: [] }, incremental: { ms: [], peakMb: [] }, naive: { ms: [], peakMb: [] } };
  for (let run = 0; run < RUNS; run++) {
    for (const pipeline of PIPELINES) {
      const out = spawnSync(process.execPath, ['--import', 'tsx', self, `--pipeline=${pipeline}`, file, keysFile], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (out.status !== 0) throw new Error(`${pipeline} failed: ${out.stderr}`);
      const { ms, peakMb: peak } = JSON.parse(out.stdout) as { ms: number; peakMb: number };
      results[pipeline].ms.push(ms);
      results[pipeline].peakMb.push(peak);
    }
  }
  const size = fs.statSync(file).size / (1024 * 1024);
  const hash = median(results.hash.ms);
  const incremental = median(results.incremental.ms);
  const naive = median(results.naive.ms);
  console.log(`\n${source} file: ${PAGES} pages, ${size.toFixed(1)} MB; ${RUNS} runs each, medians.`);
  for (const pipeline of PIPELINES) {
    console.log(`${pipeline.padEnd(12)} ${median(results[pipeline].ms).toFixed(0).padStart(7)} ms   peak RSS ${median(results[pipeline].peakMb).toFixed(0)} MB`);
  }
  console.log(`naive / incremental: ${(naive / incremental).toFixed(1)}x   incremental / hash: ${(incremental / hash).toFixed(1)}x`);
}

await main();
