import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  type AnchorSuggestion,
  AnchorSuggestions,
  type ConfiguredAnchor,
  FindAnchorsBody,
  findDocumentAnchors,
  findEpakDocumentAnchors,
  isInsidePage,
  type PageGeometry,
  pageToDisplay,
  type Rect,
  startEpak,
  updateSignatureBlocks,
} from '@pakt/domain';
import * as fontkit from 'fontkit';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { composedEpak, signedInMember, type SignedInMember, uploadedDocument } from '../../test/app-factories';
import { CORPUS } from '../../test/corpus';
import { inject } from '../../test/inject';
import { renderPage } from '../../test/render-support';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { parserQueueOf } from '../documents';
import { type AnchorServices, suggestForStoredDocument } from './anchors';
import { DEFAULT_EXTRACTION_LIMITS } from './text-extraction';

/**
 * Anchor placement through the API: documents made with pdf-lib whose anchors sit on pages turned
 * every way and on a moved crop box, rendered by poppler to prove that each suggested box covers
 * the ink of its anchor as a viewer shows the page; the draft's signers by place; -125; signature
 * lines in English and Hindi; the permissions of documents and drafts; the reading's limits; and
 * every file of the real-world corpus, read without a crash.
 */

let t: TestApp;
let owner: SignedInMember;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-anchors-'));
beforeAll(async () => {
  t = await buildTestApp();
  owner = await signedInMember(t);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** One anchor a page, every rotation drawn upright as a viewer shows it, and a crop box moved off the origin. */
async function anchorPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([595, 842]);
  first.drawText('{{signature:signer1}}', { x: 72, y: 700, size: 12, font });
  first.drawText('Date: {{date:signer2}}', { x: 72, y: 640, size: 12, font });
  first.drawText('Stamp here {{stamp:signer1}}', { x: 72, y: 560, size: 12, font });
  first.drawText('Third signer {{signature:signer3}}', { x: 72, y: 480, size: 12, font });
  // pdf-lib turns text counter-clockwise; a page shown turned clockwise by as much reads it upright.
  for (const [rotate, x, y] of [
    [90, 300, 200],
    [180, 400, 500],
    [270, 300, 600],
  ] as const) {
    const page = pdf.addPage([595, 842]);
    page.setRotation(degrees(rotate));
    page.drawText('{{signature:signer2}}', { x, y, size: 12, font, rotate: degrees(rotate) });
  }
  const cropped = pdf.addPage([595, 842]);
  cropped.setCropBox(50, 60, 400, 500);
  cropped.drawText('{{initials:signer1}}', { x: 100, y: 300, size: 12, font });
  return Buffer.from(await pdf.save());
}

/** A form: signature and date lines in English and Hindi, a drawn line, and a page turned a quarter. */
async function formPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const devanagariFile = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/noto-sans-devanagari/package.json')), 'files/noto-sans-devanagari-devanagari-400-normal.woff');
  // Unshaped, so each glyph maps back to one character (pdf-lib writes a ToUnicode per glyph).
  const hindi = await pdf.embedFont(fs.readFileSync(devanagariFile), {
    subset: false,
    features: Object.fromEntries(['akhn', 'half', 'pres', 'blws', 'abvs', 'psts', 'cjct', 'rphf', 'blwf', 'pstf', 'haln', 'nukt', 'locl', 'rkrf', 'pref', 'vatu', 'abvf', 'init', 'calt', 'liga', 'ccmp'].map((f) => [f, false])),
  });
  const page = pdf.addPage([595, 842]);
  page.drawText('Signature: ________________', { x: 72, y: 760, size: 12, font });
  page.drawText('Date: ____________', { x: 360, y: 760, size: 12, font });
  page.drawText('The signature of each party on the date below binds them.', { x: 72, y: 700, size: 10, font });
  page.drawText('Witness signature', { x: 72, y: 600, size: 12, font });
  page.drawLine({ start: { x: 200, y: 598 }, end: { x: 360, y: 598 }, thickness: 0.75 });
  page.drawText('हस्ताक्षर', { x: 72, y: 500, size: 12, font: hindi });
  page.drawText('________________', { x: 140, y: 500, size: 12, font });
  page.drawText('दिनांक', { x: 360, y: 500, size: 12, font: hindi });
  page.drawText('__________', { x: 420, y: 500, size: 12, font });
  const turned = pdf.addPage([595, 842]);
  turned.setRotation(degrees(90));
  turned.drawText('Signature ________________', { x: 300, y: 100, size: 12, font, rotate: degrees(90) });
  return Buffer.from(await pdf.save());
}

const body = (find: 'anchors' | 'signatureLines', strings: z.input<typeof ConfiguredAnchor>[] = []) => FindAnchorsBody.parse({ find, strings });

/** The darkest pixels of a rendered page, as a box in its display frame (points). */
function inkBox(bytes: Buffer, pageNumber: number, scale: number): Rect {
  const render = renderPage(bytes, pageNumber, scratch, `ink-${pageNumber}-${Math.random().toString(36).slice(2)}`, scale);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let y = 0; y < render.height; y++) {
    for (let x = 0; x < render.width; x++) {
      const at = (y * render.width + x) * 3;
      if (render.pixels[at]! < 128 && render.pixels[at + 1]! < 128 && render.pixels[at + 2]! < 128) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + 1);
        y1 = Math.max(y1, y + 1);
      }
    }
  }
  return { x: x0 / scale, y: y0 / scale, width: (x1 - x0) / scale, height: (y1 - y0) / scale };
}

describe('anchors in a stored document', () => {
  let document: Awaited<ReturnType<typeof uploadedDocument>>;
  let bytes: Buffer;
  let answer: AnchorSuggestions;
  beforeAll(async () => {
    bytes = await anchorPdf();
    document = await uploadedDocument(t, { owner, bytes, name: 'anchors.pdf' });
    const res = await inject(t.app, findDocumentAnchors, { as: owner, params: { documentId: document.documentId }, body: body('anchors') });
    expect(res.statusCode, res.body).toBe(200);
    answer = AnchorSuggestions.parse(res.data);
  });

  it('suggests a tag at every anchor, in page order, with its signer slot and nobody assigned', () => {
    expect(answer).toMatchObject({ pageCount: 5, pagesScanned: 5, truncated: null, unrecognised: ['{{stamp:signer1}}'], unmatchedSlots: [] });
    expect(answer.suggestions.map((s) => [s.tag.pageNumber, s.tag.type, s.signerSlot, s.kind, s.source, s.confidence])).toEqual([
      [1, 'signature', 1, 'signature', 'anchor', 1],
      [1, 'calendar', 2, 'date', 'anchor', 1],
      [1, 'signature', 3, 'signature', 'anchor', 1],
      [2, 'signature', 2, 'signature', 'anchor', 1],
      [3, 'signature', 2, 'signature', 'anchor', 1],
      [4, 'signature', 2, 'signature', 'anchor', 1],
      [5, 'userInitial', 1, 'signature', 'anchor', 1],
    ]);
    for (const { tag } of answer.suggestions) {
      expect(tag).toMatchObject({ createType: 'new', category: 'printed', tagFor: 'signer', status: 'pending' });
      expect(tag.userEmail).toBeUndefined();
      expect(isInsidePage({ x: tag.positionX, y: tag.positionY, width: tag.blockWidth, height: tag.blockHeight }, document.pages[tag.pageNumber - 1]!)).toBe(true);
    }
  });

  it('measures the tag frame exactly where pdf-lib drew the text on an unturned page', () => {
    const [signature, date] = answer.suggestions;
    // Baseline at y = 700: the box runs from 0.78 of the size above it to 0.22 below, from the page's top.
    expect(signature!.anchorBox.x).toBeCloseTo(72, 3);
    expect(signature!.anchorBox.y).toBeCloseTo(842 - 700 - 0.78 * 12, 3);
    expect(signature!.tag).toMatchObject({ positionX: signature!.anchorBox.x, positionY: signature!.anchorBox.y, blockWidth: 150, blockHeight: 50 });
    expect(signature!.tag.blockBounds!.left).toBeCloseTo(72 / 595);
    // After "Date: " on its line: D, a, t, e, colon and space are 722, 556, 278, 556, 278 and 278 thousandths in Helvetica.
    expect(date!.anchorBox.x).toBeCloseTo(72 + ((722 + 556 + 278 + 556 + 278 + 278) * 12) / 1000, 3);
  });

  it('puts each box over its anchor\'s ink as poppler shows the page: turned 90, 180 and 270, and cropped', () => {
    const scale = 2;
    for (const suggestion of answer.suggestions.filter((s) => s.tag.pageNumber > 1)) {
      const page = document.pages[suggestion.tag.pageNumber - 1]!;
      const ink = inkBox(bytes, suggestion.tag.pageNumber, scale);
      const shown = pageToDisplay(suggestion.anchorBox, page, 1);
      const where = `page ${suggestion.tag.pageNumber} (rotate ${page.rotate}, crop ${page.x},${page.y})`;
      // The glyphs' ink lies within the estimated box, up to their side bearings and a pixel.
      for (const [edge, inked, estimated] of [
        ['left', ink.x, shown.x],
        ['top', ink.y, shown.y],
        ['right', ink.x + ink.width, shown.x + shown.width],
        ['bottom', ink.y + ink.height, shown.y + shown.height],
      ] as const) {
        expect(Math.abs(inked - estimated), `${where} ${edge}: ink ${inked}, box ${estimated}`).toBeLessThan(2.5);
      }
      // And the tag shows upright, 150 x 50, from the anchor's top-left corner.
      const tag = pageToDisplay({ x: suggestion.tag.positionX, y: suggestion.tag.positionY, width: suggestion.tag.blockWidth, height: suggestion.tag.blockHeight }, page, 1);
      expect(tag.x, where).toBeCloseTo(shown.x, 3);
      expect(tag.y, where).toBeCloseTo(shown.y, 3);
      expect([Math.round(tag.width), Math.round(tag.height)], where).toEqual(suggestion.tag.type === 'userInitial' ? [60, 40] : [150, 50]);
    }
  });

  it('answers -125 with the strings it could not find, and places the ones it could', async () => {
    const missing = await inject(t.app, findDocumentAnchors, {
      as: owner,
      params: { documentId: document.documentId },
      body: body('anchors', [{ text: 'Date:' }, { text: 'Witnessed by' }, { text: 'Notary' }]),
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: -125, data: { notFound: ['Witnessed by', 'Notary'] }, message: expect.stringContaining('"Witnessed by", "Notary"') });

    const found = await inject(t.app, findDocumentAnchors, {
      as: owner,
      params: { documentId: document.documentId },
      body: body('anchors', [{ text: 'third  SIGNER', type: 'text', signer: 1 }]),
    });
    expect(found.statusCode, found.body).toBe(200);
    const configured = found.data.suggestions.filter((s) => s.source === 'configured');
    expect(configured).toHaveLength(1);
    // Any case, any white space between the words.
    expect(configured[0]).toMatchObject({ text: 'Third signer', signerSlot: 1, tag: { type: 'text', pageNumber: 1 } });
    // To the right of it, centred on its line.
    expect(configured[0]!.tag.positionX).toBeGreaterThan(configured[0]!.anchorBox.x + configured[0]!.anchorBox.width);
  });

  it('is its owner\'s alone: another member of the tenant, or of another tenant, is told it does not exist', async () => {
    const colleague = await signedInMember(t, { tenant: owner.tenant });
    const stranger = await signedInMember(t);
    for (const caller of [colleague, stranger]) {
      const res = await inject(t.app, findDocumentAnchors, { as: caller, params: { documentId: document.documentId }, body: body('anchors') });
      expect(res.statusCode).toBe(404);
      expect(res.code).toBe(-1);
    }
    const signer = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    expect((await inject(t.app, findDocumentAnchors, { as: signer, params: { documentId: document.documentId }, body: body('anchors') })).statusCode).toBe(403);
  });
});

describe('anchors in a draft', () => {
  it('gives signerN to the Nth signer of the workflow (review steps do not count), and the tags save as placed', async () => {
    const reviewer = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const first = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const second = await signedInMember(t, { role: 'signer', tenant: owner.tenant });
    const document = await uploadedDocument(t, { owner, bytes: await anchorPdf(), name: 'draft.pdf' });
    const { epak } = await composedEpak(t, {
      owner,
      documents: [document],
      steps: [
        { type: 'REVIEW', recipients: [reviewer] },
        { type: 'SIGN', recipients: [first, second] },
      ],
      fields: { signingPolicy: 'QUICKSIGN' },
    });
    const params = { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId };
    const res = await inject(t.app, findEpakDocumentAnchors, { as: owner, params, body: body('anchors') });
    expect(res.statusCode, res.body).toBe(200);
    const { suggestions, unmatchedSlots } = res.data;
    expect(unmatchedSlots).toEqual([3]);
    const forWhom = (s: AnchorSuggestion) => [s.signerSlot, s.tag.userEmail ?? null, s.tag.wfsOrderId ?? null, s.tag.userUuid ?? null];
    expect(suggestions.map(forWhom)).toEqual([
      [1, first.user.email, 2, first.user.id],
      [2, second.user.email, 2, second.user.id],
      [3, null, null, null],
      [2, second.user.email, 2, second.user.id],
      [2, second.user.email, 2, second.user.id],
      [2, second.user.email, 2, second.user.id],
      [1, first.user.email, 2, first.user.id],
    ]);

    // Accepted as they are, they pass the server's placement rules, and the draft can be sent.
    const accepted = suggestions.filter((s) => s.tag.userEmail).map((s) => s.tag);
    const saved = await inject(t.app, updateSignatureBlocks, { as: owner, params, body: { tags: accepted } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.data.tags.map((tag) => [tag.positionX, tag.positionY])).toEqual(accepted.map((tag) => [tag.positionX, tag.positionY]));
    const started = await inject(t.app, startEpak, { as: owner, params: { ePakId: epak.ePakId } });
    expect(started.statusCode, started.body).toBe(200);

    // Tags are placed on drafts only.
    const late = await inject(t.app, findEpakDocumentAnchors, { as: owner, params, body: body('anchors') });
    expect(late.statusCode).toBe(400);
    expect(late.code).toBe(-6);
  });

  it('is the draft owner\'s alone, and a document of another ePak is not found in this one', async () => {
    const { epak } = await composedEpak(t, { owner });
    const other = await composedEpak(t, { owner });
    const colleague = await signedInMember(t, { tenant: owner.tenant });
    const params = { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId };
    expect((await inject(t.app, findEpakDocumentAnchors, { as: colleague, params, body: body('signatureLines') })).statusCode).toBe(404);
    expect((await inject(t.app, findEpakDocumentAnchors, { as: await signedInMember(t), params, body: body('signatureLines') })).statusCode).toBe(404);
    const crossed = await inject(t.app, findEpakDocumentAnchors, { as: owner, params: { ...params, documentId: other.epak.documents[0]!.documentId }, body: body('signatureLines') });
    expect(crossed.statusCode).toBe(404);
    expect((await inject(t.app, findEpakDocumentAnchors, { as: owner, params, body: body('signatureLines') })).statusCode).toBe(200);
  });
});

describe('signature lines', () => {
  it('finds the signature and date lines of a form in English and Hindi, and on a turned page', async () => {
    const bytes = await formPdf();
    const document = await uploadedDocument(t, { owner, bytes, name: 'form.pdf' });
    const res = await inject(t.app, findDocumentAnchors, { as: owner, params: { documentId: document.documentId }, body: body('signatureLines') });
    expect(res.statusCode, res.body).toBe(200);
    const found = res.data.suggestions.map((s) => [s.tag.pageNumber, s.tag.type, s.kind, s.text, s.confidence]);
    expect(found).toEqual([
      [1, 'signature', 'signature', 'Signature', 0.95],
      [1, 'calendar', 'date', 'Date', 0.95],
      [1, 'signature', 'signature', 'signature', 0.85],
      [1, 'signature', 'signature', 'हस्ताक्षर', 0.9],
      // As the custodian reads it, though pdf.js gives the i-matra first (visual order).
      [1, 'calendar', 'date', 'दिनांक', 0.9],
      [2, 'signature', 'signature', 'Signature', 0.9],
    ]);
    // The drawn line: the tag stands on it, as wide as it.
    const drawn = res.data.suggestions[2]!;
    expect(drawn.tag.positionX).toBeCloseTo(200, 0);
    expect(drawn.tag.positionY + drawn.tag.blockHeight).toBeCloseTo(842 - 598, 0);
    expect(drawn.tag.blockWidth).toBeCloseTo(160, 0);
    // On the turned page the tag shows wide and low on the line, as the person sees it.
    const turned = res.data.suggestions[5]!;
    const shown = pageToDisplay({ x: turned.tag.positionX, y: turned.tag.positionY, width: turned.tag.blockWidth, height: turned.tag.blockHeight }, document.pages[1]!, 1);
    expect(shown.height).toBeCloseTo(50);
    expect(shown.width).toBeGreaterThan(100);
  });
});

describe('limits', () => {
  const services = (limits: Partial<typeof DEFAULT_EXTRACTION_LIMITS>): AnchorServices => ({
    db: t.database.db,
    storage: t.context.storage,
    workRoot: path.join(t.context.config.dataDir, 'work'),
    parsers: parserQueueOf(t.context),
    limits: { ...DEFAULT_EXTRACTION_LIMITS, ...limits },
  });
  const scope = () => ({ tenantId: owner.tenant.id, ownerId: owner.user.id });

  it('stops at the page limit, the time limit and the text limit, and says which', async () => {
    const book = await uploadedDocument(t, { owner, file: 'pages-117-geotopo.pdf' });
    const pages = await suggestForStoredDocument(services({ maxPages: 3 }), scope(), book.documentId, body('signatureLines'));
    expect(pages).toMatchObject({ pageCount: 117, pagesScanned: 3, truncated: 'pages' });
    const time = await suggestForStoredDocument(services({ deadlineMs: 0 }), scope(), book.documentId, body('anchors'));
    expect(time).toMatchObject({ pageCount: 117, pagesScanned: 0, truncated: 'time', suggestions: [] });
    const size = await suggestForStoredDocument(services({ maxItems: 50 }), scope(), book.documentId, body('anchors'));
    expect(size.truncated).toBe('size');
    expect(size.pagesScanned).toBeLessThan(117);
    // -125 says how far it read.
    await expect(suggestForStoredDocument(services({ maxPages: 2 }), scope(), book.documentId, body('anchors', [{ text: 'no such words here' }]))).rejects.toMatchObject({
      code: -125,
      message: expect.stringContaining('in the first 2 of its 117 pages'),
    });
  });

  it('is refused cleanly, not crashed, when the reading is killed for time', async () => {
    const document = await uploadedDocument(t, { owner });
    await expect(
      suggestForStoredDocument(services({ sandbox: { heapMb: 256, rssMb: 1024, timeoutMs: 1 } }), scope(), document.documentId, body('anchors')),
    ).rejects.toMatchObject({ code: -59, message: expect.stringContaining('more time') });
  });
});

describe('the real-world corpus', () => {
  /**
   * A file of each hazard the corpus manifest indexes: turned pages, forms and XFA, many pages, a
   * decompression bomb and extreme page sizes, damaged cross-references, encryption with an empty
   * password, vertical CJK, Devanagari and other scripts, signatures and revisions, scans with an
   * OCR layer, JavaScript. (Every file goes through the upload in documents/corpus.test.ts.)
   */
  const files = [
    'rotate-0-90-180-270-arabic.pdf',
    'rotate-mixed-form-fields.pdf',
    'rotate-90-scan.pdf',
    'form-irs-1040-2010.pdf',
    'form-empty-signature-field.pdf',
    'xfa-irs-1040-2019.pdf',
    'pages-117-geotopo.pdf',
    'huge-8400pt-jbig2-bomb.pdf',
    'huge-a0-poster.pdf',
    'tiny-page-4pt.pdf',
    'broken-xref-offset-word.pdf',
    'leading-junk-pdf20.pdf',
    'enc-no-userpw-aes256.pdf',
    'cjk-japanese-vertical.pdf',
    'hindi-devanagari.pdf',
    'multiscript-unicode.pdf',
    'signed-pades-lta.pdf',
    'incremental-4rev-irs-1040v.pdf',
    'mixed-sizes-scans-6p.pdf',
    'js-openaction-print.pdf',
  ].filter((name) => fs.existsSync(path.join(CORPUS, name)));

  it('has its files to read', () => {
    expect(files).toHaveLength(20);
  });

  it.concurrent.each(files)(
    '%s is read for lines and anchors without a crash, every box inside its page',
    async (name) => {
      const document = await uploadedDocument(t, { owner, file: name });
      for (const find of ['signatureLines', 'anchors'] as const) {
        const res = await inject(t.app, findDocumentAnchors, { as: owner, params: { documentId: document.documentId }, body: body(find) });
        expect(res.statusCode, `${find}: ${res.body}`).toBe(200);
        expect(res.data).toMatchObject({ pageCount: document.pageCount, pagesScanned: document.pageCount, truncated: null });
        for (const { tag } of res.data.suggestions) {
          const page: PageGeometry = document.pages[tag.pageNumber - 1]!;
          expect(isInsidePage({ x: tag.positionX, y: tag.positionY, width: tag.blockWidth, height: tag.blockHeight }, page), `${name} page ${tag.pageNumber}`).toBe(true);
        }
      }
    },
    // The files wait their turn in the parser queue (two at a time).
    120_000,
  );
});
