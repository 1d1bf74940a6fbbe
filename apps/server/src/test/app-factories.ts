import {
  type DocumentSummary,
  DocumentSummary as DocumentSummarySchema,
  type EpakDetail,
  type EpakInput,
  type Role,
  type Tag,
  type WorkflowStateType,
  createEpak,
  createSignatureBlocks,
  listWorkflowStates,
  startEpak,
} from '@pakt/domain';
import { corpusPdf } from './corpus';
import { GOOD_PASSWORD, makeMember, type makeUser } from './factories';
import { inject } from './inject';
import { multipart } from './multipart';
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
  // Multipart: the typed inject sends JSON and forms only.
  const body = multipart(options.bytes ?? corpusPdf(file), name);
  const res = await t.app.inject({ method: 'POST', url: '/msbapi/v1/documents', headers: { ...owner.headers, ...body.headers }, payload: body.payload });
  if (res.statusCode !== 200) throw new Error(`upload of ${name} answered ${res.statusCode}: ${res.body}`);
  return { ...DocumentSummarySchema.parse(res.json().data), owner };
}

/** The tenant's workflow state ids by type (each tenant starts with one of every type). */
export async function workflowStateIds(t: App, caller: SignedInMember): Promise<(type: WorkflowStateType) => string> {
  const res = await inject(t.app, listWorkflowStates, { as: caller });
  if (res.statusCode !== 200) throw new Error(`workflow states answered ${res.statusCode}: ${res.body}`);
  const states = res.data.states;
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
  if (res.statusCode !== 200) throw new Error(`compose answered ${res.statusCode}: ${res.body}`);
  return { owner, epak: res.data, steps };
}

/** Places tags on a draft's document and sends the ePak: it is then waiting for its first step. */
export async function startedEpak(
  t: App,
  options: Parameters<typeof composedEpak>[1] & { tags?: (epak: EpakDetail) => readonly { documentId: string; tags: readonly Tag[] }[] } = {},
): Promise<{ owner: SignedInMember; epak: EpakDetail; steps: readonly DraftStep[] }> {
  const { owner, epak, steps } = await composedEpak(t, options);
  for (const { documentId, tags } of options.tags?.(epak) ?? []) {
    const saved = await inject(t.app, createSignatureBlocks, { as: owner, params: { ePakId: epak.ePakId, documentId }, body: { tags: [...tags] } });
    if (saved.statusCode !== 200) throw new Error(`tags answered ${saved.statusCode}: ${saved.body}`);
  }
  const started = await inject(t.app, startEpak, { as: owner, params: { ePakId: epak.ePakId } });
  if (started.statusCode !== 200) throw new Error(`start answered ${started.statusCode}: ${started.body}`);
  return { owner, epak: started.data, steps };
}
