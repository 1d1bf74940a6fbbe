import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import * as schema from '../db/schema';
import {
  bulkComposeRuns,
  documents,
  documentTemplates,
  epakAttachments,
  epakCertificates,
  epakDocumentRevisions,
  epakDocuments,
  epaks,
  letterheadTemplates,
  rubberStamps,
  users,
} from '../db/schema';
import { blobKey, LocalFileStorage, type StoredFile } from './file-storage';
import { makeMember } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { startJobQueue } from '../jobs/job-queue';
import { BLOB_REFERENCES, sweepOrphanBlobs, sweepOrphanBlobsJob } from './sweep-orphan-blobs';

const HOUR = 3600_000;
const NOT_A_BLOB = 'f'.repeat(64);

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

let root: string;
let storage: LocalFileStorage;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-orphans-'));
  storage = new LocalFileStorage(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A new blob, last written `hoursAgo` hours ago. */
async function blob(hoursAgo = 2): Promise<StoredFile> {
  const stored = await storage.put(Readable.from([`blob ${counter++} ${Math.random()}`]));
  const when = new Date(Date.now() - hoursAgo * HOUR);
  fs.utimesSync(path.join(root, blobKey(stored.sha256)), when, when);
  return stored;
}
const exists = async (stored: StoredFile) => (await storage.stat(stored.sha256)) !== undefined;
const sweep = (extra: Partial<Parameters<typeof sweepOrphanBlobs>[0]> = {}) => sweepOrphanBlobs({ db, storage, olderThanMs: HOUR, ...extra });

const columnName = (column: (typeof BLOB_REFERENCES)[number]) => `${getTableName(column.table)}.${column.name}`;

/** A tenant, a member and a draft ePak with one document, for the rows that need them. */
async function owner() {
  const { tenant, user } = await makeMember(db, { role: 'custodian' });
  const [epak] = await db.insert(epaks).values({ tenantId: tenant.id, ownerId: user.id, subject: 'S', signingPolicy: 'ESIGNATURE' }).returning();
  const [doc] = await db
    .insert(epakDocuments)
    .values({ epakId: epak!.id, position: 1, name: 'a.pdf', sha256: NOT_A_BLOB, size: 1, pageCount: 1, pages: [] })
    .returning();
  return { tenant, user, epak: epak!, doc: doc! };
}

/**
 * One way to make a row naming a blob, per column of BLOB_REFERENCES; the test below fails when
 * a column is listed without one here.
 */
const REFERENCING_ROWS: Record<string, (sha256: string) => Promise<unknown>> = {
  'users.photo_sha256': async (sha256) => {
    const { user } = await owner();
    await db.update(users).set({ photoSha256: sha256, photoType: 'image/png' }).where(eq(users.id, user.id));
  },
  'documents.sha256': async (sha256) => {
    const { tenant, user } = await owner();
    await db.insert(documents).values({ tenantId: tenant.id, ownerId: user.id, name: 'd.pdf', sourceFormat: 'pdf', sha256, size: 1, pageCount: 1, pages: [] });
  },
  'epak_documents.sha256': async (sha256) => {
    const { epak } = await owner();
    await db.insert(epakDocuments).values({ epakId: epak.id, position: 2, name: 'b.pdf', sha256, size: 1, pageCount: 1, pages: [] });
  },
  'epak_document_revisions.tail_sha256': async (sha256) => {
    const { doc } = await owner();
    await db.insert(epakDocumentRevisions).values({ epakDocumentId: doc.id, seq: 1, predecessorSha256: NOT_A_BLOB, sha256: NOT_A_BLOB, size: 2, tailSha256: sha256, tailSize: 1 });
  },
  'epak_document_revisions.predecessor_sha256': async (sha256) => {
    const { doc } = await owner();
    await db.insert(epakDocumentRevisions).values({ epakDocumentId: doc.id, seq: 1, predecessorSha256: sha256, sha256: NOT_A_BLOB, size: 2, tailSha256: NOT_A_BLOB, tailSize: 1 });
  },
  'epak_document_revisions.sha256': async (sha256) => {
    const { doc } = await owner();
    await db.insert(epakDocumentRevisions).values({ epakDocumentId: doc.id, seq: 1, predecessorSha256: NOT_A_BLOB, sha256, size: 2, tailSha256: NOT_A_BLOB, tailSize: 1 });
  },
  'epak_attachments.sha256': async (sha256) => {
    const { epak } = await owner();
    await db.insert(epakAttachments).values({ epakId: epak.id, name: 'x.txt', sha256, size: 1 });
  },
  'epak_certificates.sha256': async (sha256) => {
    const { epak } = await owner();
    await db.insert(epakCertificates).values({ epakId: epak.id, sha256, size: 1 });
  },
  'letterhead_templates.sha256': async (sha256) => {
    const { tenant } = await owner();
    await db.insert(letterheadTemplates).values({ tenantId: tenant.id, name: 'L', contentType: 'image/png', sha256, size: 1, width: 1, height: 1 });
  },
  'document_templates.sha256': async (sha256) => {
    const { tenant } = await owner();
    await db.insert(documentTemplates).values({ tenantId: tenant.id, name: `T ${sha256}`, documentName: 't.pdf', sha256, size: 1, pageCount: 1, pages: [] });
  },
  'rubber_stamps.sha256': async (sha256) => {
    const { tenant, user } = await owner();
    await db.insert(rubberStamps).values({ tenantId: tenant.id, ownerId: user.id, name: 'S', contentType: 'image/png', sha256, size: 1, width: 1, height: 1 });
  },
  'bulk_compose_runs.file_sha256': async (sha256) => {
    const { tenant, user } = await owner();
    await db.insert(bulkComposeRuns).values({ tenantId: tenant.id, ownerId: user.id, fileName: 'rows.csv', fileSha256: sha256, fileSize: 1 });
  },
};

describe('the columns that reference stored files', () => {
  it('are exactly the schema columns named *sha256, every one with a row-maker in this test', () => {
    const inSchema = Object.values(schema as Record<string, unknown>)
      .filter((value): value is PgTable => is(value, PgTable))
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.columns.filter((column) => /sha256$/i.test(column.name)).map((column) => `${config.name}.${column.name}`);
      })
      .sort();
    expect(BLOB_REFERENCES.map(columnName).sort()).toEqual(inSchema);
    expect(Object.keys(REFERENCING_ROWS).sort()).toEqual(inSchema);
  });
});

describe('sweepOrphanBlobs', () => {
  it('deletes old unreferenced blobs and keeps young ones and every referenced one', async () => {
    const referenced = new Map<string, StoredFile>();
    for (const [column, makeRow] of Object.entries(REFERENCING_ROWS)) {
      const stored = await blob(48);
      await makeRow(stored.sha256);
      referenced.set(column, stored);
    }
    const orphans = [await blob(2), await blob(30)];
    const young = await blob(0.5);
    const deleted: string[] = [];
    expect(await sweep({ onDeleted: (sha256) => deleted.push(sha256) })).toBe(2);
    expect(deleted.sort()).toEqual(orphans.map((o) => o.sha256).sort());
    for (const orphan of orphans) expect(await exists(orphan)).toBe(false);
    expect(await exists(young)).toBe(true);
    for (const [column, stored] of referenced) expect(await exists(stored), column).toBe(true);
    expect(await sweep()).toBe(0);
  });

  it('works through more blobs than one batch', async () => {
    const orphans = await Promise.all(Array.from({ length: 7 }, () => blob(3)));
    const kept = await blob(3);
    await REFERENCING_ROWS['documents.sha256']!(kept.sha256);
    expect(await sweep({ batchSize: 2 })).toBe(7);
    for (const orphan of orphans) expect(await exists(orphan)).toBe(false);
    expect(await exists(kept)).toBe(true);
  });

  it('keeps an old blob uploaded again whose row is not committed yet', async () => {
    const old = await blob(5);
    // The upload stores the same content again (and writes it afresh); its row commits later.
    const again = await storage.put(Readable.from([fs.readFileSync(path.join(root, blobKey(old.sha256)))]));
    expect(again).toEqual(old);
    expect(await sweep()).toBe(0);
    expect(await exists(old)).toBe(true);
  });

  it('keeps a blob whose reference is copied by a transaction open during the check', async () => {
    const template = await blob(5);
    // The only row naming it is being deleted, while an ePak being composed copies its name.
    const { epak } = await owner();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const open = new Promise<void>((resolve) => (begun = resolve));
    const composing = db.transaction(async (tx) => {
      await tx.select().from(epaks).limit(1);
      begun();
      await gate;
      await tx.insert(epakDocuments).values({ epakId: epak.id, position: 3, name: 't.pdf', sha256: template.sha256, size: 1, pageCount: 1, pages: [] });
    });
    await open;
    let settling = false;
    const swept = sweep({
      settleTimeoutMs: 20_000,
      onSettling: (candidates) => {
        settling = true;
        expect(candidates).toBe(1);
        // The check saw no row; the composing transaction commits its copy only now.
        release();
      },
    });
    expect(await swept).toBe(0);
    await composing;
    expect(settling).toBe(true);
    expect(await exists(template)).toBe(true);
  });

  it('deletes nothing when transactions stay open too long, and does next time', async () => {
    const orphan = await blob(5);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const open = new Promise<void>((resolve) => (begun = resolve));
    const idle = db.transaction(async (tx) => {
      await tx.select().from(epaks).limit(1);
      begun();
      await gate;
    });
    await open;
    let unsettled = 0;
    expect(await sweep({ settleTimeoutMs: 300, onUnsettled: (n) => (unsettled = n) })).toBe(0);
    expect(unsettled).toBe(1);
    expect(await exists(orphan)).toBe(true);
    release();
    await idle;
    expect(await sweep()).toBe(1);
    expect(await exists(orphan)).toBe(false);
  });

  it('runs as a pg-boss job, with a grace period of at least an hour', async () => {
    const orphan = await blob(30);
    const kept = await blob(30);
    await REFERENCING_ROWS['rubber_stamps.sha256']!(kept.sha256);
    const queue = await startJobQueue({ executor: database, pollingIntervalSeconds: 0.5, supervise: false });
    try {
      let swept!: (deleted: number) => void;
      const done = new Promise<number>((resolve) => (swept = resolve));
      const job = sweepOrphanBlobsJob({ db, storage, onSwept: (n) => swept(n) });
      await queue.register(job);
      await expect(queue.send(job, { olderThanMinutes: 5 })).rejects.toThrow();
      await queue.send(job, {});
      expect(await done).toBe(1);
      expect(await exists(orphan)).toBe(false);
      expect(await exists(kept)).toBe(true);
    } finally {
      await queue.stop();
    }
  });
});
