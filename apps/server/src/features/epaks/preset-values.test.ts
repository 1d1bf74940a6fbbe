import { createSignatureBlocks, getSignatureBlocks, signEpakDocument, type Tag } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakDocuments } from '../../platform/db/schema';
import { composedEpak, signatureFieldsFor, signedInMember, startedEpak } from '../../test/app-factories';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';

/**
 * A signer's mark is theirs alone: whoever places a signature field (or the name, address and
 * time stamp fields filled from who signs) cannot give it a value in advance, and a value stored
 * with such a field anyway (older data, a template) is never sealed as the signer's.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PICTURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('values placed in advance', () => {
  it.each<[string, (tag: Tag) => Tag]>([
    ['a signature picture', (tag) => ({ ...tag, value: PICTURE })],
    ['a typed signature', (tag) => ({ ...tag, type: 'signatureText', value: 'Asha Rao' })],
    ['a signer name', (tag) => ({ ...tag, type: 'username', value: 'Someone Else' })],
  ])('refuses %s on a signer’s field (400 -6, presetSignerValue) and keeps what was stored', async (_, preset) => {
    const { owner, epak } = await composedEpak(t);
    const [{ documentId, tags }] = signatureFieldsFor(epak) as [{ documentId: string; tags: Tag[] }];
    const before = (await inject(t.app, getSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId } })).data;
    const res = await inject(t.app, createSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId }, body: { tags: tags.map(preset) } });
    expect([res.statusCode, res.code]).toEqual([400, -6]);
    expect(JSON.stringify(res.body)).toContain('presetSignerValue');
    expect((await inject(t.app, getSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId } })).data).toEqual(before);
  });

  it('never seals a value stored with the signer’s signature field: the signer must give their own', async () => {
    const signer = await signedInMember(t, { role: 'signer' });
    const { epak, placed } = await startedEpak(t, { steps: [{ type: 'SIGN', recipients: [signer] }], owner: await signedInMember(t, { tenant: signer.tenant }) });
    const { documentId, tags } = placed[0]!;
    // As older data or a hand-edited row could hold it: a picture stored with the field.
    await t.database.db
      .update(epakDocuments)
      .set({ tags: tags.map((tag) => (tag.type === 'signature' ? { ...tag, value: PICTURE } : tag)) })
      .where(eq(epakDocuments.id, documentId));
    const res = await inject(t.app, signEpakDocument, { as: signer, params: { ePakId: epak.ePakId, documentId }, body: { values: [] } });
    expect([res.statusCode, res.code]).toEqual([400, -6]);
    const signature = tags.find((tag) => tag.type === 'signature')!;
    expect(JSON.stringify(res.body)).toContain(`values.${signature.uuid}`);
  });
});
