import fs from 'node:fs';
import path from 'node:path';
import { DocumentSummary, EpakDetail, type WorkflowStateDefinition } from '@pakt/domain';
import { GOOD_PASSWORD, makeMember } from './factories';
import { multipart } from './multipart';
import { bearer, signIn } from './sign-in';
import type { TestApp } from './test-app';
import { CORPUS } from './corpus';
import { signatureFieldsFor, signatureValues } from './app-factories';

/**
 * An ePak whose EMAIL step sits between two signers, built through the API as a sender would:
 * SIGN (first) → EMAIL (a member of the tenant and an outsider) → SIGN (second), over two
 * documents. Shared by the notify and the mail-delivery tests.
 */

type Headers = Record<string, string>;

export async function startEpakWithEmailStep(t: TestApp, options: { files?: readonly string[] } = {}) {
  const member = async (role: 'custodian' | 'signer', tenant?: { id: string }) => {
    const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
    const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
    return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } as Headers };
  };
  const inject = async (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as unknown;
  };

  const owner = await member('custodian');
  const first = await member('signer', owner.tenant);
  const records = await member('signer', owner.tenant);
  const second = await member('signer', owner.tenant);
  const outsider = 'auditor@elsewhere.test';
  const documentIds: string[] = [];
  for (const file of options.files ?? ['plain-1p-pdftex.pdf', 'incremental-pdf20.pdf']) {
    const upload = multipart(fs.readFileSync(path.join(CORPUS, file)), file);
    const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/documents', headers: { ...owner.headers, ...upload.headers }, payload: upload.payload });
    documentIds.push(DocumentSummary.parse(res.json().data).documentId);
  }
  const states = ((await inject('GET', '/msbapi/v1/workflow/states', owner.headers)) as { states: WorkflowStateDefinition[] }).states;
  const state = (type: string) => states.find((s) => s.type === type)!.workflowStateId;
  const epak = EpakDetail.parse(
    await inject('POST', '/msbapi/v2/epak', owner.headers, {
      subject: 'Supply agreement',
      documentIds,
      steps: [
        { workflowStateId: state('SIGN'), recipients: [{ email: first.user.email }] },
        { workflowStateId: state('EMAIL'), recipients: [{ email: records.user.email }, { email: outsider }] },
        { workflowStateId: state('SIGN'), recipients: [{ email: second.user.email }] },
      ],
    }),
  );
  // Each signer's signature field (and reason), which the server asks for before it sends (-62).
  const placed = signatureFieldsFor(epak);
  for (const { documentId, tags } of placed) await inject('POST', `/msbapi/v2/epaks/${epak.ePakId}/documents/${documentId}/signatureblocks`, owner.headers, { tags });
  await inject('POST', `/msbapi/v2/epaks/${epak.ePakId}/start`, owner.headers);

  /** Signs every document of the ePak as `who`: their signature field where they have one, else the seal alone. */
  const signAll = async (who: { headers: Headers; user: { email: string } }) => {
    for (const doc of epak.documents) {
      const values = signatureValues(placed, doc.documentId, who.user.email);
      await inject('POST', `/msbapi/v2/epaks/${epak.ePakId}/documents/${doc.documentId}/sign`, who.headers, { values });
    }
  };
  return { owner, first, records, second, outsider, epak, signAll };
}
