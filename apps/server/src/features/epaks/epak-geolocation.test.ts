import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createEpak,
  DocumentSummary,
  downloadEpakDocument,
  type EndpointInput,
  EpakDetail,
  exchangeEasyToken,
  type GeolocationType,
  getEpak,
  listWorkflowStates,
  signEpakDocument,
  startEpak,
  updateTenantSettings,
  uploadDocument,
} from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakDocumentRevisions, epakDocuments, epakRecipients, epaks, outbox } from '../../platform/db/schema';
import { run } from '../../test/signing-support';
import { inject } from '../../test/inject';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { corpusPdf } from '../../test/corpus';
import { placeSignatureFields, signatureValues, signedInMember } from '../../test/app-factories';

/**
 * The tenant's geolocation setting (spec §9: OFF, OPTIONAL, MANDATORY) in the signing ceremony:
 * every viewer of an ePak is told the setting in force, a signing-link session too, and with
 * MANDATORY a signature without a location is refused (-6) before anything is sealed or stored.
 */
let t: TestApp;
type Headers = Record<string, string>;
type Who = { headers: Headers; user: { id: string; email: string }; tenant: { id: string } };

const member = (role: 'super_admin' | 'custodian' | 'signer', tenant?: { id: string }) => signedInMember(t, { role, ...(tenant ? { tenant } : {}) });

let Super: Who, Owner: Who, Signer: Who;
beforeAll(async () => {
  t = await buildTestApp();
  Super = await member('super_admin');
  Owner = await member('custodian', Super.tenant);
  Signer = await member('signer', Super.tenant);
});
afterAll(() => t.close());

async function setGeolocation(value: GeolocationType | null) {
  const res = await inject(t.app, updateTenantSettings, { body: { settings: { geolocationType: value } }, as: Super });
  expect(res.statusCode, res.body).toBe(200);
}

let counter = 0;
/** A one-document ePak with one signing step for Signer and an outside signer, each with a signature field; started. */
async function started() {
  const uploaded = await inject(t.app, uploadDocument, { as: Owner, file: { bytes: corpusPdf('plain-1p-pdftex.pdf'), name: 'plain.pdf' } });
  const doc = DocumentSummary.parse(uploaded.data);
  const states = (await inject(t.app, listWorkflowStates, { as: Owner })).data.states;
  counter += 1;
  const external = `outside-${counter}@elsewhere.test`;
  const composed = await inject(t.app, createEpak, {
    body: {
      subject: `Site visit ${counter}`,
      documentIds: [doc.documentId],
      viewEnforced: false,
      steps: [{ workflowStateId: states.find((s) => s.type === 'SIGN')!.workflowStateId, recipients: [{ email: Signer.user.email }, { email: external }] }],
    },
    as: Owner,
  });
  expect(composed.statusCode, composed.body).toBe(200);
  const epak = EpakDetail.parse(composed.data);
  const placed = await placeSignatureFields(t, { owner: Owner, epak });
  const begun = await inject(t.app, startEpak, { params: { ePakId: epak.ePakId }, as: Owner });
  expect(begun.statusCode, begun.body).toBe(200);
  const documentId = epak.documents[0]!.documentId;
  return { ePakId: epak.ePakId, documentId, external, values: (email: string) => signatureValues(placed, documentId, email) };
}

const sign = (ePakId: string, documentId: string, headers: Headers, body: EndpointInput<typeof signEpakDocument>['body']) =>
  inject(t.app, signEpakDocument, { params: { ePakId, documentId }, body, headers });
const viewerOf = async (ePakId: string, headers: Headers) => EpakDetail.parse((await inject(t.app, getEpak, { params: { ePakId }, headers })).data).viewer!;

/** Every row a signature writes, for "nothing stored". */
async function rowsOf(ePakId: string): Promise<string> {
  const db = t.database.db;
  const documents = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, ePakId));
  const revisions = await db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, documents[0]!.id));
  return JSON.stringify([
    await db.select().from(epaks).where(eq(epaks.id, ePakId)),
    documents,
    revisions,
    await db.select().from(epakRecipients).where(eq(epakRecipients.epakId, ePakId)).orderBy(asc(epakRecipients.id)),
    await db.select().from(epakActivities).where(eq(epakActivities.epakId, ePakId)).orderBy(asc(epakActivities.seq)),
    await db.select().from(outbox).orderBy(asc(outbox.createdAt)),
  ]);
}

/** The signed file as the owner downloads it: pdfsig's report and the /Location strings of its signatures. */
async function signedFile(ePakId: string, documentId: string) {
  const download = await inject(t.app, downloadEpakDocument, { params: { ePakId, documentId }, as: Owner });
  expect(download.statusCode).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-geolocation-'));
  const file = path.join(dir, 'signed.pdf');
  fs.writeFileSync(file, download.rawPayload);
  const pdfsig = run('pdfsig', [file]).stdout;
  fs.rmSync(dir, { recursive: true, force: true });
  // The dictionary writes text strings in hex (sealing/seal.ts).
  const locations = [...download.rawPayload.toString('latin1').matchAll(/\/Location <([0-9A-Fa-f]*)>/g)].map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'));
  return { pdfsig, locations };
}

describe('geolocation MANDATORY', () => {
  it('refuses a signature without a location (-6 on location), storing nothing; with one it is in the signature', async () => {
    await setGeolocation('MANDATORY');
    const { ePakId, documentId, external, values } = await started();
    expect((await viewerOf(ePakId, Signer.headers)).geolocation).toBe('MANDATORY');
    expect((await viewerOf(ePakId, Owner.headers)).geolocation).toBe('MANDATORY');

    const before = await rowsOf(ePakId);
    for (const body of [{}, { location: '   ' }, { reason: 'Approved' }]) {
      const refused = await sign(ePakId, documentId, Signer.headers, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: -6, issues: [{ path: 'location', message: 'required' }] });
      expect(refused.json().message).toMatch(/where you are signing/);
    }
    expect(await rowsOf(ePakId)).toBe(before);

    // A signing-link session learns the setting from the ePak too, and is held to it.
    const link = /\/emailsign\?token=([A-Za-z0-9_-]+)/.exec((await t.database.db.select().from(outbox).where(eq(outbox.recipient, external)))[0]!.body)![1]!;
    const exchanged = await inject(t.app, exchangeEasyToken, { params: { easytoken: link } });
    const linkHeaders = { authorization: `Bearer ${exchanged.data.accessToken}` };
    expect((await viewerOf(ePakId, linkHeaders)).geolocation).toBe('MANDATORY');
    expect((await sign(ePakId, documentId, linkHeaders, {})).json()).toMatchObject({ code: -6, issues: [{ path: 'location' }] });
    expect(await rowsOf(ePakId)).toBe(before);

    const signed = await sign(ePakId, documentId, Signer.headers, { location: '  18.5204, 73.8567 ', values: values(Signer.user.email) });
    expect(signed.data, signed.body).toMatchObject({ documentStatus: 'Signed', revision: 1 });
    const linkSigned = await sign(ePakId, documentId, linkHeaders, { location: 'Pune, India', values: values(external), signerName: 'Outside Signer' });
    expect(linkSigned.data, linkSigned.body).toMatchObject({ revision: 2, epakStatus: 'Completed' });

    const { pdfsig, locations } = await signedFile(ePakId, documentId);
    expect((pdfsig.match(/Signature Validation: Signature is Valid\./g) ?? []).length, pdfsig).toBe(2);
    expect(locations).toEqual(['18.5204, 73.8567', 'Pune, India']);
  });
});

describe('geolocation OPTIONAL and OFF', () => {
  it('OPTIONAL signs without a location', async () => {
    await setGeolocation('OPTIONAL');
    const { ePakId, documentId, values } = await started();
    expect((await viewerOf(ePakId, Signer.headers)).geolocation).toBe('OPTIONAL');
    const signed = await sign(ePakId, documentId, Signer.headers, { values: values(Signer.user.email) });
    expect(signed.data, signed.body).toMatchObject({ documentStatus: 'Signed', revision: 1 });
    expect((await signedFile(ePakId, documentId)).locations).toEqual([]);
  });

  it('OFF (the default) signs without a location, and still takes one sent (a location field of the document)', async () => {
    await setGeolocation(null);
    const { ePakId, documentId, values } = await started();
    expect((await viewerOf(ePakId, Signer.headers)).geolocation).toBe('OFF');
    const signed = await sign(ePakId, documentId, Signer.headers, { location: 'Mumbai', values: values(Signer.user.email) });
    expect(signed.data, signed.body).toMatchObject({ documentStatus: 'Signed', revision: 1 });
    expect((await signedFile(ePakId, documentId)).locations).toEqual(['Mumbai']);
  });
});
