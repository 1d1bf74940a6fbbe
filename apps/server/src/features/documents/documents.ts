import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  documentFormatOf,
  documentKindOf,
  DomainError,
  type DocumentFormat,
  type DocumentSignatureState,
  type DocumentSummary,
  fileNameProblem,
  invalidInput,
  notFound,
  type PageGeometry,
  type PreconfiguredTag,
  ResponseCode,
  signatureStateIsDoubtful,
} from '@pakt/domain';
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { certificationLevel, certificationRefusal } from '../../platform/pdf/certification';
import { inspectExistingSignatures } from '../../platform/pdf/existing-signatures';
import { openPdfFile, type PdfFile } from '../../platform/pdf/pdf-file';
import { documents, epakDocuments, epaks } from '../../platform/db/schema';
import type { FileStorage } from '../../platform/storage/file-storage';
import { convertWithLibreOffice } from './office';
import type { ParserQueue } from './parser-queue';
import { imageToPdf, inspectPdf, mergePdfs, type SandboxLimits } from './sandbox';
import type { SandboxFailure } from './sandbox-protocol';
import { contentMatches, describeFamily, SNIFF_BYTES, sniffContent } from './sniff';

type DocumentRow = typeof documents.$inferSelect;

export interface DocumentLimits {
  maxBytes: number;
  maxPages: number;
  libreOffice: string | undefined;
  sandbox?: SandboxLimits;
  /** The process's queue for parsing and conversion children (parser-queue.ts): every child runs in a turn of it. */
  parsers: ParserQueue;
}

const invalidDocument = (message: string, httpStatus?: number) =>
  new DomainError(ResponseCode.INVALID_DOCUMENT, message, httpStatus ? { httpStatus } : {});

/** -67 for a character a file name may not hold; -6 for the other ways a name can be unusable. */
export function checkDocumentName(name: string): string {
  const problem = fileNameProblem(name);
  if (problem === 'invalidCharacter') {
    throw new DomainError(ResponseCode.INVALID_CHARACTER_IN_FILENAME, 'A file name may not contain \\ / : * ? " < > | or control characters.');
  }
  if (problem === 'empty' || problem === 'dotsOnly') throw invalidInput('The file needs a name.');
  if (problem === 'tooLong') throw invalidInput('The file name is too long (200 characters at most).');
  return name.trim();
}

function failureToError(failure: SandboxFailure): DomainError {
  // Every way a file can be unusable is -59 with a message that says which; size is 413.
  return invalidDocument(failure.message, failure.reason === 'tooLarge' || failure.reason === 'tooManyPages' ? 413 : undefined);
}

export function presentDocument(row: DocumentRow): DocumentSummary {
  return {
    documentId: row.id,
    name: row.name,
    sourceFormat: row.sourceFormat as DocumentFormat,
    size: row.size,
    sha256: row.sha256,
    pageCount: row.pageCount,
    pages: row.pages as PageGeometry[],
    encrypted: row.encrypted,
    formFieldCount: (row.formFields as PreconfiguredTag[]).length,
    signatureState: (row.signatureState as DocumentSignatureState | null) ?? null,
    createdOn: row.createdAt.toISOString(),
  };
}

/** A scratch directory for one request, removed whatever happens. */
async function withWorkDir<T>(root: string, work: (dir: string) => Promise<T>): Promise<T> {
  await fs.promises.mkdir(root, { recursive: true });
  const dir = await fs.promises.mkdtemp(path.join(root, 'doc-'));
  try {
    return await work(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Streams an upload to disk, refusing it (-59, 413) the moment it passes the size limit. */
async function receiveToFile(stream: Readable, target: string, maxBytes: number): Promise<{ size: number; head: Buffer }> {
  let size = 0;
  let head = Buffer.alloc(0);
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        return callback(invalidDocument(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most a document may be.`, 413));
      }
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      callback(null, chunk);
    },
  });
  await pipeline(stream, guard, fs.createWriteStream(target, { flags: 'wx' }));
  if (size === 0) throw invalidDocument('The file is empty.');
  return { size, head };
}

interface PreparedPdf {
  path: string;
  format: DocumentFormat;
  pageCount: number;
  pages: PageGeometry[];
  encrypted: boolean;
  formFields: PreconfiguredTag[];
  signatureState: DocumentSignatureState | null;
}

/**
 * Takes an upload from the wire to an inspected PDF on disk: name and format rules, the tenant's
 * formats (-177), size, content matching the name, conversion of images (sandboxed) and office
 * files (LibreOffice, -48 without it), then inspection of the PDF in the sandbox.
 */
async function preparePdf(options: {
  fileName: string;
  stream: Readable;
  disabledFormats: readonly DocumentFormat[];
  /** The tenant's refuseDoubtfulSignatures: a file whose earlier signatures do not hold is refused. */
  refuseDoubtfulSignatures?: boolean;
  limits: DocumentLimits;
  workDir: string;
  /** Aborts when the client has gone: a request still waiting for its turn leaves the queue. */
  signal?: AbortSignal | undefined;
}): Promise<PreparedPdf> {
  const { limits, workDir } = options;
  const name = checkDocumentName(options.fileName);
  const format = documentFormatOf(name);
  if (!format) {
    throw new DomainError(ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED, 'This kind of file is not accepted: upload a PDF, an image or an Office document.');
  }
  if (options.disabledFormats.includes(format)) {
    throw new DomainError(ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED, `Your organisation does not accept .${format} files.`);
  }
  const received = path.join(workDir, `upload.${format}`);
  const { head } = await receiveToFile(options.stream, received, limits.maxBytes);
  const family = sniffContent(head);
  if (!contentMatches(format, family)) {
    throw invalidDocument(`The file is named .${format} but its content is ${describeFamily(family)}.`);
  }
  const kind = documentKindOf(format);
  if (kind === 'office' && !limits.libreOffice) {
    throw new DomainError(
      ResponseCode.DOCUMENT_CONVERSION_FAILED,
      'Office files cannot be converted on this server because LibreOffice is not installed. Save the file as PDF and upload that.',
    );
  }
  // The turn is taken once the file is on disk, so a slow upload holds no parser; the request's
  // children then run one after another within it.
  return limits.parsers.run(async () => {
    let pdfPath = received;
    if (kind === 'image') {
      pdfPath = path.join(workDir, 'converted.pdf');
      const made = await imageToPdf(received, format, pdfPath, limits.sandbox);
      if (!made.ok) throw failureToError(made);
    } else if (kind === 'office') {
      const converted = await convertWithLibreOffice({ binary: limits.libreOffice!, input: received, workDir });
      if (!converted) throw new DomainError(ResponseCode.DOCUMENT_CONVERSION_FAILED, 'LibreOffice could not convert this file to PDF.');
      pdfPath = converted;
    }
    const inspected = await inspectPdf(pdfPath, limits.maxPages, limits.sandbox);
    if (!inspected.ok) throw failureToError(inspected);
    const signatureState = await checkSigning(pdfPath, { certified: kind === 'pdf', refuseDoubtful: options.refuseDoubtfulSignatures ?? false });
    return { path: pdfPath, format, ...inspected, signatureState };
  }, options.signal);
}

/**
 * What a PDF's own signatures allow, read once the sandbox has read the file, with the reader
 * that seals it later (this reads the catalog, the form and the signatures' bytes):
 * - a certified PDF (DocMDP) cannot take the signature fields Pakt adds: refused at upload, with
 *   the reason, rather than at its first signature, where the ePak would be left stuck;
 * - the signatures it carries are checked (existing-signatures.ts): the state is kept with the
 *   document and told to the custodian and signers, and a tenant that asks refuses a file whose
 *   signatures do not hold (-59).
 * A file that reader cannot open as it is gets repaired before its first signature and is
 * checked again there; its state is then unknown (null).
 */
async function checkSigning(pdfPath: string, options: { certified: boolean; refuseDoubtful: boolean }): Promise<DocumentSignatureState | null> {
  let file: PdfFile;
  try {
    file = openPdfFile(await fs.promises.readFile(pdfPath));
  } catch {
    return null;
  }
  const refusal = options.certified ? certificationRefusal(certificationLevel(file)) : null;
  if (refusal) throw invalidDocument(refusal);
  const state = inspectExistingSignatures(file);
  if (options.refuseDoubtful && signatureStateIsDoubtful(state)) {
    const why =
      state.status === 'broken'
        ? 'one of its signatures does not hold (the signed bytes were changed, or it leaves part of the file unsigned)'
        : 'it was changed after its last signature';
    throw invalidDocument(`This organisation does not take signed files whose signatures do not hold, and ${why}. Ask its sender for the original.`);
  }
  return state;
}

/**
 * A PDF received for reading only (the verifier): the upload's size limit, its content checked to
 * be a PDF, then `work` runs on the file on disk in a turn of the parser queue; nothing is stored
 * and the scratch copy is removed afterwards.
 */
export async function withReceivedPdf<T>(options: {
  workRoot: string;
  stream: Readable;
  limits: Pick<DocumentLimits, 'maxBytes' | 'parsers'>;
  signal?: AbortSignal | undefined;
  work: (file: { path: string; size: number }) => Promise<T>;
}): Promise<T> {
  return withWorkDir(options.workRoot, async (workDir) => {
    const received = path.join(workDir, 'received.pdf');
    const { size, head } = await receiveToFile(options.stream, received, options.limits.maxBytes);
    const family = sniffContent(head);
    if (family !== 'pdf') throw invalidDocument(`This is not a PDF: its content is ${describeFamily(family)}.`);
    return options.limits.parsers.run(() => options.work({ path: received, size }), options.signal);
  });
}

/** An uploaded file made into a stored, inspected PDF, without a document row of its own. */
export interface StoredPdf {
  readonly name: string;
  readonly format: DocumentFormat;
  readonly sha256: string;
  readonly size: number;
  readonly pageCount: number;
  readonly pages: PageGeometry[];
  readonly encrypted: boolean;
  readonly formFields: PreconfiguredTag[];
  readonly signatureState: DocumentSignatureState | null;
}

/**
 * The upload pipeline of documents for other owners of a PDF (document templates): the same
 * name, format, size and content rules, conversion and sandboxed inspection, then the stored blob.
 */
export async function storeUploadedPdf(options: {
  storage: FileStorage;
  workRoot: string;
  fileName: string;
  stream: Readable;
  disabledFormats: readonly DocumentFormat[];
  refuseDoubtfulSignatures?: boolean;
  limits: DocumentLimits;
  signal?: AbortSignal | undefined;
}): Promise<StoredPdf> {
  return withWorkDir(options.workRoot, async (workDir) => {
    const pdf = await preparePdf({ ...options, workDir });
    const stored = await options.storage.put(fs.createReadStream(pdf.path));
    return {
      name: checkDocumentName(options.fileName),
      format: pdf.format,
      sha256: stored.sha256,
      size: stored.size,
      pageCount: pdf.pageCount,
      pages: pdf.pages,
      encrypted: pdf.encrypted,
      formFields: pdf.formFields,
      signatureState: pdf.signatureState,
    };
  });
}

export async function uploadDocument(options: {
  db: Db;
  storage: FileStorage;
  workRoot: string;
  tenantId: string;
  ownerId: string;
  fileName: string;
  stream: Readable;
  disabledFormats: readonly DocumentFormat[];
  refuseDoubtfulSignatures?: boolean;
  limits: DocumentLimits;
  signal?: AbortSignal | undefined;
}): Promise<DocumentRow> {
  const pdf = await storeUploadedPdf(options);
  const [row] = await options.db
    .insert(documents)
    .values({
      tenantId: options.tenantId,
      ownerId: options.ownerId,
      name: pdf.name,
      sourceFormat: pdf.format,
      sha256: pdf.sha256,
      size: pdf.size,
      pageCount: pdf.pageCount,
      pages: pdf.pages,
      encrypted: pdf.encrypted,
      formFields: pdf.formFields,
      signatureState: pdf.signatureState,
    })
    .returning();
  return row!;
}

/**
 * Converts without storing: the PDF is handed to `send` while its scratch copy still exists,
 * and removed after.
 */
export async function convertToPdf<T>(options: {
  workRoot: string;
  fileName: string;
  stream: Readable;
  disabledFormats: readonly DocumentFormat[];
  limits: DocumentLimits;
  signal?: AbortSignal | undefined;
  send: (pdf: { path: string; size: number; name: string }) => Promise<T>;
}): Promise<T> {
  return withWorkDir(options.workRoot, async (workDir) => {
    const pdf = await preparePdf({ ...options, workDir });
    if (pdf.format === 'pdf') throw invalidInput('This is a PDF already: there is nothing to convert.');
    const { size } = await fs.promises.stat(pdf.path);
    return options.send({ path: pdf.path, size, name: `${path.parse(checkDocumentName(options.fileName)).name}.pdf` });
  });
}

/** One of the caller's documents in this tenant; anyone else's answers as if it did not exist. */
export async function loadOwnDocument(db: Db, scope: { tenantId: string; ownerId: string }, documentId: string): Promise<DocumentRow> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.tenantId, scope.tenantId), eq(documents.ownerId, scope.ownerId)));
  if (!row) throw notFound('No such document.');
  return row;
}

export async function listOwnDocuments(db: Db, scope: { tenantId: string; ownerId: string }, page: number, pageSize: number) {
  const where = and(eq(documents.tenantId, scope.tenantId), eq(documents.ownerId, scope.ownerId));
  const rows = await db
    .select()
    .from(documents)
    .where(where)
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(documents).where(where);
  return { rows, total: total!.n };
}

/** The ePak statuses in which an ePak still goes somewhere: a draft, or one waiting on its signers. */
const LIVE_EPAK_STATUSES = ['Draft', 'InProgress'];

/**
 * All or none: one id that is not the caller's refuses the whole request (404) and deletes nothing.
 *
 * -82 DOCUMENT_ALREADY_IN_USE (spec §8 "document already in use"): a document that a live ePak of
 * the caller (a draft, or one in progress; not deleted or archived) was composed from. The ePak
 * keeps its own copy either way, so nothing would break; the refusal is what the custodian needs
 * to know: deleting the upload would not take the document back from the ePak, which they stop or
 * delete for that. Once the ePak has ended the document may go. Renaming, merging and converting
 * change no ePak (each has its copy; merge and convert make new files) and are never refused so.
 */
export async function deleteOwnDocuments(db: Db, scope: { tenantId: string; ownerId: string }, documentIds: string[]): Promise<number> {
  const ids = [...new Set(documentIds)];
  return db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: documents.id, name: documents.name })
      .from(documents)
      .where(and(inArray(documents.id, ids), eq(documents.tenantId, scope.tenantId), eq(documents.ownerId, scope.ownerId)))
      .for('update');
    if (owned.length !== ids.length) throw notFound('No such document.');
    const inUse = await tx
      .select({ documentId: epakDocuments.sourceDocumentId, ePakId: epaks.id, subject: epaks.subject, status: epaks.status })
      .from(epakDocuments)
      .innerJoin(epaks, eq(epaks.id, epakDocuments.epakId))
      .where(
        and(
          inArray(epakDocuments.sourceDocumentId, ids),
          eq(epaks.tenantId, scope.tenantId),
          inArray(epaks.status, LIVE_EPAK_STATUSES),
          isNull(epaks.deletedAt),
          isNull(epaks.archivedAt),
        ),
      )
      .orderBy(asc(epaks.createdAt), asc(epaks.id));
    if (inUse.length > 0) {
      const ePaks = [...new Map(inUse.map((use) => [use.ePakId, use])).values()];
      const named = ePaks.map((use) => `"${use.subject}" (${use.status === 'Draft' ? 'a draft' : 'in progress'})`).join(', ');
      const used = owned.filter((document) => inUse.some((use) => use.documentId === document.id));
      const what = used.length === 1 ? `"${used[0]!.name}" is` : `${used.map((document) => `"${document.name}"`).join(', ')} are`;
      throw new DomainError(
        ResponseCode.DOCUMENT_ALREADY_IN_USE,
        `${what} in use by ${ePaks.length === 1 ? 'the ePak' : 'the ePaks'} ${named}. Deleting a document here does not take it back from an ePak: stop or delete the ePak first, or delete the document once the ePak has ended.`,
        { data: { documentIds: used.map((document) => document.id), ePakIds: ePaks.map((use) => use.ePakId) } },
      );
    }
    // The stored bytes stay: the same content may back another document (content addressing).
    await tx.delete(documents).where(inArray(documents.id, ids));
    return ids.length;
  });
}

export async function renameOwnDocument(db: Db, scope: { tenantId: string; ownerId: string }, documentId: string, name: string) {
  const checked = checkDocumentName(name);
  await loadOwnDocument(db, scope, documentId);
  const [row] = await db.update(documents).set({ name: checked, updatedAt: new Date() }).where(eq(documents.id, documentId)).returning();
  return row!;
}

/** A new document holding the pages of several, in the order given. */
export async function mergeOwnDocuments(options: {
  db: Db;
  storage: FileStorage;
  workRoot: string;
  scope: { tenantId: string; ownerId: string };
  documentIds: string[];
  name: string;
  limits: DocumentLimits;
  signal?: AbortSignal | undefined;
}): Promise<DocumentRow> {
  const { db, storage, scope } = options;
  const name = checkDocumentName(options.name);
  const sources: DocumentRow[] = [];
  for (const id of options.documentIds) sources.push(await loadOwnDocument(db, scope, id));
  return withWorkDir(options.workRoot, async (workDir) => {
    const inputs: string[] = [];
    for (const source of sources) {
      const file = path.join(workDir, `${randomUUID()}.pdf`);
      await pipeline(await storage.get(source.sha256), fs.createWriteStream(file));
      inputs.push(file);
    }
    const output = path.join(workDir, 'merged.pdf');
    const inspected = await options.limits.parsers.run(async () => {
      const merged = await mergePdfs(inputs, output, options.limits.sandbox);
      if (!merged.ok) throw failureToError(merged);
      const result = await inspectPdf(output, options.limits.maxPages, options.limits.sandbox);
      if (!result.ok) throw failureToError(result);
      return result;
    }, options.signal);
    const stored = await storage.put(fs.createReadStream(output));
    const [row] = await db
      .insert(documents)
      .values({
        tenantId: scope.tenantId,
        ownerId: scope.ownerId,
        name,
        sourceFormat: 'pdf',
        sha256: stored.sha256,
        size: stored.size,
        pageCount: inspected.pageCount,
        pages: inspected.pages,
        encrypted: inspected.encrypted,
        formFields: inspected.formFields,
      })
      .returning();
    return row!;
  });
}
