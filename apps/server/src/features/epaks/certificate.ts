import { formatUtcTimestamp } from '@pakt/domain';
import { Encodings } from '@pdf-lib/standard-fonts';
import { asc, eq, inArray } from 'drizzle-orm';
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { Db } from '../../platform/db/database';
import { epakDocuments, epakRecipients, epaks, epakSteps, tenants, users } from '../../platform/db/schema';
import { textAppearance } from '../../platform/sealing/appearance';
import { qrPng } from '../../platform/sealing/qr-image';
import { sealRevision } from '../../platform/sealing/seal';
import type { SealKeyAlgorithm } from '../../platform/signing/algorithms';
import { maxCmsSize, signDigest } from '../../platform/signing/cms';
import type { KeyVault } from '../../platform/signing/key-vault';
import { ensureTenantSeal } from '../../platform/signing/tenant-seal';
import type { FileStorage } from '../../platform/storage/file-storage';
import { type ActivityRow, actorsOf, loadActivity, publicDetails, verifyActivityRows, withTypedName } from './activity';
import { currentVersion, revisionsByDocument } from './revisions';
import { recordToken, recordUrl } from './verification-record';

/**
 * The certificate of completion: one new PDF that says what the ePak was (its documents with the
 * SHA-256 of each as composed and as it is now), who took part and how, and its whole activity
 * log with every entry's hash and whether the chain verifies; sealed with the tenant's seal
 * (PAdES, a visible box on the last page), so any change to it breaks the signature.
 *
 * It is drawn with the standard Helvetica and Courier (WinAnsi): no font is embedded, so text
 * outside WinAnsi is transliterated where it can be (é stays, ł becomes l) and shown as "?"
 * otherwise. It is built once, after the ePak has ended, and stored (stored-certificate.ts).
 */

export interface CertificateOptions {
  db: Db;
  /** Not read: the document hashes come from the stored rows (revisions.ts keeps them true). */
  storage: FileStorage;
  vault: KeyVault;
  keyAlgorithm?: SealKeyAlgorithm;
  epakId: string;
  now: Date;
  /** The install's public address: with it, the certificate carries the QR code of its public record. */
  publicUrl?: string;
}

const winAnsi = Encodings.WinAnsi;

/** Text Helvetica/WinAnsi can draw: accents dropped where that helps, "?" for the rest. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.replace(/[\r\n\t\f\v]+/g, ' ')) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && winAnsi.canEncodeUnicodeCodePoint(code)) {
      out += char;
      continue;
    }
    if (code < 0x20) continue;
    const plain = char
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[łŁđĐı]/g, (c) => TRANSLITERATION[c] ?? c);
    const kept = [...plain].filter((c) => winAnsi.canEncodeUnicodeCodePoint(c.codePointAt(0)!)).join('');
    out += kept.length > 0 && plain.length > 0 ? kept : '?';
  }
  return out;
}

const TRANSLITERATION: Record<string, string> = { ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i' };

/** Spec §9's timestamp (formatUtcTimestamp), or a dash for a time that never came. */
export function formatUtc(at: Date | null | undefined): string {
  return at ? formatUtcTimestamp(at) : '-';
}

const personName = (p: { firstName: string; middleName: string | null; lastName: string }) => [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ');

/** Everything the certificate shows, read in one go. */
async function gather(db: Db, epakId: string) {
  const [epak] = await db.select().from(epaks).where(eq(epaks.id, epakId));
  if (!epak) throw new Error(`no ePak ${epakId}`);
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, epak.tenantId));
  const [owner] = await db.select().from(users).where(eq(users.id, epak.ownerId));
  const documents = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position));
  const revisions = await revisionsByDocument(
    db,
    documents.map((d) => d.id),
  );
  const recipients = await db
    .select({
      id: epakRecipients.id,
      userId: epakRecipients.userId,
      status: epakRecipients.status,
      actedAt: epakRecipients.actedAt,
      position: epakRecipients.position,
      stepOrder: epakSteps.position,
      stepName: epakSteps.name,
      stepType: epakSteps.type,
      signedName: epakRecipients.signedName,
    })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .where(eq(epakRecipients.epakId, epakId))
    .orderBy(asc(epakSteps.position), asc(epakRecipients.position));
  const people = recipients.length
    ? await db
        .select({ id: users.id, email: users.email, firstName: users.firstName, middleName: users.middleName, lastName: users.lastName })
        .from(users)
        .where(
          inArray(
            users.id,
            recipients.map((r) => r.userId),
          ),
        )
    : [];
  const activity = await loadActivity(db, epakId);
  return { epak, tenantName: tenant?.name ?? '', owner, documents, revisions, recipients, people: new Map(people.map((p) => [p.id, p])), activity, actors: await actorsOf(db, activity) };
}

/**
 * Where a recipient acted from: the address of their latest entry that names their place (the
 * engine's entries carry recipientId), else of their latest entry of any kind.
 */
function addressOf(activity: readonly ActivityRow[], recipient: { id: string; userId: string }): string | null {
  const theirs = activity.filter((row) => row.actorId === recipient.userId && row.ip);
  const named = theirs.filter((row) => (row.details as { recipientId?: unknown } | null)?.recipientId === recipient.id);
  return (named.at(-1) ?? theirs.at(-1))?.ip ?? null;
}

// ---- layout ------------------------------------------------------------------------------

const PAGE: [number, number] = [595.28, 841.89]; // A4
const MARGIN = 44;
const CONTENT_WIDTH = PAGE[0] - 2 * MARGIN;
/** Room kept at the foot of every page for the footer line. */
const FOOTER_SPACE = 34;
const SEAL_BOX = { width: 240, height: 50 };

type Color = ReturnType<typeof rgb>;
const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.4, 0.43, 0.5);
const ACCENT = rgb(0.13, 0.25, 0.5);
const RULE = rgb(0.82, 0.85, 0.9);
const BAND = rgb(0.95, 0.96, 0.985);
const WHITE = rgb(1, 1, 1);
const GOOD = rgb(0.1, 0.45, 0.2);
const BAD = rgb(0.72, 0.1, 0.1);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** One line of a table cell: too long, it is wrapped (words or characters) or cut short with "…". */
interface Line {
  text: string;
  font?: keyof Fonts;
  size?: number;
  color?: Color;
  wrap?: 'words' | 'chars';
}

/** A cell: lines stacked in column `column`, spanning `span` columns (lines of the ones spanned must not collide). */
interface Cell {
  column: number;
  span?: number;
  lines: Line[];
}

const lineHeight = (size: number) => size + 2.6;
const CELL_PADDING = 4;

const QR_SIDE = 84;

/**
 * The QR code of the ePak's public record (verification-record.ts), with its address written out
 * for whoever reads the paper without a phone: scanning it shows the record and compares a file
 * with the documents' fingerprints, and the code cannot be made for another ePak.
 */
function drawVerification(w: Writer, link: string) {
  w.heading('Verification', QR_SIDE + 30);
  const top = w.y - 4;
  const image = w.qr(link);
  w.page.drawImage(image, { x: MARGIN, y: top - QR_SIDE, width: QR_SIDE, height: QR_SIDE });
  const x = MARGIN + QR_SIDE + 12;
  const width = CONTENT_WIDTH - QR_SIDE - 12;
  w.text('Scan the code, or open this address, to see the public record of this ePak and compare', x, top - 14, { size: 8.5, width });
  w.text('a copy of its documents with their fingerprints (SHA-256), in your browser:', x, top - 26, { size: 8.5, width });
  let y = top - 42;
  for (const line of w.wrap(link, w.fonts.mono, 7.5, width, 'chars')) {
    w.text(line, x, y, { font: w.fonts.mono, size: 7.5, color: ACCENT, width });
    y -= 10;
  }
  w.y = top - QR_SIDE - 6;
}

/** A cursor down the pages: adds a page when the next block does not fit. */
class Writer {
  page!: PDFPage;
  y = 0;
  /** Called after a page is added mid-table (to repeat the table's header). */
  private onNewPage: (() => void) | null = null;

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.newPage();
  }

  private readonly qrImages = new Map<string, PDFImage>();

  /** Embeds a QR code's PNG: pdf-lib embeds asynchronously, and drawing (below) is synchronous. */
  async prepareQr(text: string) {
    this.qrImages.set(text, await this.doc.embedPng(qrPng(text, 4)));
  }

  /** The QR code of `text`, embedded by prepareQr: black modules on white, its quiet zone included. */
  qr(text: string): PDFImage {
    const image = this.qrImages.get(text);
    if (!image) throw new Error('a QR code is drawn after prepareQr embedded it');
    return image;
  }

  newPage() {
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
    this.onNewPage?.();
  }

  /** Makes room for `height` points, on a new page if need be. */
  ensure(height: number) {
    if (this.y - height < MARGIN + FOOTER_SPACE) this.newPage();
  }

  fit(text: string, font: PDFFont, size: number, width: number): string {
    let value = toWinAnsi(text);
    if (font.widthOfTextAtSize(value, size) <= width) return value;
    while (value.length > 1 && font.widthOfTextAtSize(`${value}…`, size) > width) value = value.slice(0, -1);
    return `${value.trimEnd()}…`;
  }

  /** Lines of at most `width`: by words, a word too long for a line broken by characters. */
  wrap(text: string, font: PDFFont, size: number, width: number, by: 'words' | 'chars' = 'words'): string[] {
    const fits = (value: string) => font.widthOfTextAtSize(value, size) <= width;
    const lines: string[] = [];
    const breakChars = (word: string): string => {
      let rest = word;
      while (!fits(rest)) {
        let cut = rest.length - 1;
        while (cut > 1 && !fits(rest.slice(0, cut))) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      return rest;
    };
    const clean = toWinAnsi(text);
    if (by === 'chars') {
      lines.push(breakChars(clean));
      return lines;
    }
    let line = '';
    for (const word of clean.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (fits(next)) line = next;
      else {
        if (line) lines.push(line);
        line = fits(word) ? word : breakChars(word);
      }
    }
    if (line || lines.length === 0) lines.push(line);
    return lines;
  }

  text(value: string, x: number, y: number, options: { font?: PDFFont; size?: number; color?: Color; width?: number; align?: 'left' | 'right' } = {}) {
    const font = options.font ?? this.fonts.regular;
    const size = options.size ?? 9;
    const shown = options.width ? this.fit(value, font, size, options.width) : toWinAnsi(value);
    const dx = options.align === 'right' && options.width ? options.width - font.widthOfTextAtSize(shown, size) : 0;
    this.page.drawText(shown, { x: x + dx, y, size, font, color: options.color ?? INK });
  }

  heading(title: string, keepWith = 60) {
    this.ensure(keepWith);
    this.y -= 10;
    this.text(title, MARGIN, this.y - 11, { font: this.fonts.bold, size: 11.5, color: ACCENT });
    this.y -= 15;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + CONTENT_WIDTH, y: this.y }, thickness: 0.8, color: ACCENT });
    this.y -= 4;
  }

  /** Label / value rows: one pair across the width, or two side by side. */
  fields(rows: readonly (readonly [string, string])[][]) {
    const LABEL = 74;
    for (const row of rows) {
      const width = CONTENT_WIDTH / row.length;
      const heights = row.map(([, value]) => this.wrap(value, this.fonts.regular, 9, width - LABEL - 8).slice(0, 3));
      const height = Math.max(...heights.map((lines) => lines.length)) * lineHeight(9) + 3;
      this.ensure(height);
      for (const [index, [label]] of row.entries()) {
        const x = MARGIN + index * width;
        this.text(label, x, this.y - 10, { font: this.fonts.bold, size: 7.5, color: MUTED, width: LABEL - 4 });
        heights[index]!.forEach((line, n) => this.text(line, x + LABEL, this.y - 10 - n * lineHeight(9), { size: 9 }));
      }
      this.y -= height;
    }
  }

  /** Full-width wrapped text. */
  paragraph(value: string, options: { size?: number; color?: Color; font?: PDFFont } = {}) {
    const size = options.size ?? 9;
    const font = options.font ?? this.fonts.regular;
    for (const line of this.wrap(value, font, size, CONTENT_WIDTH)) {
      this.ensure(lineHeight(size));
      this.text(line, MARGIN, this.y - size, { size, font, ...(options.color ? { color: options.color } : {}) });
      this.y -= lineHeight(size);
    }
  }

  tableHeader(columns: readonly Column[]) {
    this.ensure(34);
    this.page.drawRectangle({ x: MARGIN, y: this.y - 14, width: CONTENT_WIDTH, height: 14, color: ACCENT });
    let x = MARGIN;
    for (const column of columns) {
      this.text(column.title, x + CELL_PADDING, this.y - 9.8, { font: this.fonts.bold, size: 7.5, color: WHITE, width: column.width - 2 * CELL_PADDING, align: column.align ?? 'left' });
      x += column.width;
    }
    this.y -= 14;
  }

  /** Lays a cell's lines out: wrapped or cut to its width. */
  private layoutCell(columns: readonly Column[], cell: Cell) {
    const spanned = columns.slice(cell.column, cell.column + (cell.span ?? 1));
    const width = spanned.reduce((sum, c) => sum + c.width, 0) - 2 * CELL_PADDING;
    const x = MARGIN + columns.slice(0, cell.column).reduce((sum, c) => sum + c.width, 0) + CELL_PADDING;
    const out: { text: string; font: PDFFont; size: number; color: Color; height: number }[] = [];
    for (const line of cell.lines) {
      const font = this.fonts[line.font ?? 'regular'];
      const size = line.size ?? 8;
      const texts = line.wrap ? this.wrap(line.text, font, size, width, line.wrap) : [this.fit(line.text, font, size, width)];
      for (const text of texts) out.push({ text, font, size, color: line.color ?? INK, height: lineHeight(size) });
    }
    return { x, width, align: spanned.length === 1 ? (spanned[0]!.align ?? 'left') : 'left', lines: out };
  }

  /** One table row of cells; rows alternate their background so long tables stay readable. */
  row(columns: readonly Column[], cells: readonly Cell[], index: number) {
    const laid = cells.map((cell) => this.layoutCell(columns, cell));
    const height = Math.max(...laid.map((cell) => cell.lines.reduce((sum, l) => sum + l.height, 0))) + 6;
    this.ensure(height);
    if (index % 2 === 1) this.page.drawRectangle({ x: MARGIN, y: this.y - height, width: CONTENT_WIDTH, height, color: BAND });
    for (const cell of laid) {
      let y = this.y - 3;
      for (const line of cell.lines) {
        y -= line.height;
        const dx = cell.align === 'right' ? cell.width - line.font.widthOfTextAtSize(line.text, line.size) : 0;
        this.page.drawText(line.text, { x: cell.x + dx, y: y + 2.2, size: line.size, font: line.font, color: line.color });
      }
    }
    this.y -= height;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + CONTENT_WIDTH, y: this.y }, thickness: 0.4, color: RULE });
  }

  table(columns: readonly Column[], rows: readonly Cell[][]) {
    this.tableHeader(columns);
    this.onNewPage = () => this.tableHeader(columns);
    rows.forEach((cells, index) => this.row(columns, cells, index));
    this.onNewPage = null;
    this.y -= 2;
  }
}

const short = (hash: string | null) => (hash ? `${hash.slice(0, 10)}…` : '-');
/** yyyy-MM-dd HH:mm:ss, the zone said in the column's title. */
const cellTime = (at: Date | null) => (at ? formatUtc(at).replace(' UTC', '') : '-');

/** What an entry recorded, in a few words (the whole entry is what its hash covers). */
function summary(action: string, stored: unknown, documentNames: Map<string, string>): string {
  const details = publicDetails(action, stored);
  const parts: string[] = [];
  for (const doc of details.documents ?? []) parts.push(`${doc.name ?? documentNames.get(doc.documentId) ?? 'document'} ${short(doc.before)} -> ${short(doc.after)}`);
  if (details.status && details.status !== 'InProgress') parts.push(`ePak ${details.status}`);
  if (details.signerStatus) parts.push(details.signerStatus);
  if (details.reason) parts.push(`reason: ${details.reason}`);
  if (details.comment) parts.push(`comment: "${details.comment}"`);
  return parts.join('; ');
}

/** The certificate as drawn, not yet sealed, with where its seal goes. */
async function drawCertificate(
  data: Awaited<ReturnType<typeof gather>>,
  now: Date,
  recordLink: string | null,
): Promise<{ pdf: Buffer; seal: { pageIndex: number; rect: [number, number, number, number] } }> {
  const { epak, owner, documents, revisions, recipients, people, activity, actors, tenantName } = data;
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  doc.setTitle(toWinAnsi(`Certificate of completion - ${epak.subject}`));
  doc.setAuthor(toWinAnsi(tenantName));
  doc.setSubject(`ePak ${epak.id}`);
  doc.setCreator('Pakt');
  doc.setProducer('Pakt');
  doc.setCreationDate(now);
  doc.setModificationDate(now);

  const w = new Writer(doc, fonts);
  // Title band.
  const band = 80;
  w.page.drawRectangle({ x: 0, y: PAGE[1] - band, width: PAGE[0], height: band, color: ACCENT });
  w.text('Certificate of Completion', MARGIN, PAGE[1] - 44, { font: fonts.bold, size: 21, color: WHITE });
  w.text(`${tenantName}  |  issued ${formatUtc(now)}`, MARGIN, PAGE[1] - 64, { size: 9, color: rgb(0.83, 0.88, 0.96), width: CONTENT_WIDTH - 80 });
  w.text('Pakt', MARGIN, PAGE[1] - 44, { font: fonts.bold, size: 16, color: WHITE, width: CONTENT_WIDTH, align: 'right' });
  w.text('e-signature', MARGIN, PAGE[1] - 64, { size: 8, color: rgb(0.83, 0.88, 0.96), width: CONTENT_WIDTH, align: 'right' });
  w.y = PAGE[1] - band - 4;

  const chain = verifyActivityRows(activity);
  w.heading('ePak');
  w.fields([
    [['Subject', epak.subject]],
    [
      ['ePak ID', epak.id],
      ['Status', epak.status],
    ],
    [['Owner', owner ? `${personName(owner)} <${owner.email}>` : '-']],
    [
      ['Created', formatUtc(epak.createdAt)],
      ['Signing policy', epak.signingPolicy],
    ],
    [
      ['Started', formatUtc(epak.startedAt)],
      ['Ended', formatUtc(epak.endedAt)],
    ],
    [
      ['Documents', String(documents.length)],
      ['Recipients', String(recipients.length)],
    ],
  ]);

  if (recordLink) {
    await w.prepareQr(recordLink);
    drawVerification(w, recordLink);
  }

  w.heading('Documents');
  const documentNames = new Map(documents.map((d) => [d.id, d.name]));
  w.table(
    [
      { title: '#', width: 22 },
      { title: 'Name and SHA-256, as composed and as it is now', width: CONTENT_WIDTH - 22 - 50 - 60 },
      { title: 'Pages', width: 50, align: 'right' },
      { title: 'Revisions', width: 60, align: 'right' },
    ],
    documents.map((d, i) => {
      const revs = revisions.get(d.id) ?? [];
      return [
        { column: 0, lines: [{ text: String(i + 1) }] },
        {
          column: 1,
          span: 3,
          lines: [
            { text: d.name, font: 'bold', wrap: 'words' },
            { text: `Original  ${d.sha256}`, font: 'mono', size: 7, color: MUTED },
            { text: `Final     ${currentVersion(d, revs).sha256}`, font: 'mono', size: 7, color: MUTED },
          ],
        },
        { column: 2, lines: [{ text: String(d.pageCount) }] },
        { column: 3, lines: [{ text: String(revs.length) }] },
      ];
    }),
  );

  w.heading('Recipients');
  w.table(
    [
      { title: 'Step', width: 28 },
      { title: 'Role', width: 72 },
      { title: 'Recipient', width: 162 },
      { title: 'Status', width: 66 },
      { title: 'Acted at (UTC)', width: 88 },
      { title: 'IP address', width: CONTENT_WIDTH - 416 },
    ],
    recipients.map((r) => {
      const person = people.get(r.userId);
      return [
        { column: 0, lines: [{ text: String(r.stepOrder) }] },
        { column: 1, lines: [{ text: r.stepType }, ...(r.stepName && r.stepName !== r.stepType ? [{ text: r.stepName, size: 7, color: MUTED }] : [])] },
        { column: 2, lines: [{ text: r.signedName ?? (person ? personName(person) : '-') }, { text: person?.email ?? '', size: 7, color: MUTED, wrap: 'chars' }] },
        { column: 3, lines: [{ text: r.status }] },
        { column: 4, lines: [{ text: cellTime(r.actedAt) }] },
        { column: 5, lines: [{ text: addressOf(activity, r) ?? '-', wrap: 'chars' }] },
      ];
    }),
  );

  w.heading('Activity log');
  w.table(
    [
      { title: '#', width: 22 },
      { title: 'Time (UTC)', width: 84 },
      { title: 'Actor', width: 132 },
      { title: 'Action and details / entry hash (SHA-256)', width: CONTENT_WIDTH - 238 },
    ],
    activity.map((row) => {
      const who = withTypedName((row.actorId && actors.get(row.actorId)) || null, row.details);
      const details = summary(row.action, row.details, documentNames);
      return [
        { column: 0, lines: [{ text: String(row.seq) }] },
        { column: 1, lines: [{ text: cellTime(row.at) }] },
        { column: 2, lines: who ? [{ text: who.name }, { text: who.email, size: 7, color: MUTED, wrap: 'chars' }] : [{ text: row.actorId ? 'removed user' : 'system', color: MUTED }] },
        {
          column: 3,
          lines: [
            { text: row.action, font: 'bold' },
            ...(details ? [{ text: details, size: 7.5, wrap: 'words' as const }] : []),
            { text: row.hash ?? '(written before the log was chained)', font: 'mono', size: 6.6, color: MUTED },
          ],
        },
      ];
    }),
  );

  w.heading('Integrity', 90);
  w.text(
    chain.ok ? `Activity chain verified: ${chain.entries} entries, each linked to the one before.` : `Activity chain BROKEN at entry #${chain.brokenAt}: the log was changed after it was written.`,
    MARGIN,
    w.y - 11,
    { font: fonts.bold, size: 10, color: chain.ok ? GOOD : BAD },
  );
  w.y -= 17;
  if (chain.ok && chain.entries > 0) {
    w.ensure(14);
    w.text('Last entry hash', MARGIN, w.y - 9, { font: fonts.bold, size: 7.5, color: MUTED });
    w.text(chain.lastHash, MARGIN + 74, w.y - 9, { font: fonts.mono, size: 7.5 });
    w.y -= 15;
  }
  w.paragraph(
    "Each entry's hash is the SHA-256 of the previous entry's hash (64 zeros for the first) followed by the entry's canonical JSON: ePak id, sequence number, actor, action, details, IP address and time. Changing, removing or reordering an entry breaks every link after it. Document hashes are the SHA-256 of each PDF as composed and as it is now, signers' revisions included.",
    { size: 7.5, color: MUTED },
  );
  w.paragraph(`This certificate is sealed by ${tenantName} with its electronic seal (PAdES); any change to it invalidates the seal.`, { size: 7.5, color: MUTED });

  // The seal's box sits at the foot of the last page, right.
  w.ensure(SEAL_BOX.height + 10);
  const sealBottom = MARGIN + FOOTER_SPACE;
  const rect: [number, number, number, number] = [PAGE[0] - MARGIN - SEAL_BOX.width, sealBottom, PAGE[0] - MARGIN, sealBottom + SEAL_BOX.height];

  const pages = doc.getPages();
  for (const [index, page] of pages.entries()) {
    page.drawLine({ start: { x: MARGIN, y: MARGIN + 12 }, end: { x: PAGE[0] - MARGIN, y: MARGIN + 12 }, thickness: 0.5, color: RULE });
    page.drawText(`Pakt  |  Certificate of completion  |  ePak ${epak.id}`, { x: MARGIN, y: MARGIN, size: 7.5, font: fonts.regular, color: MUTED });
    const number = `Page ${index + 1} of ${pages.length}`;
    page.drawText(number, { x: PAGE[0] - MARGIN - fonts.regular.widthOfTextAtSize(number, 7.5), y: MARGIN, size: 7.5, font: fonts.regular, color: MUTED });
  }
  const pdf = Buffer.from(await doc.save({ useObjectStreams: false }));
  return { pdf, seal: { pageIndex: pages.length - 1, rect } };
}

/** The certificate of an ePak, drawn and sealed with its tenant's seal (made on first need). */
export async function buildCompletionCertificate(options: CertificateOptions): Promise<Buffer> {
  const data = await gather(options.db, options.epakId);
  const finalHashes = data.documents.map((d) => currentVersion(d, data.revisions.get(d.id) ?? []).sha256);
  const recordLink = options.publicUrl ? recordUrl(options.publicUrl, recordToken(options.vault, data.epak.id, finalHashes)) : null;
  const { pdf, seal } = await drawCertificate(data, options.now, recordLink);
  const tenantSeal = await ensureTenantSeal({
    db: options.db,
    vault: options.vault,
    tenantId: data.epak.tenantId,
    ...(options.keyAlgorithm ? { keyAlgorithm: options.keyAlgorithm } : {}),
  });
  const chain = [tenantSeal.caCertificatePem];
  const [x0, y0, x1, y1] = seal.rect;
  const sealed = await sealRevision({
    source: pdf,
    signature: {
      pageIndex: seal.pageIndex,
      rect: seal.rect,
      appearance: textAppearance({
        width: x1 - x0,
        height: y1 - y0,
        rotate: 0,
        border: true,
        fontSize: 9,
        lines: [`Sealed by ${data.tenantName} — Pakt`, `Certificate of completion, ${formatUtc(options.now)}`, `ePak ${data.epak.id}`],
      }),
      fieldName: 'Pakt certificate seal',
      signerName: data.tenantName,
      reason: 'Certificate of completion',
      signedAt: options.now,
    },
    cmsMaxSize: maxCmsSize({ certificate: tenantSeal.sealCertificatePem, chain }),
    sign: (digest) => signDigest({ digest, key: tenantSeal.sealPrivateKeyPem, certificate: tenantSeal.sealCertificatePem, chain }),
  });
  return sealed.bytes;
}
