import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DocumentSummary,
  PreconfiguredTag,
  type TokenGrant,
  convertDocument,
  deleteDocuments,
  downloadDocument,
  listDocuments,
  mergeDocuments,
  preconfiguredTags,
  renameDocument,
  uploadDocument,
} from '@pakt/domain';
import * as bmp from 'bmp-js';
import { count, eq } from 'drizzle-orm';
import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documents, tenantSettings } from '../../platform/db/schema';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { CORPUS } from '../../test/corpus';
import { inject } from '../../test/inject';
import { certifiedPdf } from '../../test/test-pdf-builder';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const corpus = (name: string) => fs.readFileSync(path.join(CORPUS, name));
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** A solid-colour RGBA raster, `width` x `height`. */
function raster(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([200, 40, 40, 255], i);
  return data;
}
const png = (width: number, height: number) => PNG.sync.write(Object.assign(new PNG({ width, height }), { data: raster(width, height) }));
function gif(width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height + 1024);
  const writer = new GifWriter(out, width, height, { palette: [0xc82828, 0xffffff] });
  writer.addFrame(0, 0, width, height, new Array(width * height).fill(0));
  return out.subarray(0, writer.end());
}
const bmpImage = (width: number, height: number) => bmp.encode({ width, height, data: raster(width, height) }).data;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function custodian(env: Record<string, string> = {}) {
  t = await buildTestApp({ env });
  const member = await makeMember(t.database.db, { role: 'custodian' });
  const grant: TokenGrant = await signIn(t.app, member.user.email, GOOD_PASSWORD);
  return { ...member, headers: { ...bearer(grant), 'x-tenant-id': member.tenant.id } };
}

function upload(headers: Record<string, string>, bytes: Buffer, name: string) {
  return inject(t.app, uploadDocument, { headers, file: { bytes, name } });
}

async function uploaded(headers: Record<string, string>, bytes: Buffer, name: string) {
  const res = await upload(headers, bytes, name);
  expect(res.statusCode, res.body).toBe(200);
  return DocumentSummary.parse(res.json().data);
}

/** The stored PDF, checked by qpdf and measured by poppler, as someone else's tools see it. */
async function storedPdf(headers: Record<string, string>, documentId: string) {
  const res = await inject(t.app, downloadDocument, { params: { documentId }, headers });
  expect(res.statusCode).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-doc-')), 'doc.pdf');
  fs.writeFileSync(file, res.rawPayload);
  execFileSync('qpdf', ['--check', file]);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return { res, file, pages: Number(/^Pages:\s+(\d+)/m.exec(info)![1]), size: /^Page size:\s+([\d.]+) x ([\d.]+)/m.exec(info)!.slice(1).map(Number) };
}

describe('images become PDFs', () => {
  it.each([
    { name: 'scan.png', bytes: () => png(300, 200), size: [300, 200] },
    { name: 'scan.gif', bytes: () => gif(120, 160), size: [120, 160] },
    { name: 'scan.bmp', bytes: () => bmpImage(64, 48), size: [64, 48] },
    { name: 'page.jpg', bytes: () => fixture('page.jpg'), size: [83, 117] },
    { name: 'page.JPEG', bytes: () => fixture('page.jpg'), size: [83, 117] },
    { name: 'landscape.tif', bytes: () => fixture('landscape.tif'), size: [110, 85] },
    { name: 'page.jp2', bytes: () => fixture('page.jp2'), size: [83, 117] },
  ])('$name: one page the size of the image at 72 dpi, valid for qpdf and poppler', async ({ name, bytes, size }) => {
    const { headers } = await custodian();
    const document = await uploaded(headers, bytes(), name);
    expect(document).toMatchObject({ name, pageCount: 1, encrypted: false });
    expect(document.pages[0]!.width).toBeCloseTo(size[0]!, 0);
    expect(document.pages[0]!.height).toBeCloseTo(size[1]!, 0);
    const pdf = await storedPdf(headers, document.documentId);
    expect(pdf.pages).toBe(1);
    expect(pdf.size[0]).toBeCloseTo(size[0]!, 0);
    expect(pdf.res.headers['content-disposition']).toContain(`filename="${path.parse(name).name}.pdf"`);
  });

  it('scales a large image down to fit A4, turned to match its orientation', async () => {
    const { headers } = await custodian();
    const document = await uploaded(headers, png(3000, 1500), 'wide.png');
    expect(document.pages[0]!.width).toBeCloseTo(841.89, 1);
    expect(document.pages[0]!.height).toBeCloseTo(420.945, 1);
  });

  it('refuses an image that claims more pixels than a document may hold, without decoding it', async () => {
    const { headers } = await custodian();
    const header = png(10, 10);
    // Rewrite the IHDR to claim 100000 x 100000 pixels (the CRC no longer matters: it is refused first).
    header.writeUInt32BE(100_000, 16);
    header.writeUInt32BE(100_000, 20);
    const res = await upload(headers, header, 'bomb.png');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: -59, message: expect.stringMatching(/megapixels/) });
  });
});

describe('what is refused', () => {
  it('a file whose content is not what its name says (-59)', async () => {
    const { headers } = await custodian();
    const res = await upload(headers, png(4, 4), 'contract.pdf');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: -59, message: 'The file is named .pdf but its content is a PNG image.' });
    const [row] = await t.database.db.select({ n: count() }).from(documents);
    expect(row!.n).toBe(0);
  });

  it('a certified document, at any level, saying why: the fields Pakt adds would break its certification (-59, nothing stored)', async () => {
    const { headers } = await custodian();
    for (const level of [1, 2, 3] as const) {
      const res = await upload(headers, certifiedPdf(level), `certified-p${level}.pdf`);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: -59, message: expect.stringMatching(level === 1 ? /"no changes allowed"/ : /allow only filling and signing its own fields/) });
    }
    const [row] = await t.database.db.select({ n: count() }).from(documents);
    expect(row!.n).toBe(0);
  });

  it('a kind of file not accepted, or one the tenant switched off (-177)', async () => {
    const { headers, tenant } = await custodian();
    expect((await upload(headers, Buffer.from('MZ'), 'setup.exe')).json().code).toBe(-177);
    await t.database.db.insert(tenantSettings).values({ tenantId: tenant.id, settings: { disabledDocumentFormats: ['png'] } });
    const res = await upload(headers, png(4, 4), 'scan.png');
    expect(res.json()).toMatchObject({ code: -177, message: 'Your organisation does not accept .png files.' });
    await uploaded(headers, corpus('plain-1p-pdftex.pdf'), 'still-fine.pdf');
  });

  it('a name with characters a file name may not hold (-67)', async () => {
    const { headers } = await custodian();
    for (const name of ['a<b.pdf', 'what?.pdf', 'tab\there.pdf', 'con|tract.pdf']) {
      expect((await upload(headers, corpus('plain-1p-pdftex.pdf'), name)).json().code).toBe(-67);
    }
  });

  it('a file over the size limit (413), and a document over the page limit', async () => {
    const { headers } = await custodian({ DOCUMENT_MAX_MB: '2', DOCUMENT_MAX_PAGES: '100' });
    const big = await upload(headers, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024)]), 'big.pdf');
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: -59, message: 'The file is larger than 2 MB, the most a document may be.' });
    const long = await upload(headers, corpus('pages-117-geotopo.pdf'), 'notes.pdf');
    expect(long.statusCode).toBe(413);
    expect(long.json()).toMatchObject({ code: -59, message: 'The PDF has 117 pages; at most 100 are accepted.' });
    // Scratch files do not outlive a refusal.
    expect(fs.readdirSync(path.join(t.context.config.dataDir, 'work'))).toEqual([]);
  });

  it('an office file without LibreOffice (-48, saying so)', async () => {
    const { headers } = await custodian({ LIBREOFFICE_PATH: '/nonexistent/soffice' });
    const docx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    const res = await upload(headers, docx, 'letter.docx');
    expect(res.json()).toMatchObject({ code: -48, message: expect.stringMatching(/LibreOffice could not convert/) });
  });
});

describe('office files with LibreOffice', () => {
  it('are converted by the configured LibreOffice and stored as the PDF it made', async () => {
    // A stand-in with LibreOffice's command line: it "converts" by copying a real PDF into --outdir.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-soffice-'));
    const fake = path.join(dir, 'soffice');
    fs.writeFileSync(
      fake,
      `#!/bin/sh\nwhile [ "$1" != "--outdir" ]; do shift; done\nout="$2"; in="$3"\nbase=$(basename "$in"); cp "${path.join(CORPUS, 'mixed-sizes-openoffice.pdf')}" "$out/\${base%.*}.pdf"\n`,
    );
    fs.chmodSync(fake, 0o755);
    const { headers } = await custodian({ LIBREOFFICE_PATH: fake });
    const docx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    const document = await uploaded(headers, docx, 'letter.docx');
    expect(document).toMatchObject({ name: 'letter.docx', sourceFormat: 'docx', pageCount: 3 });
  });
});

describe('managing one\u2019s documents', () => {
  it('lists, renames, merges, downloads, offers form fields and deletes, all or none', async () => {
    const { headers, tenant } = await custodian();
    const form = await uploaded(headers, corpus('form-libreoffice.pdf'), 'form.pdf');
    const sizes = await uploaded(headers, corpus('mixed-sizes-openoffice.pdf'), 'sizes.pdf');

    const list = await inject(t.app, listDocuments, { headers });
    expect(list.json().data).toMatchObject({ total: 2, pageSize: 50 });
    expect(list.json().data.documents.map((d: { name: string }) => d.name)).toEqual(['sizes.pdf', 'form.pdf']);

    const renamed = await inject(t.app, renameDocument, { params: { documentId: form.documentId }, headers, body: { name: 'Form – सहमति.pdf' } });
    expect(renamed.json().data.name).toBe('Form – सहमति.pdf');
    expect((await inject(t.app, renameDocument, { params: { documentId: form.documentId }, headers, body: { name: 'a/b.pdf' } })).json().code).toBe(-67);
    const download = await inject(t.app, downloadDocument, { params: { documentId: form.documentId }, headers });
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Form _ _____.pdf"; filename*=UTF-8''${encodeURIComponent('Form – सहमति.pdf')}`);

    const tags = await inject(t.app, preconfiguredTags, { params: { documentId: form.documentId }, headers });
    const fields = tags.json().data.tags.map((tag: unknown) => PreconfiguredTag.parse(tag));
    expect(fields).toHaveLength(9);
    expect(fields.find((f: PreconfiguredTag) => f.name === 'First Name')).toMatchObject({ fieldType: 'text', pageNumber: 1, value: 'Alice' });

    const merged = await inject(t.app, mergeDocuments, { headers, body: { documentIds: [sizes.documentId, form.documentId], name: 'Bundle.pdf' } });
    const bundle = DocumentSummary.parse(merged.json().data);
    expect(bundle.pageCount).toBe(4);
    expect(bundle.pages.map((p) => Math.round(p.width))).toEqual([612, 649, 792, 595]);
    expect((await storedPdf(headers, bundle.documentId)).pages).toBe(4);

    // Someone else's document, even in the same tenant, does not exist for this caller.
    const colleague = await makeMember(t.database.db, { role: 'custodian', tenant });
    const theirHeaders = { ...bearer(await signIn(t.app, colleague.user.email, GOOD_PASSWORD)), 'x-tenant-id': tenant.id };
    const theirs = await uploaded(theirHeaders, corpus('plain-1p-pdftex.pdf'), 'theirs.pdf');
    const refused = await inject(t.app, deleteDocuments, { headers, body: { documentIds: [form.documentId, theirs.documentId] } });
    expect(refused.statusCode).toBe(404);
    expect((await t.database.db.select({ n: count() }).from(documents))[0]!.n).toBe(4);
    expect((await inject(t.app, downloadDocument, { params: { documentId: theirs.documentId }, headers })).statusCode).toBe(404);

    const deleted = await inject(t.app, deleteDocuments, { headers, body: { documentIds: [form.documentId, sizes.documentId] } });
    expect(deleted.json().data).toEqual({ deleted: 2 });
    const [left] = await t.database.db.select().from(documents).where(eq(documents.id, bundle.documentId));
    expect(left?.name).toBe('Bundle.pdf');
  });

  it('refuses to merge an encrypted or a signed document, saying why', async () => {
    const { headers } = await custodian();
    const plain = await uploaded(headers, corpus('plain-1p-pdftex.pdf'), 'plain.pdf');
    const locked = await uploaded(headers, corpus('enc-no-userpw-rc4.pdf'), 'locked.pdf');
    const signed = await uploaded(headers, corpus('signed-pkcs7-1sig.pdf'), 'signed.pdf');
    const merge = (ids: string[]) => inject(t.app, mergeDocuments, { headers, body: { documentIds: ids, name: 'x.pdf' } });
    expect((await merge([plain.documentId, locked.documentId])).json()).toMatchObject({ code: -59, message: expect.stringMatching(/Document 2 is encrypted/) });
    expect((await merge([signed.documentId, plain.documentId])).json()).toMatchObject({
      code: -59,
      message: expect.stringMatching(/Document 1 is digitally signed, and merging would break its signatures/),
    });
    expect((await t.database.db.select({ n: count() }).from(documents))[0]!.n).toBe(3);
  });

  it('converts without storing anything', async () => {
    const { headers } = await custodian();
    const res = await inject(t.app, convertDocument, { headers, file: { bytes: png(50, 40), name: 'photo.png' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.database.db.select({ n: count() }).from(documents))[0]!.n).toBe(0);
    expect((await inject(t.app, convertDocument, { headers, file: { bytes: corpus('plain-1p-pdftex.pdf'), name: 'a.pdf' } })).json().code).toBe(-6);
  });
});

describe('downloading part of a document (HTTP Range)', () => {
  it('sends the bytes asked for (206), the whole file for what it need not honour, and 416 outside it', async () => {
    const { headers } = await custodian();
    const doc = await uploaded(headers, corpus('plain-1p-pdftex.pdf'), 'a.pdf');
    const get = (extra: Record<string, string>) => inject(t.app, downloadDocument, { params: { documentId: doc.documentId }, headers: { ...headers, ...extra } });
    const whole = await get({});
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const bytes = whole.rawPayload;
    const etag = String(whole.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Number(whole.headers['content-length'])).toBe(bytes.length);

    const first = await get({ range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${bytes.length}`);
    expect(Number(first.headers['content-length'])).toBe(100);
    expect(first.rawPayload.equals(bytes.subarray(0, 100))).toBe(true);
    expect(first.headers['content-type']).toBe('application/pdf');

    // A suffix (the last 1,000 bytes, where a viewer finds the xref), an open end, and an end past the file.
    const suffix = await get({ range: 'bytes=-1000' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 1000))).toBe(true);
    const openEnd = await get({ range: `bytes=${bytes.length - 10}-`, 'if-range': etag });
    expect(openEnd.statusCode).toBe(206);
    expect(openEnd.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const pastEnd = await get({ range: `bytes=5-${bytes.length + 500}` });
    expect(pastEnd.headers['content-range']).toBe(`bytes 5-${bytes.length - 1}/${bytes.length}`);
    expect(pastEnd.rawPayload.equals(bytes.subarray(5))).toBe(true);

    // Adjacent ranges are one; disjoint ones, a malformed header, another unit or other bytes (If-Range) get the whole file.
    const adjacent = await get({ range: 'bytes=0-9,10-19' });
    expect([adjacent.statusCode, adjacent.headers['content-range']]).toEqual([206, `bytes 0-19/${bytes.length}`]);
    for (const extra of <Array<Record<string, string>>>[{ range: 'bytes=0-9,50-59' }, { range: 'bytes=abc' }, { range: 'pages=1-2' }, { range: 'bytes=0-9', 'if-range': '"0000"' }, { range: 'bytes=0-9', 'if-range': 'Wed, 21 Oct 2026 07:28:00 GMT' }]) {
      const res = await get(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(200);
      expect(res.rawPayload.equals(bytes), JSON.stringify(extra)).toBe(true);
    }

    const outside = await get({ range: `bytes=${bytes.length}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(outside.json().code).toBe(-6);
  });

  it('is the same 404 for someone else\u2019s document, with or without a range', async () => {
    const { headers, tenant } = await custodian();
    const other = await makeMember(t.database.db, { role: 'custodian', tenant });
    const otherHeaders = { ...bearer(await signIn(t.app, other.user.email, GOOD_PASSWORD)), 'x-tenant-id': tenant.id };
    const doc = await uploaded(headers, corpus('plain-1p-pdftex.pdf'), 'a.pdf');
    for (const range of [undefined, 'bytes=0-10', 'bytes=999999-']) {
      const res = await inject(t.app, downloadDocument, { params: { documentId: doc.documentId }, headers: { ...otherHeaders, ...(range ? { range } : {}) } });
      expect(res.statusCode, range).toBe(404);
      expect(res.headers['content-range']).toBeUndefined();
    }
  });
});

describe('who may', () => {
  let shared: TestApp;
  beforeAll(async () => {
    shared = await buildTestApp();
  });
  afterAll(() => shared.close());

  it.each(['signer', 'registrar', 'super_admin'] as const)('a %s may not upload (403), and nothing is stored', async (role) => {
    const { user, tenant } = await makeMember(shared.database.db, { role });
    const grant = await signIn(shared.app, user.email, GOOD_PASSWORD);
    const res = await inject(shared.app, uploadDocument, { headers: { ...bearer(grant), 'x-tenant-id': tenant.id }, file: { bytes: corpus('plain-1p-pdftex.pdf'), name: 'a.pdf' } });
    expect(res.statusCode).toBe(403);
    expect((await shared.database.db.select({ n: count() }).from(documents))[0]!.n).toBe(0);
  });
});
