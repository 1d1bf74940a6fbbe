import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentAnnouncements, getGroup, listLetterheadTemplates, listRubberStamps, listDocumentTemplates, getWorkflow } from '@pakt/domain';
import {
  composedEpak,
  createdAnnouncement,
  createdGroup,
  createdRubberStamp,
  createdWorkflow,
  signedInMember,
  startedEpak,
  uploadedDocument,
  uploadedDocumentTemplate,
  uploadedLetterhead,
  workflowStateIds,
} from './app-factories';
import { inject } from './inject';
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

  it('make every entity through its endpoint, each readable back by the tenant that owns it', async () => {
    const admin = await signedInMember(t, { role: 'admin' });
    const signer = await signedInMember(t, { role: 'signer', tenant: admin.tenant });
    const manager = await signedInMember(t, { role: 'custodian', tenant: admin.tenant });

    const workflow = await createdWorkflow(t, { owner: admin, steps: [{ type: 'REVIEW', recipients: [manager] }, { type: 'SIGN', recipients: [{ placeholder: 'Client' }, 'client@elsewhere.test'] }] });
    const readWorkflow = await inject(t.app, getWorkflow, { as: admin, params: { workflowId: workflow.workflowId } });
    expect(readWorkflow.data.steps.map((step) => [step.type, step.recipients])).toEqual([
      ['REVIEW', [{ type: 'user', email: manager.user.email.toLowerCase() }]],
      ['SIGN', [{ type: 'placeholder', label: 'Client' }, { type: 'user', email: 'client@elsewhere.test' }]],
    ]);

    const template = await uploadedDocumentTemplate(t, { owner: admin, file: 'form-libreoffice.pdf', workflowId: workflow.workflowId });
    const templates = await inject(t.app, listDocumentTemplates, { as: admin });
    expect(templates.data.templates.map((one) => one.docTemplateId)).toContain(template.docTemplateId);

    const letterhead = await uploadedLetterhead(t, { owner: admin });
    expect(letterhead).toMatchObject({ contentType: 'image/png', width: 600, height: 120 });
    const letterheads = await inject(t.app, listLetterheadTemplates, { as: admin });
    expect(letterheads.data.letterheads.map((one) => one.letterHeadDocId)).toEqual([letterhead.letterHeadDocId]);

    // The tenant's rubber stamps are off by default: the factory turns them on first.
    const stamp = await createdRubberStamp(t, { owner: signer, name: 'Received' });
    const stamps = await inject(t.app, listRubberStamps, { as: signer });
    expect(stamps.data.stamps.map((one) => [one.rubberStampId, one.name, one.owned])).toEqual([[stamp.rubberStampId, 'Received', true]]);

    const group = await createdGroup(t, { admin, members: [signer], manager });
    const readGroup = await inject(t.app, getGroup, { as: admin, params: { id: group.groupId } });
    expect(readGroup.data.users.map((user) => [user.userId, user.manager]).sort()).toEqual([[manager.user.id, true], [signer.user.id, false]].sort());

    const announcement = await createdAnnouncement(t, { admin, text: 'Office closed on Friday' });
    const shown = await inject(t.app, currentAnnouncements, { as: signer });
    expect(shown.data.items.map((item) => [item.id, item.text])).toContainEqual([announcement.id, 'Office closed on Friday']);
  });

  it('build the owner they are not given, and keep entities in their own tenant', async () => {
    const stamp = await createdRubberStamp(t);
    const group = await createdGroup(t);
    expect(stamp.owner.tenant.id).not.toBe(group.admin.tenant.id);
    const outsider = await inject(t.app, getGroup, { as: stamp.owner, params: { id: group.groupId } });
    expect(outsider.statusCode).not.toBe(200);
  });
});
