import { randomUUID } from 'node:crypto';
import {
  type DocumentSummary,
  type Endpoint,
  type EndpointData,
  type EpakDetail,
  type EpakInput,
  type Role,
  type SigningPolicy,
  type Tag,
  type WorkflowStateType,
  createAnnouncement,
  createEpak,
  createGroup,
  createRubberStamp,
  createSignatureBlocks,
  createWorkflow,
  listWorkflowStates,
  isTagFor,
  newTag,
  policyRequiresReasonTag,
  SIGNING_STATE_TYPES,
  startEpak,
  updateTenantSettings,
  uploadDocument,
  uploadDocumentTemplate,
  uploadLetterheadTemplate,
} from '@pakt/domain';
import { PNG } from 'pngjs';
import { corpusPdf } from './corpus';
import { GOOD_PASSWORD, makeMember, type makeUser } from './factories';
import { type Answer, type Caller, inject } from './inject';
import { bearer, signIn } from './sign-in';
import type { TestApp } from './test-app';

/**
 * Factories that go through the app, as a person would: what they make obeys every rule the
 * endpoints apply (stored files checked and sandboxed, steps resolved, tags validated). Each
 * builds what it needs and is not given: a document without an owner gets a signed-in custodian.
 * The row factories in factories.ts stay for what has no endpoint or must be made in bulk.
 */

/** A member of a tenant, signed in, with the headers their requests carry. */
export type SignedInMember = Awaited<ReturnType<typeof makeMember>> & { readonly headers: Record<string, string> };

type App = Pick<TestApp, 'app' | 'database'>;

/** The answer's data, or an error naming the refused call and the answer: never a broken value. */
function accepted<E extends Endpoint>(res: Answer<E>, what: string): EndpointData<E> {
  if (res.statusCode !== 200) throw new Error(`${what} answered ${res.statusCode}: ${res.body}`);
  return res.data;
}

/** A short name no other test in the run has made (group names are at most 15 characters). */
const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 6)}`;

/** A PNG of one shade, for letterheads, rubber stamps and photos. */
export function pngImage(width = 120, height = 120, shade = 0x80): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(shade);
  return PNG.sync.write(image);
}

export async function signedInMember(
  t: App,
  options: { role?: Role; tenant?: { id: string }; user?: Parameters<typeof makeUser>[1] } = {},
): Promise<SignedInMember> {
  const made = await makeMember(t.database.db, { role: options.role ?? 'custodian', ...(options.tenant ? { tenant: options.tenant } : {}), ...(options.user ? { user: options.user } : {}) });
  const grant = await signIn(t.app, made.user.email, made.user.password ?? GOOD_PASSWORD);
  return { ...made, headers: { ...bearer(grant), 'x-tenant-id': made.tenant.id } };
}

/** Uploads a document (a corpus file by name, or bytes) as `owner`, and answers its summary. */
export async function uploadedDocument(
  t: App,
  options: { owner?: SignedInMember; file?: string; bytes?: Buffer; name?: string } = {},
): Promise<DocumentSummary & { owner: SignedInMember }> {
  const owner = options.owner ?? (await signedInMember(t));
  const file = options.file ?? 'plain-1p-pdftex.pdf';
  const name = options.name ?? file;
  const res = await inject(t.app, uploadDocument, { as: owner, file: { bytes: options.bytes ?? corpusPdf(file), name } });
  return { ...accepted(res, `upload of ${name}`), owner };
}

/** The tenant's workflow state ids by type (each tenant starts with one of every type). */
export async function workflowStateIds(t: App, caller: SignedInMember): Promise<(type: WorkflowStateType) => string> {
  const states = accepted(await inject(t.app, listWorkflowStates, { as: caller }), 'workflow states').states;
  return (type) => {
    const found = states.find((state) => state.type === type);
    if (!found) throw new Error(`the tenant has no ${type} state`);
    return found.workflowStateId;
  };
}

/** One step of a draft: its type and its recipients (members, or addresses of outsiders). */
export interface DraftStep {
  readonly type: WorkflowStateType;
  readonly recipients: readonly (SignedInMember | string)[];
}

/**
 * A draft ePak composed as `owner`: its documents (corpus files, uploaded now, or documents
 * already uploaded) and its steps. Without steps, one signer of the owner's tenant signs.
 */
export async function composedEpak(
  t: App,
  options: {
    owner?: SignedInMember;
    files?: readonly string[];
    documents?: readonly DocumentSummary[];
    steps?: readonly DraftStep[];
    fields?: Partial<Omit<EpakInput, 'documentIds' | 'steps'>>;
  } = {},
): Promise<{ owner: SignedInMember; epak: EpakDetail; steps: readonly DraftStep[] }> {
  const owner = options.owner ?? (await signedInMember(t));
  const documents = options.documents ?? (await Promise.all((options.files ?? ['plain-1p-pdftex.pdf']).map((file) => uploadedDocument(t, { owner, file }))));
  const steps = options.steps ?? [{ type: 'SIGN' as const, recipients: [await signedInMember(t, { role: 'signer', tenant: owner.tenant })] }];
  const state = await workflowStateIds(t, owner);
  const res = await inject(t.app, createEpak, {
    as: owner,
    body: {
      subject: 'Test agreement',
      ...options.fields,
      documentIds: documents.map((document) => document.documentId),
      steps: steps.map((step) => ({
        workflowStateId: state(step.type),
        recipients: step.recipients.map((recipient) => ({ email: typeof recipient === 'string' ? recipient : recipient.user.email })),
      })),
    } as EpakInput,
  });
  return { owner, epak: accepted(res, 'compose'), steps };
}

/**
 * A signature field (and, when the policy wants one, its reason) for each signer of the draft
 * (but those `alongside` already gives one), in a column at the top left of the first page of its
 * first document: what the server asks before it sends (-62 for a
 * signer without a signature field, -49 for a signature without its reason). Each is for the
 * signer at their step (wfsOrderId), so a person signing at two steps gets two.
 */
export function signatureFieldsFor(epak: EpakDetail, options: { alongside?: readonly Tag[] } = {}): { documentId: string; tags: Tag[] }[] {
  const document = epak.documents[0];
  // A signer the tags placed alongside already give a signature field is left as they are.
  const theirs = (options.alongside ?? []).filter((tag) => tag.type === 'signature');
  const signers = epak.steps
    .filter((step) => (SIGNING_STATE_TYPES as readonly string[]).includes(step.type))
    .flatMap((step) => step.recipients.map((recipient) => ({ email: recipient.email, order: step.order })))
    .filter((signer) => !theirs.some((tag) => isTagFor(tag, { email: signer.email, stepOrder: signer.order })));
  if (!document || signers.length === 0) return [];
  const page = document.pages[0]!;
  const withReason = policyRequiresReasonTag(epak.signingPolicy);
  const tags: Tag[] = [];
  let y = 20;
  for (const signer of signers) {
    const who = { userEmail: signer.email, wfsOrderId: signer.order };
    const signature = newTag({ uuid: randomUUID(), type: 'signature', pageNumber: 1, positionX: 20, positionY: y, ...who }, page);
    tags.push(signature);
    if (withReason) tags.push(newTag({ uuid: randomUUID(), type: 'reason', pageNumber: 1, positionX: 30 + signature.blockWidth, positionY: y, ...who }, page));
    y += signature.blockHeight + 10;
  }
  return [{ documentId: document.documentId, tags }];
}

/** The fields a test placed, document by document (signatureFieldsFor, or its own). */
export type PlacedFields = readonly { readonly documentId: string; readonly tags: readonly Tag[] }[];

/** Places signatureFieldsFor(epak) on a draft as `owner` (its owner), and answers what it placed. */
export async function placeSignatureFields(t: App, options: { owner: Caller; epak: EpakDetail }): Promise<PlacedFields> {
  const placed = signatureFieldsFor(options.epak);
  for (const { documentId, tags } of placed) {
    accepted(await inject(t.app, createSignatureBlocks, { as: options.owner, params: { ePakId: options.epak.ePakId, documentId }, body: { tags } }), 'signature fields');
  }
  return placed;
}

/** What fills `email`'s signature fields on one document when they sign: their name typed, as clicking a field applies it. */
export function signatureValues(placed: PlacedFields, documentId: string, email: string, value = 'Signed'): { uuid: string; value: string }[] {
  const address = email.trim().toLowerCase();
  return placed
    .filter((one) => one.documentId === documentId)
    .flatMap((one) => one.tags)
    .filter((tag) => tag.type === 'signature' && tag.userEmail?.toLowerCase() === address)
    .map((tag) => ({ uuid: tag.uuid, value }));
}

/**
 * Places tags on a draft's document and sends the ePak: it is then waiting for its first step.
 * Without `tags`, each signer gets a signature field (signatureFieldsFor), since the server sends
 * no ePak with a signer who has none; what was placed is answered as `placed`, so a test can fill
 * the fields when it signs.
 */
export async function startedEpak(
  t: App,
  options: Parameters<typeof composedEpak>[1] & { tags?: (epak: EpakDetail) => readonly { documentId: string; tags: readonly Tag[] }[] } = {},
): Promise<{ owner: SignedInMember; epak: EpakDetail; steps: readonly DraftStep[]; placed: readonly { documentId: string; tags: readonly Tag[] }[] }> {
  const { owner, epak, steps } = await composedEpak(t, options);
  const placed = options.tags?.(epak) ?? signatureFieldsFor(epak);
  for (const { documentId, tags } of placed) {
    accepted(await inject(t.app, createSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId }, body: { tags: [...tags] } }), 'tags');
  }
  const started = await inject(t.app, startEpak, { as: owner, params: { ePakId: epak.ePakId } });
  return { owner, epak: accepted(started, 'start'), steps, placed };
}

/** Someone a workflow step goes to: a member, an address, or a placeholder filled in at compose. */
export type WorkflowRecipientOf = SignedInMember | string | { readonly placeholder: string };

/** A workflow template of `owner`'s tenant. Without steps, one signer named by the placeholder "Signer". */
export async function createdWorkflow(
  t: App,
  options: { owner?: SignedInMember; name?: string; signingPolicy?: SigningPolicy; steps?: readonly { type: WorkflowStateType; recipients: readonly WorkflowRecipientOf[] }[] } = {},
) {
  const owner = options.owner ?? (await signedInMember(t));
  const state = await workflowStateIds(t, owner);
  const steps = options.steps ?? [{ type: 'SIGN' as const, recipients: [{ placeholder: 'Signer' }] }];
  const res = await inject(t.app, createWorkflow, {
    as: owner,
    body: {
      name: options.name ?? unique('Workflow'),
      signingPolicy: options.signingPolicy ?? 'ESIGNATURE',
      steps: steps.map((step) => ({
        workflowStateId: state(step.type),
        recipients: step.recipients.map((recipient) =>
          typeof recipient === 'string'
            ? { type: 'user' as const, email: recipient }
            : 'placeholder' in recipient
              ? { type: 'placeholder' as const, label: recipient.placeholder }
              : { type: 'user' as const, email: recipient.user.email },
        ),
      })),
    },
  });
  return { ...accepted(res, 'workflow'), owner };
}

/** A document template uploaded from a corpus file (its own form fields become its tags). */
export async function uploadedDocumentTemplate(t: App, options: { owner?: SignedInMember; file?: string; name?: string; workflowId?: string } = {}) {
  const owner = options.owner ?? (await signedInMember(t));
  const file = options.file ?? 'plain-1p-pdftex.pdf';
  const res = await inject(t.app, uploadDocumentTemplate, {
    as: owner,
    body: { name: options.name ?? unique('Template'), ...(options.workflowId ? { workflowId: options.workflowId } : {}) },
    file: { bytes: corpusPdf(file), name: file, type: 'application/pdf' },
  });
  return { ...accepted(res, 'template upload'), owner };
}

/** A letterhead of `owner`'s tenant (a grey PNG unless given an image). */
export async function uploadedLetterhead(t: App, options: { owner?: SignedInMember; image?: Buffer; name?: string } = {}) {
  const owner = options.owner ?? (await signedInMember(t));
  const res = await inject(t.app, uploadLetterheadTemplate, { as: owner, file: { bytes: options.image ?? pngImage(600, 120), name: options.name ?? 'letterhead.png' } });
  return { ...accepted(res, 'letterhead upload'), owner };
}

/** Turns a tenant's rubber stamps on through the settings screen, as its super admin (one is made to do it). */
export async function enableRubberStamps(t: App, tenant: { id: string }) {
  const superAdmin = await signedInMember(t, { role: 'super_admin', tenant });
  accepted(await inject(t.app, updateTenantSettings, { as: superAdmin, body: { settings: { rubberStampEnabled: true } } }), 'rubber stamps setting');
}

/** A rubber stamp of `owner` (a signer unless given), its tenant's rubber stamps turned on first. */
export async function createdRubberStamp(t: App, options: { owner?: SignedInMember; name?: string; image?: Buffer } = {}) {
  const owner = options.owner ?? (await signedInMember(t, { role: 'signer' }));
  await enableRubberStamps(t, owner.tenant);
  const res = await inject(t.app, createRubberStamp, { as: owner, body: { name: options.name ?? unique('Stamp') }, file: { bytes: options.image ?? pngImage(), name: 'stamp.png' } });
  return { ...accepted(res, 'rubber stamp'), owner };
}

/** A group of `admin`'s tenant, with the given members (and manager among them). */
export async function createdGroup(t: App, options: { admin?: SignedInMember; name?: string; members?: readonly SignedInMember[]; manager?: SignedInMember } = {}) {
  const admin = options.admin ?? (await signedInMember(t, { role: 'admin' }));
  const members = [...(options.members ?? []), ...(options.manager && !options.members?.includes(options.manager) ? [options.manager] : [])];
  const res = await inject(t.app, createGroup, {
    as: admin,
    body: { groupName: options.name ?? unique('Group'), userIds: members.map((member) => member.user.id), ...(options.manager ? { managerId: options.manager.user.id } : {}) },
  });
  return { ...accepted(res, 'group'), admin };
}

/** An announcement of `admin`'s tenant, showing from a minute ago for an hour unless told. */
export async function createdAnnouncement(t: App, options: { admin?: SignedInMember; text?: string; startTime?: Date; endTime?: Date } = {}) {
  const admin = options.admin ?? (await signedInMember(t, { role: 'admin' }));
  const startTime = options.startTime ?? new Date(Date.now() - 60_000);
  const endTime = options.endTime ?? new Date(startTime.getTime() + 3_600_000);
  const res = await inject(t.app, createAnnouncement, {
    as: admin,
    body: { text: options.text ?? unique('Announcement'), startTime: startTime.toISOString(), endTime: endTime.toISOString() },
  });
  return { ...accepted(res, 'announcement'), admin };
}
