import {
  DomainError,
  failedRecipientFilter,
  type DocumentSignatureState,
  type Role,
  type TenantSettings,
  type SignerStatus,
  resolveViewEnforced,
  type ViewEnforceOption,
  type VerificationMode,
  signerVerificationRequired,
  type EpakDetail,
  type EpakInput,
  type EpakStatus,
  invalidInput,
  notFound,
  type PageGeometry,
  ResponseCode,
  signerCountOf,
  type SigningPolicy,
  type Tag,
  tagLayoutError,
  validateTagLayout,
  presetValueProblems,
  withDerivedBounds,
  type WorkflowStateType,
  type UserType,
  fullName,
} from '@pakt/domain';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { assertActionable, enforceOnEpak, loadVisibleEpak, type ViewerOptions } from './access';
import { readEpakDetail, viewerOfDetailRow } from './epak-detail-sql';
import { epakDocuments, epakRecipients, epakSteps, epaks, memberships, users } from '../../platform/db/schema';
import { resolveComposeDocuments } from './resolve-compose-documents';
import { listStates } from '../workflows';
import { recordEpakActivity } from './activity';

type Scope = { tenantId: string; ownerId: string };
type UserRow = typeof users.$inferSelect;

/**
 * The person behind an address, as compose resolves it (spec §5 signer input): a disabled
 * account or membership is refused (-13, USER_DISABLED_CONTACT_ADMIN), a cancelled invitation
 * too (-173, RESPONSE_MSG_USER_INVITATION_CANCELLED); an unknown address becomes an invited
 * external user, unless the tenant skips new users (-3).
 */
async function resolveRecipient(tx: Db, tenantId: string, email: string, skipNewUsers: boolean): Promise<UserRow> {
  const [existing] = await tx.select().from(users).where(eq(users.email, email));
  if (existing) {
    const [membership] = await tx
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, existing.id)));
    if (existing.disabledAt || membership?.status === 'disabled') {
      throw new DomainError(ResponseCode.USER_DISABLED, `${email} is disabled: contact your administrator.`, { data: { email } });
    }
    if (existing.status === 'cancelInvitation') {
      throw new DomainError(ResponseCode.INVITATION_CANCELLED, `The invitation of ${email} was cancelled.`, { data: { email } });
    }
    return existing;
  }
  if (skipNewUsers) {
    throw new DomainError(ResponseCode.USER_DOES_NOT_EXIST, `${email} is not a user here, and new users are not invited.`, { data: { email } });
  }
  const [created] = await tx
    .insert(users)
    .values({
      email,
      // A name to show until they register; the address's local part is what we know.
      firstName: email.split('@')[0]!,
      lastName: '',
      type: 'external',
      status: 'admininvited',
      passwordHash: null,
    })
    .returning();
  return created!;
}

/**
 * The recipients the tenant's filters refuse ('invalid filter', spec §5), one issue each at the
 * recipient's place in the request. An unknown address is judged as the new, unverified,
 * role-less user it would become.
 */
async function filterIssues(db: Db, tenantId: string, input: EpakInput, filters: RecipientFilters): Promise<{ path: string; message: string }[]> {
  if (!filters.recipientDomains?.length && !filters.recipientsVerifiedOnly && !filters.recipientRoles?.length) return [];
  const emails = [...new Set(input.steps.flatMap((step) => step.recipients.map((recipient) => recipient.email)))];
  const known = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt, role: memberships.role })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantId, tenantId)))
    .where(inArray(users.email, emails));
  const byEmail = new Map(known.map((row) => [row.email, row]));
  const issues: { path: string; message: string }[] = [];
  input.steps.forEach((step, index) => {
    step.recipients.forEach((recipient, at) => {
      const row = byEmail.get(recipient.email);
      const failed = failedRecipientFilter(filters, {
        email: recipient.email,
        verified: row?.verifiedAt != null,
        role: (row?.role as Role | null | undefined) ?? null,
      });
      if (failed) issues.push({ path: `steps.${index}.recipients.${at}`, message: `invalid filter: ${failed}` });
    });
  });
  return issues;
}

/**
 * A stored PDF as a template keeps it: what an ePak document copies. When the template's tags go
 * on one of the composer's own documents instead, that document's id and signature state come too.
 */
export interface TemplateDocument {
  readonly name: string;
  readonly sha256: string;
  readonly size: number;
  readonly pageCount: number;
  readonly pages: PageGeometry[];
  readonly sourceDocumentId?: string | null;
  readonly signatureState?: unknown;
}

type RecipientFilters = Pick<TenantSettings, 'recipientDomains' | 'recipientsVerifiedOnly' | 'recipientRoles'>;

export async function composeEpak(options: {
  db: Db;
  scope: Scope;
  input: EpakInput;
  skipNewUsers: boolean;
  filters?: RecipientFilters;
  viewEnforceOption?: ViewEnforceOption;
  /** The tenant's signer verification mode (spec §9): with each recipient's choice, who must confirm a code. */
  verificationMode?: VerificationMode;
  /**
   * A document that goes first, ahead of `input.documentIds`, with its tags already placed: a
   * document template's, its tags bound to this ePak's recipients. The ePak records the template.
   */
  fromTemplate?: { docTemplateId: string; document: TemplateDocument; tags: Tag[] };
}): Promise<string> {
  const { db, scope, input } = options;
  const states = new Map((await listStates(db, scope.tenantId)).map((state) => [state.id, state]));
  const issues: { path: string; message: string }[] = [];
  input.steps.forEach((step, index) => {
    if (!states.has(step.workflowStateId)) issues.push({ path: `steps.${index}.workflowStateId`, message: 'no such workflow state' });
    const seen = new Set<string>();
    step.recipients.forEach((recipient, at) => {
      if (seen.has(recipient.email)) issues.push({ path: `steps.${index}.recipients.${at}`, message: 'already present' });
      seen.add(recipient.email);
    });
  });
  issues.push(...(await filterIssues(db, scope.tenantId, input, options.filters ?? {})));
  if (issues.length > 0) throw invalidInput('Some of the ePak is not valid.', issues);

  // -109 without any document, -176 for one given twice, -169 for an ePak's copy (resolve-compose-documents.ts).
  // From a template, the template's document may be the only one.
  const sources = await resolveComposeDocuments({ db, scope, documentIds: input.documentIds, hasLeadDocument: options.fromTemplate !== undefined });
  const template = options.fromTemplate;
  if (template?.document.sourceDocumentId && input.documentIds.includes(template.document.sourceDocumentId)) {
    throw new DomainError(ResponseCode.DOCUMENT_ALREADY_ADDED, 'This document carries the template\'s tags and is already in the ePak.', {
      issues: [{ path: `documentIds.${input.documentIds.indexOf(template.document.sourceDocumentId)}`, message: 'already present' }],
    });
  }

  return db.transaction(async (tx) => {
    const [epak] = await tx
      .insert(epaks)
      .values({
        tenantId: scope.tenantId,
        ownerId: scope.ownerId,
        subject: input.subject,
        message: input.message ?? null,
        signingPolicy: input.signingPolicy,
        workflowId: input.workflowId ?? null,
        expiresAt: input.expiresOn ? new Date(input.expiresOn) : null,
        notificationStartAt: input.notificationStartDate ? new Date(input.notificationStartDate) : null,
        viewEnforced: resolveViewEnforced(options.viewEnforceOption, input.viewEnforced),
        docTemplateId: options.fromTemplate?.docTemplateId ?? null,
      })
      .returning({ id: epaks.id });
    if (template) {
      const { sourceDocumentId, signatureState, ...document } = template.document;
      await tx
        .insert(epakDocuments)
        .values({ epakId: epak!.id, sourceDocumentId: sourceDocumentId ?? null, position: 1, ...document, signatureState: signatureState ?? null, tags: template.tags });
    }
    const firstPosition = template ? 2 : 1;
    for (const [position, source] of sources.entries()) {
      await tx.insert(epakDocuments).values({
        epakId: epak!.id,
        sourceDocumentId: source.id,
        position: position + firstPosition,
        name: source.name,
        sha256: source.sha256,
        size: source.size,
        pageCount: source.pageCount,
        pages: source.pages,
        signatureState: source.signatureState,
      });
    }
    for (const [position, step] of input.steps.entries()) {
      const state = states.get(step.workflowStateId)!;
      const [row] = await tx
        .insert(epakSteps)
        .values({ epakId: epak!.id, position: position + 1, workflowStateId: state.id, name: state.name, type: state.type })
        .returning({ id: epakSteps.id });
      for (const [at, recipient] of step.recipients.entries()) {
        const user = await resolveRecipient(tx, scope.tenantId, recipient.email, options.skipNewUsers);
        await tx.insert(epakRecipients).values({
          epakId: epak!.id,
          stepId: row!.id,
          userId: user.id,
          position: at + 1,
          verificationRequired: signerVerificationRequired(options.verificationMode, state.type as WorkflowStateType, recipient.verify),
        });
      }
    }
    await recordEpakActivity(tx, {
      epakId: epak!.id,
      actorId: scope.ownerId,
      action: 'composed',
      details: {
        documents: input.documentIds.length + (template ? 1 : 0),
        steps: input.steps.length,
        ...(template ? { docTemplateId: template.docTemplateId } : {}),
      },
    });
    return epak!.id;
  });
}

export async function loadOwnEpak(db: Db, scope: Scope, epakId: string) {
  const [row] = await db
    .select()
    .from(epaks)
    .where(and(eq(epaks.id, epakId), eq(epaks.tenantId, scope.tenantId), eq(epaks.ownerId, scope.ownerId)));
  if (!row) throw notFound('No such ePak.');
  return row;
}

/**
 * An ePak as its owner or one of its recipients sees it, with what the caller may do with it: one
 * prepared statement (epak-detail-sql.ts), then the visibility policy and the viewer's rules.
 */
export async function loadEpakDetail(db: Db, scope: Scope, epakId: string, options: ViewerOptions = {}): Promise<EpakDetail> {
  const actor = { tenantId: scope.tenantId, userId: scope.ownerId };
  const read = await readEpakDetail(db, actor, epakId);
  if (!read) throw notFound('No such ePak.');
  const { detail } = read;
  const { epak } = enforceOnEpak(actor, read.epak, { actorIsRecipient: detail.places.length > 0 });
  const presentedSteps = detail.steps.map(([order, workflowStateId, name, type, recipients]) => ({
    order,
    workflowStateId,
    name,
    type: type as WorkflowStateType,
    recipients: recipients.map(([recipientId, userId, email, firstName, lastName, userType, status, verificationRequired, signedName]) => ({
      recipientId,
      userId,
      email,
      // The name typed where they signed is how this ePak knows them (issue 22).
      firstName: signedName ?? firstName,
      lastName: signedName ? '' : lastName,
      type: userType as UserType,
      status: status as SignerStatus,
      verificationRequired,
    })),
  }));
  return {
    ePakId: epak.id,
    subject: epak.subject,
    message: epak.message,
    status: epak.status as EpakStatus,
    signingPolicy: epak.signingPolicy as SigningPolicy,
    workflowId: epak.workflowId,
    documents: detail.documents.map(([documentId, sourceDocumentId, name, pageCount, pages, signatureState, revisions]) => ({
      documentId,
      sourceDocumentId,
      name,
      pageCount,
      pages: pages as PageGeometry[],
      revisions,
      signatureState: (signatureState as DocumentSignatureState | null) ?? null,
    })),
    steps: presentedSteps,
    currentStep: epak.currentStep,
    signerCount: signerCountOf(presentedSteps),
    expiresOn: epak.expiresAt?.toISOString() ?? null,
    notificationStartDate: epak.notificationStartAt?.toISOString() ?? null,
    viewEnforced: epak.viewEnforced,
    ownerId: epak.ownerId,
    ownerName: detail.ownerFirstName !== null && detail.ownerLastName !== null ? fullName({ firstName: detail.ownerFirstName, lastName: detail.ownerLastName }) : '',
    createdOn: epak.createdAt.toISOString(),
    modifiedOn: epak.updatedAt.toISOString(),
    viewer: viewerOfDetailRow(actor, epak, detail, options),
  };
}

/** One document of an ePak its owner or a recipient may see (readers); saveTags wants the owner. */
export async function loadEpakDocument(db: Db, scope: Scope, epakId: string, documentId: string, options: { ownerOnly?: boolean } = {}) {
  const epak = options.ownerOnly ? await loadOwnEpak(db, scope, epakId) : (await loadVisibleEpak(db, { tenantId: scope.tenantId, userId: scope.ownerId }, epakId)).epak;
  const [doc] = await db.select().from(epakDocuments).where(and(eq(epakDocuments.id, documentId), eq(epakDocuments.epakId, epak.id)));
  if (!doc) throw notFound('No such document in this ePak.');
  return { epak, doc };
}

export async function readTags(db: Db, scope: Scope, epakId: string, documentId: string): Promise<Tag[]> {
  return (await loadEpakDocument(db, scope, epakId, documentId)).doc.tags as Tag[];
}

/**
 * Saves a document's tags after checking them again on the server: the editor's checks are a
 * convenience; these are the rules (spec §5), with the same message keys.
 */
export async function saveTags(options: { db: Db; scope: Scope; epakId: string; documentId: string; tags: Tag[] }): Promise<Tag[]> {
  const { db, scope } = options;
  const { epak, doc } = await loadEpakDocument(db, scope, options.epakId, options.documentId, { ownerOnly: true });
  assertActionable(epak);
  if (epak.status !== 'Draft') {
    throw invalidInput('Tags are placed while the ePak is a draft; a started ePak is changed by editing it.');
  }
  const recipientEmails = new Set(
    (
      await db
        .select({ email: users.email })
        .from(epakRecipients)
        .innerJoin(users, eq(users.id, epakRecipients.userId))
        .where(eq(epakRecipients.epakId, epak.id))
    ).map((row) => row.email),
  );
  const strangers = options.tags
    .filter((tag) => tag.userEmail && !recipientEmails.has(tag.userEmail.toLowerCase()))
    .map((tag) => ({ path: `tags.${tag.uuid}.userEmail`, message: 'not a recipient of this ePak' }));
  if (strangers.length > 0) throw invalidInput('Some tags are for people who are not in this ePak.', strangers);
  // A draft is saved as it grows: placement rules hold at every save, while the rule that needs
  // a tag to exist (a reason for each signature, -49) waits until the ePak is started.
  // A signer's mark, or who signed and when, is never placed in advance (presetValueProblems).
  const problem = tagLayoutError([
    ...validateTagLayout({ tags: options.tags, pages: doc.pages as PageGeometry[], policy: epak.signingPolicy as SigningPolicy, reasonTagRequired: false }),
    ...presetValueProblems(options.tags),
  ]);
  if (problem) throw problem;
  const stored = withDerivedBounds(options.tags, doc.pages as PageGeometry[]);
  await db.update(epakDocuments).set({ tags: stored }).where(eq(epakDocuments.id, doc.id));
  await db.update(epaks).set({ updatedAt: new Date() }).where(eq(epaks.id, epak.id));
  return stored;
}

/**
 * Active members of the tenant whose first name, last name or address starts with `q` (case and
 * accents as typed are compared case-insensitively). LIKE wildcards in `q` are escaped: a person
 * typing "%" means the character.
 */
export async function searchDirectory(db: Db, tenantId: string, q: string, limit: number, filters: RecipientFilters = {}) {
  const prefix = `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const filtered = Boolean(filters.recipientDomains?.length || filters.recipientsVerifiedOnly || filters.recipientRoles?.length);
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      type: users.type,
      verifiedAt: users.emailVerifiedAt,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, tenantId),
        eq(memberships.status, 'active'),
        isNull(users.disabledAt),
        or(
          sql`lower(${users.email}) like ${prefix}`,
          sql`lower(${users.firstName}) like ${prefix}`,
          sql`lower(${users.lastName}) like ${prefix}`,
          sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${prefix}`,
        ),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email))
    // Suggestions the tenant's recipient filters would refuse are left out, so some room is kept.
    .limit(filtered ? limit * 5 : limit);
  return rows
    .filter((row) => failedRecipientFilter(filters, { email: row.email, verified: row.verifiedAt !== null, role: row.role as Role }) === null)
    .slice(0, limit)
    .map(({ verifiedAt: _verifiedAt, role: _role, ...user }) => user);
}
