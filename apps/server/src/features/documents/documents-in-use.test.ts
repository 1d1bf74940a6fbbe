import { deleteDocuments, deleteEpaks, mergeDocuments, renameDocument } from '@pakt/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../platform/db/schema';
import { composedEpak, signedInMember, startedEpak, uploadedDocument } from '../../test/app-factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * -82 (document already in use, spec §8): a document a live ePak was composed from is not deleted
 * from its owner's documents; the ePak keeps its own copy, and deleting the upload would not take
 * the document back from it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const stored = async (ids: string[]) => (await t.database.db.select({ id: documents.id }).from(documents).where(inArray(documents.id, ids))).map((row) => row.id).sort();

describe('deleting a document a live ePak was composed from (-82)', () => {
  it('is refused, all or none, naming the ePak, while the ePak is a draft or in progress; once it is gone the document may go', async () => {
    const owner = await signedInMember(t);
    const drafted = await uploadedDocument(t, { owner });
    const sent = await uploadedDocument(t, { owner, file: 'plain-1p-libreoffice.pdf' });
    const free = await uploadedDocument(t, { owner, file: 'mixed-sizes-openoffice.pdf' });
    const { epak: draft } = await composedEpak(t, { owner, documents: [drafted], fields: { subject: 'Lease, flat 3' } });
    const { epak: live } = await startedEpak(t, { owner, documents: [sent], fields: { subject: 'Supply agreement' } });
    const all = [drafted.documentId, sent.documentId, free.documentId].sort();

    const onDraft = await inject(t.app, deleteDocuments, { as: owner, body: { documentIds: [drafted.documentId] } });
    expect([onDraft.statusCode, onDraft.code], onDraft.body).toEqual([409, -82]);
    expect(onDraft.json().message).toContain('"Lease, flat 3" (a draft)');
    expect(onDraft.json().data).toEqual({ documentIds: [drafted.documentId], ePakIds: [draft.ePakId] });

    // All or none: the free document stays too.
    const mixed = await inject(t.app, deleteDocuments, { as: owner, body: { documentIds: [free.documentId, sent.documentId] } });
    expect([mixed.statusCode, mixed.code], mixed.body).toEqual([409, -82]);
    expect(mixed.json().message).toContain('"Supply agreement" (in progress)');
    expect(mixed.json().data).toEqual({ documentIds: [sent.documentId], ePakIds: [live.ePakId] });
    expect(await stored(all)).toEqual(all);

    // Renaming and merging change no ePak: they go on.
    expect((await inject(t.app, renameDocument, { as: owner, params: { documentId: sent.documentId }, body: { name: 'Supply agreement.pdf' } })).statusCode).toBe(200);
    expect((await inject(t.app, mergeDocuments, { as: owner, body: { documentIds: [sent.documentId, drafted.documentId], name: 'Both.pdf' } })).statusCode).toBe(200);

    // Deleted (the live one stopped first), the ePaks no longer hold the documents back.
    const gone = await inject(t.app, deleteEpaks, { as: owner, body: { ePakIds: [draft.ePakId, live.ePakId] } });
    expect(gone.statusCode, gone.body).toBe(200);
    const deleted = await inject(t.app, deleteDocuments, { as: owner, body: { documentIds: all } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.data).toEqual({ deleted: 3 });
    expect(await stored(all)).toEqual([]);
  });

  it('does not count an ePak of someone else made from the same file: each upload is its owner\u2019s', async () => {
    const owner = await signedInMember(t);
    const colleague = await signedInMember(t, { tenant: owner.tenant });
    const mine = await uploadedDocument(t, { owner });
    const theirs = await uploadedDocument(t, { owner: colleague });
    expect(theirs.sha256).toBe(mine.sha256);
    await composedEpak(t, { owner: colleague, documents: [theirs] });
    const res = await inject(t.app, deleteDocuments, { as: owner, body: { documentIds: [mine.documentId] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.database.db.select().from(documents).where(eq(documents.id, theirs.documentId))).toHaveLength(1);
  });
});
