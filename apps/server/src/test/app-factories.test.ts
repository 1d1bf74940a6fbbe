import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composedEpak, signedInMember, startedEpak, uploadedDocument, workflowStateIds } from './app-factories';
import { buildTestApp, type TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the app factories', () => {
  it('build what they are not given: a started ePak needs no more than the call', async () => {
    const { owner, epak } = await startedEpak(t);
    expect(epak.status).toBe('InProgress');
    expect(epak.documents.map((document) => document.name)).toEqual(['plain-1p-pdftex.pdf']);
    expect(epak.steps.map((step) => [step.type, step.recipients.length])).toEqual([['SIGN', 1]]);
    // The signer was made in the owner's tenant, so they are an internal recipient.
    expect(epak.steps[0]!.recipients[0]!.type).toBe('internal');
    expect(owner.headers['x-tenant-id']).toBe(owner.tenant.id);
  });

  it('use what they are given, in the given tenant', async () => {
    const owner = await signedInMember(t, { role: 'admin' });
    const reviewer = await signedInMember(t, { role: 'custodian', tenant: owner.tenant });
    const document = await uploadedDocument(t, { owner, file: 'mixed-sizes-openoffice.pdf' });
    const state = await workflowStateIds(t, owner);
    const { epak } = await composedEpak(t, {
      owner,
      documents: [document],
      steps: [
        { type: 'REVIEW', recipients: [reviewer] },
        { type: 'SIGN', recipients: ['someone@elsewhere.test'] },
      ],
      fields: { subject: 'Given subject' },
    });
    expect(epak).toMatchObject({ subject: 'Given subject', status: 'Draft' });
    expect(epak.documents[0]!.pageCount).toBe(3);
    expect(epak.steps.map((step) => [step.type, step.workflowStateId, step.recipients.map((recipient) => recipient.email.toLowerCase())])).toEqual([
      ['REVIEW', state('REVIEW'), [reviewer.user.email.toLowerCase()]],
      ['SIGN', state('SIGN'), ['someone@elsewhere.test']],
    ]);
  });

  it('say which call was refused, with its answer, instead of handing back a broken value', async () => {
    const stranger = await signedInMember(t, { role: 'signer' });
    await expect(uploadedDocument(t, { owner: stranger })).rejects.toThrow(/upload of plain-1p-pdftex.pdf answered 403/);
  });
});
