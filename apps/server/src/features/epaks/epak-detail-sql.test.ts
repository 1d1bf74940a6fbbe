import {
  DomainError,
  enforce,
  type DocumentSignatureState,
  type EpakDetail,
  type EpakResource,
  type EpakStatus,
  type EpakViewer,
  fullName,
  notFound,
  type PageGeometry,
  type SignerStatus,
  signerCountOf,
  type SigningPolicy,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import {
  epakDocumentRevisions,
  epakDocuments,
  epakRecipients,
  epakSteps,
  epaks,
  epakUserStates,
  groupMembers,
  groups,
  memberships,
  reasons,
  rubberStamps,
  rubberStampShares,
  tenantSettings,
  users,
} from '../../platform/db/schema';
import { makeMember, makeTenant, makeUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { loadTenantSettings } from '../identity';
import { listCeremonyReasons } from '../reasons';
import { ceremonyStamps } from '../rubber-stamps';
import { type EpakActor, type EpakRow, loadViewer, loadVisibleEpak } from './access';
import { loadEpakDetail } from './compose';
import { loadViewerVerification } from './recipient-verification';
import { revisionsByDocument } from './revisions';
import { nameRequiredFor, recordedName } from './signer-name';

/*
 * The ePak detail in one statement (epak-detail-sql.ts) answers exactly what the fourteen separate
 * queries answered. The reference below is that implementation as it was (compose.ts loadEpakDetail,
 * access.ts loadVisibleEpak and loadViewer before issue 23), kept here only to be compared with.
 */

async function referenceVisibleEpak(db: Db, actor: EpakActor, epakId: string): Promise<EpakRow> {
  const [epak] = await db.select().from(epaks).where(and(eq(epaks.id, epakId), eq(epaks.tenantId, actor.tenantId)));
  if (!epak) throw notFound('No such ePak.');
  const isOwner = epak.ownerId === actor.userId;
  const [mine] = !isOwner
    ? await db
        .select({ id: epakRecipients.id })
        .from(epakRecipients)
        .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)))
        .limit(1)
    : [];
  const resource: EpakResource = { tenantId: epak.tenantId, ownerId: epak.ownerId, status: epak.status, actorIsRecipient: mine !== undefined };
  enforce(actor, 'epak.view', resource);
  return epak;
}

async function referenceViewer(db: Db, actor: EpakActor, epak: EpakRow, options: { smsAvailable?: boolean }): Promise<EpakViewer> {
  const mine = await db
    .select({ id: epakRecipients.id, status: epakRecipients.status, order: epakSteps.position, type: epakSteps.type, signedName: epakRecipients.signedName })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, actor.userId)));
  const current = mine.find((r) => r.order === epak.currentStep) ?? [...mine].sort((a, b) => b.order - a.order)[0];
  const [state] = await db
    .select()
    .from(epakUserStates)
    .where(and(eq(epakUserStates.epakId, epak.id), eq(epakUserStates.userId, actor.userId)));
  const documentIds = (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epak.id))).map((d) => d.id);
  const viewed = ((state?.viewedDocumentIds as string[] | undefined) ?? []).filter((id) => documentIds.includes(id));
  const isRead = Boolean(state?.readAt) || (documentIds.length > 0 && documentIds.every((id) => viewed.includes(id)));
  const signed = current
    ? (
        await db
          .select({ documentId: epakDocumentRevisions.epakDocumentId })
          .from(epakDocumentRevisions)
          .where(and(eq(epakDocumentRevisions.recipientId, current.id), inArray(epakDocumentRevisions.epakDocumentId, documentIds.length ? documentIds : ['00000000-0000-0000-0000-000000000000'])))
      ).map((r) => r.documentId)
    : [];
  const canAct =
    epak.status === 'InProgress' &&
    !epak.deletedAt &&
    !epak.archivedAt &&
    current !== undefined &&
    current.order === epak.currentStep &&
    (current.status === 'Pending' || current.status === 'DelegatePending');
  const { geolocationType } = await loadTenantSettings(db, epak.tenantId);
  const [me] = await db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type }).from(users).where(eq(users.id, actor.userId));
  const signedName = current?.signedName ?? null;
  return {
    isOwner: epak.ownerId === actor.userId,
    recipientId: current?.id ?? null,
    stepOrder: current?.order ?? null,
    stepType: (current?.type as WorkflowStateType | undefined) ?? null,
    status: (current?.status as SignerStatus | undefined) ?? null,
    canAct,
    isRead,
    eligibleForAction: !epak.viewEnforced || isRead,
    viewedDocumentIds: viewed,
    signedDocumentIds: signed,
    starred: state?.starred ?? false,
    geolocation: geolocationType ?? 'OFF',
    reasons: await listCeremonyReasons(db, epak.tenantId),
    rubberStamps: canAct ? await ceremonyStamps({ db, tenantId: epak.tenantId, userId: actor.userId }) : { available: false, stamps: [] },
    verification: await loadViewerVerification(db, current?.id ?? null, { smsAvailable: options.smsAvailable ?? false }),
    signerName: signedName ?? (me ? recordedName(me) : null),
    nameRequired: canAct && me !== undefined && nameRequiredFor(me, signedName),
  };
}

async function referenceDetail(db: Db, actor: EpakActor, epakId: string, options: { smsAvailable?: boolean } = {}): Promise<EpakDetail> {
  const epak = await referenceVisibleEpak(db, actor, epakId);
  const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(asc(epakDocuments.position));
  const steps = await db.select().from(epakSteps).where(eq(epakSteps.epakId, epak.id)).orderBy(asc(epakSteps.position));
  const recipients = await db
    .select({ recipient: epakRecipients, user: users })
    .from(epakRecipients)
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(eq(epakRecipients.epakId, epak.id))
    .orderBy(asc(epakRecipients.position));
  const revisionCounts = await revisionsByDocument(
    db,
    docs.map((doc) => doc.id),
  );
  const [owner] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, epak.ownerId));
  const presentedSteps = steps.map((step) => ({
    order: step.position,
    workflowStateId: step.workflowStateId,
    name: step.name,
    type: step.type as WorkflowStateType,
    recipients: recipients
      .filter(({ recipient }) => recipient.stepId === step.id)
      .map(({ recipient, user }) => ({
        recipientId: recipient.id,
        userId: user.id,
        email: user.email,
        firstName: recipient.signedName ?? user.firstName,
        lastName: recipient.signedName ? '' : user.lastName,
        type: user.type,
        status: recipient.status as SignerStatus,
        verificationRequired: recipient.verificationRequired,
      })),
  }));
  return {
    ePakId: epak.id,
    subject: epak.subject,
    message: epak.message,
    status: epak.status as EpakStatus,
    signingPolicy: epak.signingPolicy as SigningPolicy,
    workflowId: epak.workflowId,
    documents: docs.map((doc) => ({
      documentId: doc.id,
      sourceDocumentId: doc.sourceDocumentId,
      name: doc.name,
      pageCount: doc.pageCount,
      pages: doc.pages as PageGeometry[],
      revisions: revisionCounts.get(doc.id)?.length ?? 0,
      signatureState: (doc.signatureState as DocumentSignatureState | null) ?? null,
    })),
    steps: presentedSteps,
    currentStep: epak.currentStep,
    signerCount: signerCountOf(presentedSteps),
    expiresOn: epak.expiresAt?.toISOString() ?? null,
    notificationStartDate: epak.notificationStartAt?.toISOString() ?? null,
    viewEnforced: epak.viewEnforced,
    ownerId: epak.ownerId,
    ownerName: owner ? fullName(owner) : '',
    createdOn: epak.createdAt.toISOString(),
    modifiedOn: epak.updatedAt.toISOString(),
    viewer: await referenceViewer(db, actor, epak, options),
  };
}

// ---------------------------------------------------------------------------------------------

let database: TestDatabase;
let db: Db;

type Person = { id: string; email: string };
const people = {} as Record<'owner' | 'reviewer' | 'signer' | 'outsider' | 'delegate' | 'external' | 'stranger', Person>;
let tenantId: string;
let otherTenantId: string;
const documentPosition = new Map<string, number>();
const made: Record<string, string> = {};

const PAGES: PageGeometry[] = [
  { width: 595.276, height: 841.89, x: 0, y: 0, rotate: 0 },
  { width: 612, height: 792, x: 10.5, y: -3, rotate: 90 },
];
const SIGNATURE_STATE = { status: 'intact', signatures: [] };
const SHA = (n: number) => n.toString(16).padStart(64, '0');

interface PlaceSpec {
  who: Person;
  status: string;
  signedName?: string;
  verification?: 'required' | 'outstanding' | 'locked' | 'verified';
  signs?: number[];
}

/** An ePak of `tenant` with two documents and the given steps (REVIEW then SIGN, or as told). */
async function makeEpak(options: {
  tenant?: string;
  owner?: Person;
  status: EpakStatus;
  currentStep?: number | null;
  steps: PlaceSpec[][];
  deleted?: boolean;
  archived?: boolean;
  viewEnforced?: boolean;
  expires?: boolean;
  documents?: number;
}): Promise<string> {
  const [epak] = await db
    .insert(epaks)
    .values({
      tenantId: options.tenant ?? tenantId,
      ownerId: (options.owner ?? people.owner).id,
      subject: `Lease — ${options.status}`,
      message: options.status === 'Draft' ? null : 'Please sign.',
      status: options.status,
      signingPolicy: 'ESIGNATURE',
      workflowId: options.status === 'Completed' ? '7d4f7a5e-3c1b-4c55-9a0d-8f6f2b7f0c11' : null,
      currentStep: options.currentStep ?? null,
      viewEnforced: options.viewEnforced ?? false,
      ...(options.expires ? { expiresAt: sql`now() + interval '20 days 3 hours 0.123456 seconds'`, notificationStartAt: sql`now() - interval '1 day 0.000999 seconds'` } : {}),
      ...(options.status === 'Draft' ? {} : { startedAt: sql`now() - interval '2 days'` }),
      ...(options.deleted ? { deletedAt: sql`now()`, deletedBy: (options.owner ?? people.owner).id } : {}),
      ...(options.archived ? { archivedAt: sql`now()`, archivalPeriodDays: 30 } : {}),
    })
    .returning();
  const docIds: string[] = [];
  for (let position = 1; position <= (options.documents ?? 2); position++) {
    const [doc] = await db
      .insert(epakDocuments)
      .values({
        epakId: epak!.id,
        position,
        name: `Part ${position}.pdf`,
        sha256: SHA(position),
        size: 1000 * position,
        pageCount: position === 1 ? 1 : 2,
        pages: position === 1 ? [PAGES[0]] : PAGES,
        signatureState: position === 2 ? SIGNATURE_STATE : null,
      })
      .returning();
    docIds.push(doc!.id);
    documentPosition.set(doc!.id, position);
  }
  let seq = 0;
  for (const [index, places] of options.steps.entries()) {
    const [step] = await db
      .insert(epakSteps)
      .values({ epakId: epak!.id, position: index + 1, workflowStateId: `00000000-0000-4000-8000-00000000000${index + 1}`, name: index === 0 && options.steps.length > 1 ? 'Review' : 'Sign', type: index === 0 && options.steps.length > 1 ? 'REVIEW' : 'SIGN' })
      .returning();
    // Inserted last to first, so the places' order comes from their positions, not from the table.
    for (const [at, place] of [...places.entries()].reverse()) {
      const verification =
        place.verification === 'outstanding'
          ? {
              verificationCodeHash: 'c'.repeat(64),
              verificationCodeSentAt: sql`now() - interval '10.123456 seconds'`,
              verificationCodeExpiresAt: sql`now() + interval '9 minutes 0.5 seconds'`,
              verificationAttempts: 2,
            }
          : place.verification === 'locked'
            ? { verificationFailures: 10, verificationLockedUntil: sql`now() + interval '14 minutes 0.777777 seconds'`, verificationCodeSentAt: sql`now() - interval '2 minutes'` }
            : place.verification === 'verified'
              ? { verifiedAt: sql`now() - interval '1 hour 0.000456 seconds'` }
              : {};
      const [recipient] = await db
        .insert(epakRecipients)
        .values({
          epakId: epak!.id,
          stepId: step!.id,
          userId: place.who.id,
          position: at + 1,
          status: place.status,
          signedName: place.signedName ?? null,
          verificationRequired: place.verification !== undefined,
          ...verification,
        })
        .returning();
      for (const n of place.signs ?? []) {
        await db.insert(epakDocumentRevisions).values({
          epakDocumentId: docIds[n]!,
          seq: ++seq,
          recipientId: recipient!.id,
          predecessorSha256: SHA(100 + seq),
          sha256: SHA(200 + seq),
          size: 2000 + seq,
          tailSha256: SHA(300 + seq),
          tailSize: 100,
        });
      }
    }
  }
  return epak!.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const tenant = await makeTenant(db);
  tenantId = tenant.id;
  otherTenantId = (await makeTenant(db)).id;
  const member = async (role: 'custodian' | 'signer', user: Parameters<typeof makeUser>[1] = {}) => (await makeMember(db, { role, tenant, user })).user;
  people.owner = await member('custodian', { firstName: 'Olivia', lastName: 'Owner' });
  people.reviewer = await member('signer', { firstName: 'Ravi', lastName: 'Iyer' });
  people.signer = await member('signer', { firstName: 'Sanjay', lastName: 'Signer', phone: '+91 98765 43210' });
  people.outsider = await member('signer');
  people.delegate = await member('signer', { firstName: 'Dee', lastName: 'Legate' });
  people.external = await makeUser(db, { email: 'new.person@elsewhere.test', firstName: 'new.person', lastName: '', type: 'external', status: 'admininvited', password: null });
  people.stranger = (await makeMember(db, { role: 'custodian', tenant: { id: otherTenantId } })).user;

  await db.insert(tenantSettings).values({ tenantId, settings: { geolocationType: 'MANDATORY', rubberStampEnabled: true } });
  await db.update(memberships).set({ passcodeFlag: true }).where(and(eq(memberships.tenantId, tenantId), inArray(memberships.userId, [people.signer.id, people.owner.id])));
  // The tenant's reasons as a tenant changes them: one switched off, another made the default.
  const tenantReasons = await db.select().from(reasons).where(eq(reasons.tenantId, tenantId)).orderBy(asc(reasons.position));
  await db.update(reasons).set({ enabled: false }).where(eq(reasons.id, tenantReasons[1]!.id));
  await db.update(reasons).set({ isDefault: false }).where(eq(reasons.tenantId, tenantId));
  await db.update(reasons).set({ isDefault: true }).where(eq(reasons.id, tenantReasons[2]!.id));

  // Stamps: the signer's own, one the owner shares with them, one shared with their group, one they may not use.
  const stamp = async (owner: Person, name: string) =>
    (await db.insert(rubberStamps).values({ tenantId, ownerId: owner.id, name, contentType: 'image/png', sha256: SHA(name.length), size: 500, width: 120, height: 80 }).returning())[0]!;
  await stamp(people.signer, 'Zeta seal');
  const shared = await stamp(people.owner, 'Approved');
  const grouped = await stamp(people.reviewer, 'Received');
  await stamp(people.reviewer, 'Private');
  const [group] = await db.insert(groups).values({ tenantId, name: 'Signers' }).returning();
  await db.insert(groupMembers).values({ groupId: group!.id, tenantId, userId: people.signer.id });
  await db.insert(rubberStampShares).values([
    { stampId: shared.id, tenantId, userId: people.signer.id },
    { stampId: grouped.id, tenantId, groupId: group!.id },
  ]);

  const { owner, reviewer, signer, delegate, external } = people;
  made.draft = await makeEpak({ status: 'Draft', steps: [[{ who: reviewer, status: 'Pending' }], [{ who: signer, status: 'Pending' }]] });
  made.reviewing = await makeEpak({
    status: 'InProgress',
    currentStep: 1,
    expires: true,
    steps: [[{ who: reviewer, status: 'Pending' }], [{ who: signer, status: 'Pending', verification: 'required' }, { who: external, status: 'Pending' }]],
  });
  made.signing = await makeEpak({
    status: 'InProgress',
    currentStep: 2,
    viewEnforced: true,
    documents: 3,
    steps: [
      [{ who: reviewer, status: 'Reviewed' }],
      [
        { who: signer, status: 'Pending', verification: 'outstanding', signs: [0, 2] },
        { who: external, status: 'Pending' },
      ],
    ],
  });
  made.delegated = await makeEpak({
    status: 'InProgress',
    currentStep: 2,
    steps: [[{ who: reviewer, status: 'Reviewed' }], [{ who: signer, status: 'Delegated', verification: 'verified' }, { who: delegate, status: 'DelegatePending', verification: 'locked' }]],
  });
  made.completed = await makeEpak({
    status: 'Completed',
    steps: [[{ who: reviewer, status: 'Reviewed' }], [{ who: signer, status: 'Signed', signs: [0, 1] }, { who: external, status: 'Signed', signedName: 'Nisha Person', signs: [0, 1] }]],
  });
  made.ownerSigns = await makeEpak({ status: 'InProgress', currentStep: 1, steps: [[{ who: owner, status: 'Pending', signs: [1] }, { who: signer, status: 'Pending' }]] });
  made.deleted = await makeEpak({ status: 'InProgress', currentStep: 2, deleted: true, steps: [[{ who: reviewer, status: 'Reviewed' }], [{ who: signer, status: 'Pending' }]] });
  made.archived = await makeEpak({ status: 'Completed', archived: true, expires: true, steps: [[{ who: signer, status: 'Signed', signs: [0] }]] });
  made.rejected = await makeEpak({ status: 'Rejected', steps: [[{ who: reviewer, status: 'Rejected' }], [{ who: signer, status: 'NotRequired' }]] });
  made.noDocuments = await makeEpak({ status: 'InProgress', currentStep: 1, documents: 0, steps: [[{ who: external, status: 'Pending', signedName: 'Typed Before' }]] });
  made.otherTenant = await makeEpak({ tenant: otherTenantId, owner: people.stranger, status: 'InProgress', currentStep: 1, steps: [[{ who: signer, status: 'Pending' }]] });

  // Read and star states: read by opening every document, by read_at, partly, and ids that are not the ePak's.
  const docsOf = async (epakId: string) => (await db.select({ id: epakDocuments.id }).from(epakDocuments).where(eq(epakDocuments.epakId, epakId)).orderBy(asc(epakDocuments.position))).map((d) => d.id);
  const signingDocs = await docsOf(made.signing);
  const completedDocs = await docsOf(made.completed);
  await db.insert(epakUserStates).values([
    { epakId: made.signing, userId: signer.id, starred: true, viewedDocumentIds: [signingDocs[2]!, '00000000-0000-4000-8000-0000000000ff', signingDocs[0]!] },
    { epakId: made.signing, userId: external.id, viewedDocumentIds: [...signingDocs].reverse() },
    { epakId: made.completed, userId: owner.id, starred: true, readAt: sql`now()` },
    { epakId: made.completed, userId: signer.id, viewedDocumentIds: completedDocs },
    { epakId: made.reviewing, userId: reviewer.id, starred: false, viewedDocumentIds: [] },
  ]);
});
afterAll(() => database.close());

/** What loading answers: the detail, or the error's code and status. */
async function outcome(load: () => Promise<EpakDetail>): Promise<EpakDetail | { error: string; httpStatus: number | undefined }> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DomainError) return { error: `${error.code} ${error.message}`, httpStatus: error.httpStatus };
    throw error;
  }
}

/**
 * The reference's signed documents in position order: it asked for them without an order, so the
 * order it gave depended on the plan PostgreSQL chose; the statement gives them by position.
 */
function inPositionOrder<T>(answer: T): T {
  const viewer = (answer as EpakDetail).viewer;
  if (viewer) viewer.signedDocumentIds.sort((a, b) => documentPosition.get(a)! - documentPosition.get(b)!);
  return answer;
}

const CASES: ReadonlyArray<[epak: string, person: keyof typeof people, what: string]> = [
  ['draft', 'owner', 'a draft, to its owner'],
  ['draft', 'signer', 'a draft, to a recipient (hidden)'],
  ['draft', 'outsider', 'a draft, to a member who is not in it'],
  ['reviewing', 'owner', 'in progress, to its owner'],
  ['reviewing', 'reviewer', 'in progress, to the reviewer of the step under way'],
  ['reviewing', 'signer', 'in progress, to a signer of a later step (verification required)'],
  ['reviewing', 'external', 'in progress, to an external signer of a later step'],
  ['reviewing', 'outsider', 'in progress, to a member who is not in it'],
  ['signing', 'signer', 'the signer of the step under way: stamps, a code outstanding, some documents signed and viewed'],
  ['signing', 'external', 'an external signer of the step under way, who must give their name'],
  ['signing', 'owner', 'the step under way, to its owner'],
  ['delegated', 'signer', 'delegated, to the one who handed the place over'],
  ['delegated', 'delegate', 'delegated, to the delegate (verification locked)'],
  ['completed', 'owner', 'completed, to its owner (read and starred)'],
  ['completed', 'signer', 'completed, to a signer who opened every document'],
  ['completed', 'external', 'completed, to an external signer who typed their name'],
  ['ownerSigns', 'owner', 'an owner who signs in the step under way'],
  ['deleted', 'signer', 'deleted, to the signer it waits for'],
  ['deleted', 'owner', 'deleted, to its owner'],
  ['archived', 'signer', 'archived, to its signer'],
  ['rejected', 'signer', 'rejected, to a signer never reached'],
  ['noDocuments', 'external', 'without documents, to an external signer with a typed name'],
  ['otherTenant', 'signer', "another tenant's ePak, asked for inside the caller's tenant"],
  ['otherTenant', 'stranger', "another tenant's ePak, to its owner asking inside the wrong tenant"],
];

describe('the ePak detail in one statement', () => {
  it.each(CASES)('answers %s to %s as the separate queries did (%s)', async (epak, person, _what) => {
    const actor = { tenantId, userId: people[person].id };
    for (const smsAvailable of [false, true]) {
      const expected = inPositionOrder(await outcome(() => referenceDetail(db, actor, made[epak]!, { smsAvailable })));
      const actual = await outcome(() => loadEpakDetail(db, { tenantId, ownerId: actor.userId }, made[epak]!, { smsAvailable }));
      expect(actual).toStrictEqual(expected);
      // Byte for byte, key order included: what the route serialises.
      expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    }
  });

  it('covers what it claims to: every case above that is visible differs in the facts the viewer shows', async () => {
    const viewer = async (epak: string, person: keyof typeof people) => (await loadEpakDetail(db, { tenantId, ownerId: people[person].id }, made[epak]!)).viewer!;
    const signing = await viewer('signing', 'signer');
    expect(signing).toMatchObject({ canAct: true, isRead: false, starred: true, geolocation: 'MANDATORY', rubberStamps: { available: true } });
    expect(signing.rubberStamps!.stamps.map((s) => [s.name, s.owned])).toEqual([
      ['Zeta seal', true],
      ['Approved', false],
      ['Received', false],
    ]);
    expect(signing.signedDocumentIds).toHaveLength(2);
    expect(signing.verification).toMatchObject({ required: true, codeOutstanding: true, attemptsLeft: 3 });
    expect(signing.reasons.map((r) => r.isDefault)).toEqual([true, false, false]);
    expect(await viewer('signing', 'external')).toMatchObject({ canAct: true, isRead: true, nameRequired: true, signerName: null, rubberStamps: { available: false } });
    expect(await viewer('delegated', 'delegate')).toMatchObject({ canAct: true, status: 'DelegatePending', verification: { lockedUntil: expect.any(String) } });
    expect(await viewer('completed', 'external')).toMatchObject({ canAct: false, signerName: 'Nisha Person', nameRequired: false });
    expect(await viewer('deleted', 'signer')).toMatchObject({ canAct: false, status: 'Pending' });
    const hidden = await outcome(() => loadEpakDetail(db, { tenantId, ownerId: people.signer.id }, made.draft!));
    expect(hidden).toMatchObject({ httpStatus: 404 });
  });

  it('gives every caller of loadViewer the viewer it gave before', async () => {
    for (const [epak, person] of CASES) {
      const actor = { tenantId, userId: people[person].id };
      const visible = await outcome(() => referenceDetail(db, actor, made[epak]!));
      if (!('viewer' in visible)) continue;
      const { epak: row } = await loadVisibleEpak(db, actor, made[epak]!);
      const expected = inPositionOrder(visible).viewer;
      const actual = await loadViewer(db, actor, row);
      actual.signedDocumentIds.sort((a, b) => documentPosition.get(a)! - documentPosition.get(b)!);
      expect(actual, `${epak} to ${person}`).toStrictEqual(expected);
    }
  });
});
