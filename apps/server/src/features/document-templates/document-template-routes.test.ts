import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  composeFromDocumentTemplate,
  createDocumentTemplate,
  createEpak,
  createWorkflow,
  deleteDocumentTemplates,
  DocumentSummary,
  DocumentTemplate,
  type EndpointInput,
  EpakDetail,
  exportDocumentTemplate,
  getSignatureBlocks,
  listDocumentTemplates,
  listWorkflowStates,
  newTag,
  startEpak,
  type Tag,
  updateDocumentTemplate,
  updateSignatureBlocks,
  uploadDocument,
  uploadDocumentTemplate,
  type WorkflowStateType,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentTemplates, epakDocuments, epaks, workflows } from '../../platform/db/schema';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { CORPUS } from '../../test/corpus';
import { signedInMember } from '../../test/app-factories';

/**
 * Document templates (issue 8, spec §7): made from an ePak or an upload, shared in the tenant,
 * changed or deleted by their author or an admin, exported whole, and composed from in one step.
 * Anonymous callers, outsiders with a foreign tenant header and wrong roles are walked by
 * http/guarded-endpoints.test.ts; here, ids of another tenant used from one's own.
 */

let t: TestApp;
type Who = { headers: Record<string, string>; user: { id: string; email: string }; tenant: { id: string } };

const member = (role: 'admin' | 'custodian' | 'submitter', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

const pdf = (name: string) => fs.readFileSync(path.join(CORPUS, name));

async function uploadPdf(who: Who, name: string) {
  const res = await inject(t.app, uploadDocument, { as: who, file: { bytes: pdf(name), name } });
  expect(res.statusCode, res.body).toBe(200);
  return DocumentSummary.parse(res.data);
}

const uploadTemplate = (who: Who, name: string, fields: EndpointInput<typeof uploadDocumentTemplate>['body'] = {}) =>
  inject(t.app, uploadDocumentTemplate, { as: who, body: fields, file: { bytes: pdf(name), name, type: 'application/pdf' } });

async function stateOf(who: Who, type: WorkflowStateType) {
  const res = await inject(t.app, listWorkflowStates, { as: who });
  return res.data.states.find((state) => state.type === type)!.workflowStateId;
}

const tag = (uuid: string, type: Tag['type'], x: number, y: number, userEmail?: string) =>
  newTag({ uuid, type, pageNumber: 1, positionX: x, positionY: y, ...(userEmail ? { userEmail } : {}) });

const SIGNATURE = '00000000-0000-4000-8000-0000000000a1';
const REASON = '00000000-0000-4000-8000-0000000000a2';
const NOTE = '00000000-0000-4000-8000-0000000000a3';

/** A draft on a one-page A4 for one signer, with a signature, a reason and an unassigned note. */
async function composedDraft(owner: Who, signerEmail: string, workflowId?: string) {
  const document = await uploadPdf(owner, 'plain-1p-libreoffice.pdf');
  const body = {
    subject: 'Lease, flat 3',
    documentIds: [document.documentId],
    steps: [{ workflowStateId: await stateOf(owner, 'SIGN'), recipients: [{ email: signerEmail }] }],
    ...(workflowId ? { workflowId } : {}),
  };
  const res = await inject(t.app, createEpak, { body, as: owner });
  expect(res.statusCode, res.body).toBe(200);
  const epak = EpakDetail.parse(res.data);
  const tags = [tag(SIGNATURE, 'signature', 60, 600, signerEmail), tag(REASON, 'reason', 60, 660, signerEmail), tag(NOTE, 'text', 300, 100)];
  const saved = await inject(t.app, updateSignatureBlocks, { params: { ePakId: epak.ePakId, documentId: epak.documents[0]!.documentId }, body: { tags }, as: owner });
  expect(saved.statusCode, saved.body).toBe(200);
  return epak;
}

async function saveAsTemplate(owner: Who, ePakId: string, name: string) {
  const res = await inject(t.app, createDocumentTemplate, { body: { ePakId, name }, as: owner });
  expect(res.statusCode, res.body).toBe(200);
  return DocumentTemplate.parse(res.data);
}

const list = async (who: Who) => {
  const res = await inject(t.app, listDocumentTemplates, { as: who });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.templates.map((one) => DocumentTemplate.parse(one));
};
const update = (who: Who, id: string, body: EndpointInput<typeof updateDocumentTemplate>['body']) =>
  inject(t.app, updateDocumentTemplate, { params: { docTemplateId: id }, body, as: who });
const remove = (who: Who, ids: string[]) => inject(t.app, deleteDocumentTemplates, { body: { docTemplateIds: ids }, as: who });
const composeFrom = (who: Who, id: string, body: EndpointInput<typeof composeFromDocumentTemplate>['body']) =>
  inject(t.app, composeFromDocumentTemplate, { params: { docTemplateId: id }, body, as: who });

/** Every template, workflow and ePak row, to prove a refusal changed nothing. */
async function snapshot() {
  const all = async (table: string) => JSON.stringify((await t.database.executeSql(`select * from "${table}" order by id`, [])).rows);
  return [await all('document_templates'), await all('workflows'), await all('epaks'), await all('epak_documents')].join('\n');
}

let A: Who, Cus: Who, Cus2: Who, Other: Who;

beforeAll(async () => {
  t = await buildTestApp();
  A = await member('admin');
  Cus = await member('custodian', A.tenant);
  Cus2 = await member('submitter', A.tenant);
  Other = await member('custodian');
});
afterAll(() => t.close());

describe('saving an ePak as a template', () => {
  it('keeps its document and tags by place, and makes a workflow template of placeholders from hand-made steps', async () => {
    const epak = await composedDraft(Cus, 'asha@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Lease');
    expect(template).toMatchObject({ name: 'Lease', documentName: 'plain-1p-libreoffice.pdf', pageCount: 1, signingPolicy: 'ESIGNATURE', editable: true });
    const byUuid = new Map(template.tags.map((one) => [one.uuid, one]));
    expect([byUuid.get(SIGNATURE)?.userEmail, byUuid.get(SIGNATURE)?.wfsOrderId]).toEqual(['slot:1.1', 1]);
    expect(byUuid.get(REASON)?.userEmail).toBe('slot:1.1');
    expect(byUuid.get(NOTE)?.userEmail).toBeUndefined();
    expect(template.workflowName).toBe('Lease');
    expect(template.workflowSteps).toEqual([expect.objectContaining({ type: 'SIGN', recipients: [{ type: 'placeholder', label: 'Sign 1' }] })]);

    // Shared in the tenant: another composer sees it but may not change it; an admin may.
    expect((await list(Cus2)).find((one) => one.docTemplateId === template.docTemplateId)).toMatchObject({ editable: false, ownerId: Cus.user.id });
    expect((await list(A)).find((one) => one.docTemplateId === template.docTemplateId)?.editable).toBe(true);
    expect(await list(Other)).toEqual([]);

    // A name is the tenant's once, whatever its case.
    const again = await inject(t.app, createDocumentTemplate, { body: { ePakId: epak.ePakId, name: 'LEASE' }, as: Cus });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: -6, issues: [{ path: 'name', message: 'already used' }] });
  });

  it("links the ePak's own workflow template when the ePak still has its shape", async () => {
    const sign = await stateOf(Cus, 'SIGN');
    const made = await inject(t.app, createWorkflow, {
      body: { name: 'One signer', steps: [{ workflowStateId: sign, recipients: [{ type: 'placeholder', label: 'Tenant' }] }] },
      as: Cus,
    });
    expect(made.statusCode, made.body).toBe(200);
    const workflowId = made.data.workflowId;
    const epak = await composedDraft(Cus, 'ben@example.test', workflowId);
    const before = (await t.database.db.select().from(workflows)).length;
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Lease, one signer');
    expect(template).toMatchObject({ workflowId, workflowName: 'One signer' });
    expect((await t.database.db.select().from(workflows)).length).toBe(before);
  });

  it("answers 404 for someone else's ePak or another tenant's, and changes nothing", async () => {
    const epak = await composedDraft(Other, 'carl@example.test');
    const before = await snapshot();
    for (const who of [Cus, A]) {
      const res = await inject(t.app, createDocumentTemplate, { body: { ePakId: epak.ePakId, name: 'Stolen' }, as: who });
      expect(res.statusCode).toBe(404);
    }
    const own = await composedDraft(Cus, 'dana@example.test');
    const afterOwn = await snapshot();
    const wrongDoc = await inject(t.app, createDocumentTemplate, { body: { ePakId: own.ePakId, documentId: epak.documents[0]!.documentId, name: 'Wrong document' }, as: Cus });
    expect(wrongDoc.statusCode).toBe(404);
    expect(await snapshot()).toBe(afterOwn);
    expect(before).not.toBe(afterOwn);
  });
});

describe('composing from a template', () => {
  it('fills the document and tags for the recipients given, and records the template', async () => {
    const epak = await composedDraft(Cus, 'erin@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Deed');
    const steps = template.workflowSteps!.map((step) => ({ workflowStateId: step.workflowStateId, recipients: [{ email: 'Farah@Example.test' }] }));
    const res = await composeFrom(Cus2, template.docTemplateId, { subject: 'Deed for Farah', steps, workflowId: template.workflowId! });
    expect(res.statusCode, res.body).toBe(200);
    const composed = EpakDetail.parse(res.data);
    expect(composed.documents.map((doc) => [doc.name, doc.sourceDocumentId])).toEqual([['plain-1p-libreoffice.pdf', null]]);
    expect(composed.steps[0]!.recipients.map((r) => r.email)).toEqual(['farah@example.test']);
    const [row] = await t.database.db.select().from(epaks).where(eq(epaks.id, composed.ePakId));
    expect(row!.docTemplateId).toBe(template.docTemplateId);

    const tagsRes = await inject(t.app, getSignatureBlocks, { params: { ePakId: composed.ePakId, documentId: composed.documents[0]!.documentId }, as: Cus2 });
    const tags = tagsRes.data.tags;
    expect(tags.filter((one) => one.userEmail).map((one) => [one.uuid, one.userEmail, one.wfsOrderId])).toEqual([
      [SIGNATURE, 'farah@example.test', 1],
      [REASON, 'farah@example.test', 1],
    ]);

    // Tags and recipients agree, so it starts (no -107).
    const started = await inject(t.app, startEpak, { params: { ePakId: composed.ePakId }, as: Cus2 });
    expect(started.statusCode, started.body).toBe(200);
  });

  it('refuses steps without someone at every place a tag names, and the template document given again (-176)', async () => {
    const epak = await composedDraft(Cus, 'gita@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Deed two');
    const before = await snapshot();
    const review = await stateOf(Cus, 'REVIEW');
    const short = await composeFrom(Cus, template.docTemplateId, { subject: 'x', steps: [{ workflowStateId: review, recipients: [{ email: 'x@example.test' }] }, ] });
    // Step 1 exists (someone is at place 1.1), so this one goes through; a template for step 2 would not.
    expect(short.statusCode, short.body).toBe(200);
    const twoStep = await update(Cus, template.docTemplateId, { workflowId: null, tags: template.tags.map((one) => (one.userEmail ? { ...one, userEmail: 'slot:2.1', wfsOrderId: 2 } : one)) });
    expect(twoStep.statusCode, twoStep.body).toBe(200);
    const afterUpdate = await snapshot();
    const missing = await composeFrom(Cus, template.docTemplateId, { subject: 'x', steps: [{ workflowStateId: review, recipients: [{ email: 'x@example.test' }] }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: -6, issues: [{ path: 'steps' }] });
    const doc = await uploadPdf(Cus, 'plain-1p-libreoffice.pdf');
    const afterUpload = await snapshot();
    const twice = await composeFrom(Cus, template.docTemplateId, {
      subject: 'x',
      documentIds: [doc.documentId],
      steps: [1, 2].map(() => ({ workflowStateId: review, recipients: [{ email: 'x@example.test' }] })),
    });
    expect(twice.code).toBe(-176);
    expect(await snapshot()).toBe(afterUpload);
    expect(afterUpdate).not.toBe(before);
  });
});

describe('composing from a template onto one of one\'s own documents', () => {
  it('puts the template\'s tags on a document of the same pages, which the ePak records as its source', async () => {
    const epak = await composedDraft(Cus, 'hana@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Reprinted form');
    const reprint = await uploadPdf(Cus2, 'plain-1p-pdftex.pdf');
    const steps = template.workflowSteps!.map((step) => ({ workflowStateId: step.workflowStateId, recipients: [{ email: 'hana@example.test' }] }));
    const res = await composeFrom(Cus2, template.docTemplateId, { subject: 'Form, filled in', steps, documentId: reprint.documentId });
    expect(res.statusCode, res.body).toBe(200);
    const composed = EpakDetail.parse(res.data);
    expect(composed.documents.map((doc) => [doc.name, doc.sourceDocumentId])).toEqual([['plain-1p-pdftex.pdf', reprint.documentId]]);
    const [copy] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.epakId, composed.ePakId));
    expect(copy!.sha256).toBe(reprint.sha256);
    expect((copy!.tags as Tag[]).filter((one) => one.userEmail).map((one) => one.uuid)).toEqual([SIGNATURE, REASON]);
  });

  it('refuses a landscape page where the template\'s is portrait (-216), other pages (-189), and the document twice (-176), storing nothing', async () => {
    const epak = await composedDraft(Cus, 'ines@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Portrait form');
    const steps = template.workflowSteps!.map((step) => ({ workflowStateId: step.workflowStateId, recipients: [{ email: 'ines@example.test' }] }));
    const landscape = await uploadPdf(Cus2, 'landscape-letter-1p.pdf');
    const longer = await uploadPdf(Cus2, 'mixed-sizes-openoffice.pdf');
    const letter = await uploadPdf(Cus2, 'rotate-90-scan.pdf');
    const fits = await uploadPdf(Cus2, 'plain-1p-pdftex.pdf');
    const before = await snapshot();

    const turned = await composeFrom(Cus2, template.docTemplateId, { subject: 'x', steps, documentId: landscape.documentId });
    expect([turned.statusCode, turned.code], turned.body).toEqual([422, -216]);
    expect(turned.json().message).toContain('Page 1 of this document is landscape');
    for (const doc of [longer, letter]) {
      const res = await composeFrom(Cus2, template.docTemplateId, { subject: 'x', steps, documentId: doc.documentId });
      expect([res.statusCode, res.code], res.body).toEqual([422, -189]);
    }
    expect((await composeFrom(Cus2, template.docTemplateId, { subject: 'x', steps, documentId: longer.documentId })).json().data).toMatchObject({ pageCount: 1, documentPageCount: 3 });
    const twice = await composeFrom(Cus2, template.docTemplateId, { subject: 'x', steps, documentId: fits.documentId, documentIds: [fits.documentId] });
    expect([twice.statusCode, twice.code], twice.body).toEqual([409, -176]);
    // An ePak's own copy is not a document to compose with (-169); someone else's document is not found.
    const copy = await composeFrom(Cus, template.docTemplateId, { subject: 'x', steps, documentId: epak.documents[0]!.documentId });
    expect([copy.statusCode, copy.code], copy.body).toEqual([409, -169]);
    expect(copy.json().issues).toEqual([{ path: 'documentId', message: 'used in an ePak' }]);
    const theirs = await composeFrom(Cus, template.docTemplateId, { subject: 'x', steps, documentId: fits.documentId });
    expect(theirs.statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});

describe('uploading a template', () => {
  it("makes the PDF's text and signature fields its tags, named after the file unless named", async () => {
    const first = await uploadTemplate(Cus, 'form-libreoffice.pdf');
    expect(first.statusCode, first.body).toBe(200);
    const made = DocumentTemplate.parse(first.json().data);
    expect(made).toMatchObject({ name: 'form-libreoffice', documentName: 'form-libreoffice.pdf', workflowId: null, pageCount: 1 });
    expect(made.tags.length).toBeGreaterThan(0);
    expect(made.tags.every((one) => one.type === 'text' && one.createType === 'existing' && one.userEmail === undefined)).toBe(true);

    const second = DocumentTemplate.parse((await uploadTemplate(Cus, 'form-libreoffice.pdf')).json().data);
    expect(second.name).toBe('form-libreoffice (2)');

    const named = await uploadTemplate(Cus, 'form-empty-signature-field.pdf', { name: 'Signature page' });
    expect(named.statusCode, named.body).toBe(200);
    expect(DocumentTemplate.parse(named.json().data)).toMatchObject({ name: 'Signature page', tags: [expect.objectContaining({ type: 'signature' })] });
  });

  it('refuses what the document pipeline refuses, an unknown workflow and a taken name, storing nothing', async () => {
    const before = await snapshot();
    expect((await uploadTemplate(Cus, 'not-a-pdf-text.pdf')).json().code).toBe(-59);
    const unknown = await uploadTemplate(Cus, 'plain-1p-pdftex.pdf', { workflowId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json()).toMatchObject({ code: -6, issues: [{ path: 'workflowId' }] });
    const foreign = (await t.database.db.select().from(workflows)).find((row) => row.tenantId !== A.tenant.id);
    if (foreign) expect((await uploadTemplate(Cus, 'plain-1p-pdftex.pdf', { workflowId: foreign.id })).json().code).toBe(-6);
    expect((await uploadTemplate(Cus, 'plain-1p-pdftex.pdf', { name: 'lease' })).json().code).toBe(-6);
    expect(await snapshot()).toBe(before);
  });
});

describe('changing a template', () => {
  it('renames it and checks its tags against the linked workflow and the placement rules', async () => {
    const epak = await composedDraft(Cus, 'hari@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Will');
    const renamed = await update(Cus, template.docTemplateId, { name: 'Last will', description: 'Two witnesses' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Last will', description: 'Two witnesses' });

    const before = await snapshot();
    const stray = template.tags.map((one) => (one.uuid === SIGNATURE ? { ...one, userEmail: 'slot:1.2' } : one));
    const refused = await update(Cus, template.docTemplateId, { tags: stray });
    expect(refused.json()).toMatchObject({ code: -6, issues: [{ path: `tags.${SIGNATURE}.userEmail` }] });
    const offPage = template.tags.map((one) => (one.uuid === NOTE ? { ...one, positionX: 5000 } : one));
    expect((await update(Cus, template.docTemplateId, { tags: offPage })).code).toBe(-6);
    expect((await update(Cus, template.docTemplateId, { name: 'Lease' })).code).toBe(-6);
    // Another composer may use it but not change it (-11); an outsider does not find it.
    expect((await update(Cus2, template.docTemplateId, { name: 'Mine now' })).code).toBe(-11);
    expect((await update(Other, template.docTemplateId, { name: 'Mine now' })).statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
    expect((await update(A, template.docTemplateId, { name: 'Will (admin)' })).statusCode).toBe(200);
  });

  it('replaces the document only with one of the same pages (-216 for a landscape page, -189 for any other difference)', async () => {
    const epak = await composedDraft(Cus, 'ira@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Replaceable');
    const landscape = await uploadPdf(Cus, 'landscape-letter-1p.pdf');
    const longer = await uploadPdf(Cus, 'mixed-sizes-openoffice.pdf');
    // A landscape sheet turned by /Rotate: it shows portrait, but as Letter, not the template's A4.
    const letter = await uploadPdf(Cus, 'rotate-90-scan.pdf');
    const before = await snapshot();
    const turned = await update(Cus, template.docTemplateId, { documentId: landscape.documentId });
    expect([turned.statusCode, turned.code]).toEqual([422, -216]);
    expect(turned.json().data).toEqual({ landscapePages: [1] });
    for (const doc of [longer, letter]) {
      const res = await update(Cus, template.docTemplateId, { documentId: doc.documentId });
      expect(res.statusCode).toBe(422);
      expect(res.code).toBe(-189);
    }
    // Someone else's document is not found.
    const theirs = await uploadPdf(Cus2, 'plain-1p-pdftex.pdf');
    expect((await update(Cus, template.docTemplateId, { documentId: theirs.documentId })).statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
    const a4 = await uploadPdf(Cus, 'plain-1p-pdftex.pdf');
    const replaced = await update(Cus, template.docTemplateId, { documentId: a4.documentId });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.data).toMatchObject({ documentName: 'plain-1p-pdftex.pdf', size: a4.size });
    expect(replaced.data.tags).toHaveLength(3);
  });
});

describe('exporting and deleting', () => {
  it('exports the template, its workflow template and the PDF whole', async () => {
    const epak = await composedDraft(Cus, 'jo@example.test');
    const template = await saveAsTemplate(Cus, epak.ePakId, 'Exported');
    const exportOf = { docTemplateId: template.docTemplateId, workflowTemplateId: template.workflowId! };
    const res = await inject(t.app, exportDocumentTemplate, { params: exportOf, as: Cus2 });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toContain('Exported.template.json');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const file = JSON.parse(res.body);
    expect(file).toMatchObject({ format: 'pakt.documentTemplate', version: 1, template: { name: 'Exported' }, workflowTemplate: { workflowId: template.workflowId } });
    const bytes = Buffer.from(file.document.contentBase64, 'base64');
    expect(bytes.length).toBe(template.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.document.sha256);
    expect(bytes.equals(pdf('plain-1p-libreoffice.pdf'))).toBe(true);

    const foreign = await inject(t.app, exportDocumentTemplate, { params: exportOf, as: Other });
    expect(foreign.statusCode).toBe(404);
  });

  it('deletes all or none: its author or an admin, and nobody outside the tenant', async () => {
    const mine = DocumentTemplate.parse((await uploadTemplate(Cus, 'plain-1p-pdftex.pdf', { name: 'To delete' })).json().data);
    const theirs = DocumentTemplate.parse((await uploadTemplate(Cus2, 'plain-1p-pdftex.pdf', { name: 'Not mine' })).json().data);
    const outside = DocumentTemplate.parse((await uploadTemplate(Other, 'plain-1p-pdftex.pdf', { name: 'Elsewhere' })).json().data);
    const before = await snapshot();
    expect((await remove(Cus, [mine.docTemplateId, theirs.docTemplateId])).code).toBe(-11);
    expect((await remove(Cus, [mine.docTemplateId, outside.docTemplateId])).statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
    const done = await remove(Cus, [mine.docTemplateId]);
    expect(done.json()).toMatchObject({ data: { deleted: 1 } });
    expect((await remove(A, [theirs.docTemplateId])).data.deleted).toBe(1);
    const left = await t.database.db.select({ id: documentTemplates.id }).from(documentTemplates).where(eq(documentTemplates.tenantId, A.tenant.id));
    expect(left.map((row) => row.id)).not.toContain(mine.docTemplateId);
    expect(left.map((row) => row.id)).not.toContain(theirs.docTemplateId);
  });
});
