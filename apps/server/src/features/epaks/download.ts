import { PassThrough, type Readable } from 'node:stream';
import { CERTIFICATE_FILE_NAME, type EpakStatus } from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import type { Db } from '../../platform/db/database';
import { epakAttachments, epakDocuments } from '../../platform/db/schema';
import type { SealKeyAlgorithm } from '../../platform/signing/algorithms';
import type { KeyVault } from '../../platform/signing/key-vault';
import type { FileStorage } from '../../platform/storage/file-storage';
import { type EpakActor, loadVisibleEpak } from './access';
import { assertServableDocument } from './integrity';
import { servableCompletionCertificate } from './stored-certificate';
import { currentVersion, revisionsByDocument, streamCurrentDocument } from './revisions';

/** The statuses an ePak ends in: its certificate of completion is part of its download. */
export const ENDED_STATUSES: readonly EpakStatus[] = ['Completed', 'Rejected', 'Stopped', 'Expired'];

export interface EpakDownload {
  contentType: string;
  size: number;
  fileName: string;
  stream: Readable;
}

/** A name safe inside a zip and on any file system: no folders, no control characters, ends in .pdf. */
export function pdfFileName(name: string): string {
  const base = name
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 180);
  const stem = base.replace(/\.pdf$/i, '').replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'document';
  return `${stem}.pdf`;
}

/** Distinct names, case-insensitively (Windows and macOS would merge "A.pdf" and "a.pdf"). */
export function uniqueNames(names: readonly string[], reserved: readonly string[] = []): string[] {
  const taken = new Set(reserved.map((n) => n.toLowerCase()));
  return names.map((name) => {
    const stem = name.replace(/\.pdf$/i, '');
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n}).pdf`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * GET …/download (spec §7): what the owner or a recipient takes away (anyone else: 404). With
 * one document and the ePak not ended, that document's current PDF; otherwise a zip of every
 * document's current PDF and, once the ePak has ended, its sealed certificate of completion.
 *
 * The zip is streamed: entries are stored (PDFs hardly compress), so its size is known before
 * the first byte and each document is read from storage only when its turn comes. The
 * certificate is the one stored when the ePak ended (built now if the job has not got to it), read
 * and checked before anything is sent, so a failure there is an error answer, not a cut-off file.
 */
/** What a download of an ePak (or of its certificate alone) is prepared with. */
export interface EpakDownloadOptions {
  db: Db;
  storage: FileStorage;
  vault: KeyVault;
  keyAlgorithm?: SealKeyAlgorithm;
  /** For the certificate's QR code, when it is built here. */
  publicUrl?: string;
  actor: EpakActor;
  epakId: string;
  now: Date;
}

export async function prepareEpakDownload(options: EpakDownloadOptions): Promise<EpakDownload> {
  const { db, storage } = options;
  const { epak } = await loadVisibleEpak(db, options.actor, options.epakId);
  const documents = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(asc(epakDocuments.position));
  const revisions = await revisionsByDocument(
    db,
    documents.map((d) => d.id),
  );
  const files = documents.map((doc) => {
    const revs = revisions.get(doc.id) ?? [];
    return { doc, revisions: revs, size: currentVersion(doc, revs).size };
  });
  // Every document is checked against its recorded SHA-256 before the first byte goes out: a zip
  // cannot take back an entry already sent. One at a time, so a large ePak is not held in memory.
  const serving = { db, storage, tenantId: epak.tenantId, actorId: options.actor.userId, epak };
  for (const file of files) await assertServableDocument({ ...serving, doc: file.doc, revisions: file.revisions });

  const attachments = await db.select().from(epakAttachments).where(eq(epakAttachments.epakId, epak.id)).orderBy(asc(epakAttachments.createdAt));

  // An ePak that has ended always comes with its certificate (it says who rejected or stopped it
  // and why); one still under way with one document and nothing attached is just that PDF.
  if (files.length === 1 && attachments.length === 0 && !ENDED_STATUSES.includes(epak.status as EpakStatus)) {
    const [only] = files;
    return {
      contentType: 'application/pdf',
      size: only!.size,
      fileName: pdfFileName(only!.doc.name),
      stream: streamCurrentDocument(storage, only!.doc, only!.revisions),
    };
  }

  const ended = ENDED_STATUSES.includes(epak.status as EpakStatus);
  const certificate = ended
    ? await servableCompletionCertificate({
        ...serving,
        vault: options.vault,
        ...(options.keyAlgorithm ? { keyAlgorithm: options.keyAlgorithm } : {}),
        ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
        now: options.now,
      })
    : null;
  const names = uniqueNames(
    files.map((f) => pdfFileName(f.doc.name)),
    certificate ? [CERTIFICATE_FILE_NAME] : [],
  );

  const zip = new ZipFile();
  const output = new PassThrough();
  let reading: Readable | null = null;
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  // The client went away (or a read failed): stop reading storage.
  output.on('close', () => {
    reading?.destroy();
    (zip.outputStream as Readable).destroy();
  });
  for (const [index, file] of files.entries()) {
    zip.addReadStreamLazy(names[index]!, { compress: false, size: file.size, mtime: options.now }, (callback) => {
      reading = streamCurrentDocument(storage, file.doc, file.revisions);
      // A missing blob fails the download (the client sees a cut connection) instead of hanging it.
      reading.on('error', fail);
      callback(null, reading);
    });
  }
  if (certificate) zip.addBuffer(certificate, CERTIFICATE_FILE_NAME, { compress: false, mtime: options.now });
  // Files signers attached go in a folder of their own, so they cannot clash with documents.
  const attachmentNames = uniqueNames(attachments.map((a) => a.name), []);
  for (const [index, attachment] of attachments.entries()) {
    zip.addReadStreamLazy(`attachments/${attachmentNames[index]!}`, { compress: false, size: attachment.size, mtime: options.now }, (callback) => {
      void storage.get(attachment.sha256).then(
        (stream) => {
          reading = stream;
          stream.on('error', fail);
          callback(null, stream);
        },
        (error: Error) => callback(error, undefined as unknown as Readable),
      );
    });
  }
  const size = await new Promise<number>((resolve) => {
    // Known up front: every entry is stored with its size (@types/yazl leaves the argument out).
    (zip.end as (options: object, callback: (size: number) => void) => void).call(zip, {}, resolve);
  });
  if (size < 0) {
    output.destroy();
    throw new Error('the download size could not be computed');
  }
  zip.outputStream.pipe(output);
  return { contentType: 'application/zip', size, fileName: `${pdfFileName(epak.subject).replace(/\.pdf$/, '')}.zip`, stream: output };
}
