import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createEpak,
  createRubberStamp,
  createSignatureBlocks,
  downloadCeremonyRubberStampImage,
  downloadEpakDocument,
  type EndpointInput,
  EpakDetail,
  getEpak,
  listWorkflowStates,
  newTag,
  RUBBER_STAMP_SUB_TYPE,
  shareRubberStamp,
  signEpakDocument,
  startEpak,
  type Tag,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epakActivities, epakDocumentRevisions, epakDocuments, groupMembers, groups, memberships, tenantSettings } from '../../platform/db/schema';
import { run } from '../../test/signing-support';
import { GOOD_PASSWORD, makeMember } from '../../test/factories';
import { inject } from '../../test/inject';
import { bearer, signIn } from '../../test/sign-in';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { uploadedDocument } from '../../test/app-factories';

/**
 * Applying a rubber stamp when signing (issue 8, spec §5 and §6), on a real corpus PDF. Members A
 * and B are both in group G, with which the owner shared a stamp; A has the passcode flag, B has
 * not. A stamps over their own signature (allowed, §5) and into the custodian's rubber-stamp tag;
 * the signed PDF verifies (pdfsig) and passes qpdf --check, and its page shows the stamp. B is
 * offered no stamps and, forcing one through the API, is refused (-11) with nothing signed.
 */
let t: TestApp;
type Headers = Record<string, string>;

const RED = [220, 20, 30] as const;

/** A solid red square: easy to find again on the rendered page. */
function redStamp(size = 100): Buffer {
  const image = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) image.data.set([...RED, 255], i * 4);
  return PNG.sync.write(image);
}

function drawnSignature(): string {
  const png = new PNG({ width: 60, height: 20 });
  for (let x = 5; x < 55; x++) png.data.set([20, 30, 120, 255], (10 * 60 + x) * 4);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

async function member(role: 'admin' | 'custodian' | 'signer', tenant?: { id: string }) {
  const made = await makeMember(t.database.db, { role, ...(tenant ? { tenant } : {}) });
  const grant = await signIn(t.app, made.user.email, GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } as Headers };
}

const SIG_A = '00000000-0000-4000-8000-00000000000a';
const SIG_B = '00000000-0000-4000-8000-00000000000b';
const STAMP_TAG_A = '00000000-0000-4000-8000-0000000000a5';

let owner: Awaited<ReturnType<typeof member>>;
let A: Awaited<ReturnType<typeof member>>;
let B: Awaited<ReturnType<typeof member>>;
let epakId: string;
let documentId: string;
let stampId: string;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await member('custodian');
  A = await member('signer', owner.tenant);
  B = await member('signer', owner.tenant);
  const db = t.database.db;
  await db.insert(tenantSettings).values({ tenantId: owner.tenant.id, settings: { rubberStampEnabled: true } });
  await db.update(memberships).set({ passcodeFlag: true }).where(eq(memberships.userId, A.user.id));
  const [group] = await db.insert(groups).values({ tenantId: owner.tenant.id, name: 'G' }).returning();
  await db.insert(groupMembers).values([
    { groupId: group!.id, tenantId: owner.tenant.id, userId: A.user.id },
    { groupId: group!.id, tenantId: owner.tenant.id, userId: B.user.id },
  ]);

  // The owner's stamp, shared with G.
  const made = await inject(t.app, createRubberStamp, { as: owner, body: {}, file: { bytes: redStamp(), name: 'seal.png' } });
  expect(made.statusCode, made.body).toBe(200);
  stampId = made.data.rubberStampId;
  expect((await inject(t.app, shareRubberStamp, { body: { rubberStampId: stampId, groupIds: [group!.id] }, as: owner })).statusCode).toBe(200);

  // An ePak on a corpus file: A and B sign in one step; the custodian placed a stamp tag for A.
  const file = 'incremental-pdf20.pdf';
  const uploaded = await uploadedDocument(t, { owner, file });
  const states = (await inject(t.app, listWorkflowStates, { as: owner })).data.states;
  const sign = states.find((s) => s.type === 'SIGN')!.workflowStateId;
  const composed = await inject(t.app, createEpak, {
    body: {
      subject: 'Stamped deed',
      documentIds: [uploaded.documentId],
      viewEnforced: false,
      steps: [{ workflowStateId: sign, recipients: [{ email: A.user.email }, { email: B.user.email }] }],
    },
    as: owner,
  });
  expect(composed.statusCode, composed.body).toBe(200);
  const epak = EpakDetail.parse(composed.data);
  epakId = epak.ePakId;
  documentId = epak.documents[0]!.documentId;
  const tag = (init: Parameters<typeof newTag>[0]) => newTag(init, { rotate: epak.documents[0]!.pages[0]!.rotate });
  const tags: Tag[] = [
    tag({ uuid: SIG_A, type: 'signature', pageNumber: 1, positionX: 40, positionY: 60, userEmail: A.user.email }),
    tag({ uuid: SIG_B, type: 'signature', pageNumber: 1, positionX: 330, positionY: 60, userEmail: B.user.email }),
    // ESIGNATURE wants a reason tag beside each signature (-49).
    tag({ uuid: '00000000-0000-4000-8000-0000000000a1', type: 'reason', pageNumber: 1, positionX: 40, positionY: 160, userEmail: A.user.email }),
    tag({ uuid: '00000000-0000-4000-8000-0000000000b1', type: 'reason', pageNumber: 1, positionX: 330, positionY: 160, userEmail: B.user.email }),
    tag({ uuid: STAMP_TAG_A, type: 'image', subType: RUBBER_STAMP_SUB_TYPE, pageNumber: 1, positionX: 40, positionY: 240, blockWidth: 100, blockHeight: 100, userEmail: A.user.email }),
  ];
  const saved = await inject(t.app, createSignatureBlocks, { params: { ePakId: epakId, documentId }, body: { tags }, as: owner });
  expect(saved.statusCode, saved.body).toBe(200);
  const started = await inject(t.app, startEpak, { params: { ePakId: epakId }, as: owner });
  expect(started.statusCode, started.body).toBe(200);
});
afterAll(() => t.close());

const signAs = (who: { headers: Headers }, body: EndpointInput<typeof signEpakDocument>['body']) =>
  inject(t.app, signEpakDocument, { params: { ePakId: epakId, documentId }, body, as: who });
const revisions = () => t.database.db.select().from(epakDocumentRevisions).where(eq(epakDocumentRevisions.epakDocumentId, documentId));

describe('the stamp chooser', () => {
  it('is offered to A, who has the passcode flag, and not to B, who has not', async () => {
    const forA = (await inject(t.app, getEpak, { params: { ePakId: epakId }, as: A })).data.viewer!;
    expect(forA.rubberStamps).toEqual({ available: true, stamps: [{ rubberStampId: stampId, name: 'seal', width: 100, height: 100, owned: false }] });
    const forB = (await inject(t.app, getEpak, { params: { ePakId: epakId }, as: B })).data.viewer!;
    expect(forB.rubberStamps).toEqual({ available: false, stamps: [] });
    const image = { ePakId: epakId, rubberStampId: stampId };
    expect((await inject(t.app, downloadCeremonyRubberStampImage, { params: image, as: A })).statusCode).toBe(200);
    expect((await inject(t.app, downloadCeremonyRubberStampImage, { params: image, as: B })).statusCode).toBe(404);
  });
});

describe('signing with a stamp', () => {
  it('refuses B forcing a stamp through the API (-11), signing nothing', async () => {
    const res = await signAs(B, {
      values: [{ uuid: SIG_B, value: drawnSignature() }],
      rubberStamps: [{ rubberStampId: stampId, placement: { pageNumber: 1, positionX: 340, positionY: 50 } }],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: -11, issues: [{ path: 'rubberStamps.0', message: 'rubberStampNotAllowed' }] });
    expect(await revisions()).toEqual([]);
  });

  it('refuses what no stamp may do: a stamp over a stamp, an upload into a stamp tag, an unknown stamp', async () => {
    const overStamp = await signAs(A, {
      values: [{ uuid: SIG_A, value: drawnSignature() }],
      rubberStamps: [
        { rubberStampId: stampId, tagUuid: STAMP_TAG_A },
        { rubberStampId: stampId, placement: { pageNumber: 1, positionX: 60, positionY: 260 } },
      ],
    });
    // Both stamps are named: each covers the other.
    expect(overStamp.json()).toMatchObject({
      code: -6,
      issues: [
        { path: 'rubberStamps.0', message: 'tagOverlappingError' },
        { path: 'rubberStamps.1', message: 'tagOverlappingError' },
      ],
    });
    const uploaded = await signAs(A, { values: [{ uuid: SIG_A, value: drawnSignature() }, { uuid: STAMP_TAG_A, value: drawnSignature() }] });
    expect(uploaded.json()).toMatchObject({ code: -6, issues: [{ path: `values.${STAMP_TAG_A}` }] });
    const unknown = await signAs(A, {
      values: [{ uuid: SIG_A, value: drawnSignature() }],
      rubberStamps: [{ rubberStampId: '00000000-0000-4000-8000-000000000999', tagUuid: STAMP_TAG_A }],
    });
    expect(unknown.code).toBe(-11);
    const othersTag = await signAs(A, { values: [{ uuid: SIG_A, value: drawnSignature() }], rubberStamps: [{ rubberStampId: stampId, tagUuid: SIG_B }] });
    expect(othersTag.json()).toMatchObject({ code: -6, issues: [{ path: 'rubberStamps.0.tagUuid' }] });
    expect(await revisions()).toEqual([]);
  });

  it('lets A stamp over their own signature and into the stamp tag: one valid signature, and the page shows the stamp', async () => {
    // Over A's signature (40,60 – its default size): allowed, a stamp may cover a signature (§5).
    const res = await signAs(A, {
      values: [{ uuid: SIG_A, value: drawnSignature() }],
      rubberStamps: [
        { rubberStampId: stampId, placement: { pageNumber: 1, positionX: 60, positionY: 50, blockWidth: 90, blockHeight: 90 } },
        { rubberStampId: stampId, tagUuid: STAMP_TAG_A },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ documentStatus: 'Signed', revision: 1 });

    const [stored] = await t.database.db.select().from(epakDocuments).where(eq(epakDocuments.id, documentId));
    const stamps = (stored!.tags as Tag[]).filter((tag) => tag.subType === RUBBER_STAMP_SUB_TYPE);
    expect(stamps).toHaveLength(2);
    expect(stamps.every((tag) => tag.status === 'done' && typeof tag.value === 'string' && tag.value.startsWith('data:image/png;base64,'))).toBe(true);
    expect(stamps.find((tag) => tag.uuid !== STAMP_TAG_A)).toMatchObject({ userEmail: A.user.email, createType: 'signer', positionX: 60, positionY: 50, blockWidth: 90 });
    const [activity] = await t.database.db.select().from(epakActivities).where(eq(epakActivities.action, 'documentSigned'));
    expect((activity!.details as { rubberStamps: unknown[] }).rubberStamps).toEqual([
      { rubberStampId: stampId, name: 'seal' },
      { rubberStampId: stampId, name: 'seal' },
    ]);

    const download = await inject(t.app, downloadEpakDocument, { params: { ePakId: epakId, documentId }, as: owner });
    expect(download.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pakt-stamp-'));
    const file = path.join(dir, 'stamped.pdf');
    fs.writeFileSync(file, download.rawPayload);
    const sig = run('pdfsig', [file]);
    expect(sig.stdout).toContain('Signature #1');
    expect(sig.stdout).toContain('Signature Validation: Signature is Valid.');
    expect(sig.stdout).not.toContain('Signature #2');
    const qpdf = run('qpdf', ['--check', file]);
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);

    // 72 dpi: one pixel per point, y from the top as the tags count it.
    run('pdftoppm', ['-r', '72', '-png', '-singlefile', file, path.join(dir, 'page')]);
    const page = PNG.sync.read(fs.readFileSync(path.join(dir, 'page.png')));
    const pixel = (x: number, y: number) => [...page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3)];
    const isRed = (rgb: number[]) => rgb[0]! > 180 && rgb[1]! < 80 && rgb[2]! < 80;
    expect(isRed(pixel(105, 95)), 'the placed stamp, on top of the signature').toBe(true);
    expect(isRed(pixel(90, 290)), "the stamp in the custodian's tag").toBe(true);
    expect(isRed(pixel(450, 100)), "B's side has no stamp").toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
