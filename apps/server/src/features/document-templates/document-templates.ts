import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type BinaryBody,
  bindTemplateTags,
  can,
  DOCUMENT_TEMPLATE_EXPORT_FORMAT,
  DOCUMENT_TEMPLATE_EXPORT_VERSION,
  type DocumentFormat,
  type DocumentTemplate,
  DomainError,
  enforce,
  type ComposeFromTemplateInput,
  fullName,
  invalidInput,
  notFound,
  type PageGeometry,
  parseTemplateSlot,
  ResponseCode,
  type Role,
  sameStepShape,
  type SigningPolicy,
  slotStepsOf,
  type Tag,
  tagLayoutError,
  tagsFromFormFields,
  type TenantSettings,
  unbindTemplateTags,
  unboundSlots,
  validateTagLayout,
  presetValueProblems,
  type ViewEnforceOption,
  withDerivedBounds,
  type WorkflowStepInput,
  type WorkflowTemplate,
} from '@pakt/domain';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { documentTemplates, epakDocuments, epakRecipients, epakSteps, users, workflows } from '../../platform/db/schema';
import { type DocumentLimits, loadOwnDocument, storeUploadedPdf } from '../documents';
import { composeEpak, loadOwnEpak, resolveComposeDocuments, type TemplateDocument } from '../epaks';
import { templateFitError } from './check-template-fit';
import { type FileStorage, rangedFile } from '../../platform/storage/file-storage';
import { getWorkflowTemplate, listStates } from '../workflows';

/** Who acts: the caller inside their tenant, with their role there. */
export interface TemplateActor {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: Role;
}

type Row = typeof documentTemplates.$inferSelect;
type StepInput = z.infer<typeof WorkflowStepInput>;

const NAME_MAX = 200;
const WORKFLOW_NAME_MAX = 100;

/** PostgreSQL's unique violation: a name taken by a concurrent request. */
const isUniqueViolation = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';
const nameTaken = () => invalidInput('A document template with this name exists already.', [{ path: 'name', message: 'already used' }]);
const noSuchTemplate = () => notFound('No such document template.');


async function workflowsById(db: Db, tenantId: string, ids: (string | null)[]): Promise<Map<string, WorkflowTemplate>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = new Map<string, WorkflowTemplate>();
  for (const id of wanted) {
    try {
      found.set(id, await getWorkflowTemplate(db, tenantId, id));
    } catch (error) {
      // Gone meanwhile (the link is set null on delete, but a list may race it): shown as unlinked.
      if (!(error instanceof DomainError && error.httpStatus === 404)) throw error;
    }
  }
  return found;
}

function present(actor: TemplateActor, row: Row, owner: { firstName: string; lastName: string } | null, workflow: WorkflowTemplate | undefined): DocumentTemplate {
  return {
    docTemplateId: row.id,
    name: row.name,
    description: row.description,
    documentName: row.documentName,
    size: row.size,
    pageCount: row.pageCount,
    pages: row.pages as PageGeometry[],
    tags: row.tags as Tag[],
    signingPolicy: row.signingPolicy as SigningPolicy,
    workflowId: workflow ? row.workflowId : null,
    workflowName: workflow?.name ?? null,
    workflowSteps: workflow?.steps ?? null,
    ownerId: row.ownerId,
    ownerName: owner ? fullName(owner) : null,
    editable: can(actor, 'documentTemplate.change', row),
    createdOn: row.createdAt.toISOString(),
    modifiedOn: row.updatedAt.toISOString(),
  };
}

async function presentOne(db: Db, actor: TemplateActor, row: Row): Promise<DocumentTemplate> {
  const [owner] = row.ownerId ? await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, row.ownerId)) : [];
  const workflow = (await workflowsById(db, actor.tenantId, [row.workflowId])).get(row.workflowId ?? '');
  return present(actor, row, owner ?? null, workflow);
}

/** The tenant's templates, most recently changed first (a tenant keeps tens, not thousands). */
export async function listTemplates(options: { db: Db; actor: TemplateActor }): Promise<DocumentTemplate[]> {
  const { db, actor } = options;
  const rows = await db
    .select({ row: documentTemplates, firstName: users.firstName, lastName: users.lastName })
    .from(documentTemplates)
    .leftJoin(users, eq(users.id, documentTemplates.ownerId))
    .where(eq(documentTemplates.tenantId, actor.tenantId))
    .orderBy(desc(documentTemplates.updatedAt), desc(documentTemplates.id));
  const linked = await workflowsById(db, actor.tenantId, rows.map(({ row }) => row.workflowId));
  return rows.map(({ row, firstName, lastName }) =>
    present(actor, row, firstName !== null && lastName !== null ? { firstName, lastName } : null, linked.get(row.workflowId ?? '')),
  );
}

/** One of the tenant's templates; another tenant's, or none, is 404. */
export async function loadTemplate(db: Db, tenantId: string, docTemplateId: string): Promise<Row> {
  const [row] = await db.select().from(documentTemplates).where(and(eq(documentTemplates.tenantId, tenantId), eq(documentTemplates.id, docTemplateId)));
  if (!row) throw noSuchTemplate();
  return row;
}

/** `base`, or `base (2)`, `base (3)`… whichever is free first among names (compared case-insensitively). */
function firstFree(base: string, taken: ReadonlySet<string>, max: number): string {
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const name = `${base.slice(0, max - suffix.length).trim()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

async function takenNames(db: Db, table: typeof documentTemplates | typeof workflows, tenantId: string): Promise<Set<string>> {
  const rows = await db.select({ name: table.name }).from(table).where(eq(table.tenantId, tenantId));
  return new Set(rows.map((row) => row.name.toLowerCase()));
}

async function assertNameFree(db: Db, tenantId: string, name: string, except?: string) {
  const [clash] = await db
    .select({ id: documentTemplates.id })
    .from(documentTemplates)
    .where(and(eq(documentTemplates.tenantId, tenantId), sql`lower(${documentTemplates.name}) = ${name.toLowerCase()}`));
  if (clash && clash.id !== except) throw nameTaken();
}

/** A workflow template of the tenant, for linking: an unknown id is the caller's input at fault. */
async function linkableWorkflow(db: Db, tenantId: string, workflowId: string, path = 'workflowId'): Promise<WorkflowTemplate> {
  try {
    return await getWorkflowTemplate(db, tenantId, workflowId);
  } catch (error) {
    if (error instanceof DomainError && error.httpStatus === 404) throw invalidInput('No such workflow template.', [{ path, message: 'no such workflow template' }]);
    throw error;
  }
}

/**
 * The placement rules for a template's own tags: the layout rules of spec §5 (a reason tag is
 * required only once an ePak starts, as for drafts), and every slot a place of the linked
 * workflow when there is one. Answers the tags with their bounds worked out again.
 */
function checkTemplateTags(tags: Tag[], pages: PageGeometry[], policy: SigningPolicy, workflow: WorkflowTemplate | null): Tag[] {
  const problem = tagLayoutError([...validateTagLayout({ tags, pages, policy, reasonTagRequired: false }), ...presetValueProblems(tags)]);
  if (problem) throw problem;
  if (workflow) {
    const places = slotStepsOf(workflow.steps);
    const missing = new Set(unboundSlots(tags, places));
    if (missing.size > 0) {
      const flat = (list: readonly Tag[]): Tag[] => list.flatMap((tag) => [tag, ...flat(tag.children ?? [])]);
      throw invalidInput(
        'Some tags are for places the linked workflow template does not have.',
        flat(tags)
          .filter((tag) => tag.userEmail && missing.has(tag.userEmail))
          .map((tag) => ({ path: `tags.${tag.uuid}.userEmail`, message: 'no such place in the workflow' })),
      );
    }
  }
  return withDerivedBounds(tags, pages);
}

/**
 * A template from one of the caller's ePaks (spec §7 POST documenttemplates). Its document (the
 * first, or the one named) with its tags, each naming its person by place (template-slots.ts);
 * its signing policy; and a linked workflow template. The ePak's own workflow template is linked
 * when the ePak still has its shape (same states, as many people at each): the places the tags
 * name are then that template's places. Otherwise — composed by hand, or the steps changed
 * after choosing a template — a new workflow template is made from the ePak's steps, named
 * after the template, with a placeholder per person ("Sign 1"), so composing from the template
 * asks for the people and not the addresses this one ePak had.
 *
 * A started or finished ePak may be saved too: tags that signers dropped are left out and
 * values signers filled in are emptied, so the template is the paper as composed.
 */
export async function createTemplateFromEpak(options: {
  db: Db;
  actor: TemplateActor;
  ePakId: string;
  documentId?: string | undefined;
  name: string;
  description?: string | null | undefined;
}): Promise<DocumentTemplate> {
  const { db, actor } = options;
  const epak = await loadOwnEpak(db, { tenantId: actor.tenantId, ownerId: actor.userId }, options.ePakId);
  const docs = await db.select().from(epakDocuments).where(eq(epakDocuments.epakId, epak.id)).orderBy(asc(epakDocuments.position));
  const doc = options.documentId ? docs.find((candidate) => candidate.id === options.documentId) : docs[0];
  if (!doc) throw notFound('No such document in this ePak.');
  await assertNameFree(db, actor.tenantId, options.name);

  const steps = await db.select().from(epakSteps).where(eq(epakSteps.epakId, epak.id)).orderBy(asc(epakSteps.position));
  const people = await db
    .select({ stepId: epakRecipients.stepId, email: users.email })
    .from(epakRecipients)
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(eq(epakRecipients.epakId, epak.id))
    .orderBy(asc(epakRecipients.position));
  const shaped = steps.map((step) => ({ step, recipients: people.filter((person) => person.stepId === step.id) }));
  const slotSteps = shaped.map(({ step, recipients }) => ({ order: step.position, recipients }));

  const asComposed = (list: readonly Tag[]): Tag[] =>
    list
      .filter((tag) => tag.createType !== 'signer')
      .map((tag) => {
        const cleared = epak.status === 'Draft' || tag.status !== 'done' ? tag : { ...tag, status: 'pending' as const, value: null };
        return cleared.children ? { ...cleared, children: asComposed(cleared.children) } : cleared;
      });
  const tags = withDerivedBounds(unbindTemplateTags(asComposed(doc.tags as Tag[]), slotSteps), doc.pages as PageGeometry[]);

  const ePakShape = shaped.map(({ step, recipients }) => ({ workflowStateId: step.workflowStateId, recipients }));
  const own = epak.workflowId ? await db.select().from(workflows).where(and(eq(workflows.id, epak.workflowId), eq(workflows.tenantId, actor.tenantId))) : [];
  const reuse = own[0] && sameStepShape(own[0].steps as StepInput[], ePakShape) ? own[0] : undefined;

  try {
    const row = await db.transaction(async (t) => {
      let workflowId = reuse?.id ?? null;
      if (!reuse) {
        const madeSteps: StepInput[] = shaped.map(({ step, recipients }) => ({
          workflowStateId: step.workflowStateId,
          recipients: recipients.map((_person, at) => ({ type: 'placeholder' as const, label: `${step.name} ${at + 1}`.slice(0, 60) })),
        }));
        const [made] = await t
          .insert(workflows)
          .values({
            tenantId: actor.tenantId,
            ownerId: actor.userId,
            name: firstFree(options.name, await takenNames(t, workflows, actor.tenantId), WORKFLOW_NAME_MAX),
            description: null,
            signingPolicy: epak.signingPolicy,
            steps: madeSteps,
          })
          .returning({ id: workflows.id });
        workflowId = made!.id;
      }
      const [inserted] = await t
        .insert(documentTemplates)
        .values({
          tenantId: actor.tenantId,
          ownerId: actor.userId,
          name: options.name,
          description: options.description ?? null,
          documentName: doc.name,
          sha256: doc.sha256,
          size: doc.size,
          pageCount: doc.pageCount,
          pages: doc.pages,
          tags,
          signingPolicy: epak.signingPolicy,
          workflowId,
        })
        .returning();
      return inserted!;
    });
    return await presentOne(db, actor, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** The template's name when none is given: the file's, without its extension. */
function nameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').trim();
  return (base === '' ? 'Template' : base).slice(0, NAME_MAX);
}

/**
 * A template from an uploaded file (spec §7 POST documenttemplate/upload), through the document
 * upload pipeline and its limits. The PDF's text and signature fields become its preconfigured
 * tags; a field that breaks the placement rules (two fields overlapping, one off its page) is left
 * to the PDF rather than refusing the file. Without a name the file's is used, numbered when taken.
 */
export async function uploadTemplate(options: {
  db: Db;
  storage: FileStorage;
  workRoot: string;
  actor: TemplateActor;
  fileName: string;
  stream: Readable;
  disabledFormats: readonly DocumentFormat[];
  limits: DocumentLimits;
  signal?: AbortSignal | undefined;
  name?: string | undefined;
  workflowId?: string | undefined;
}): Promise<DocumentTemplate> {
  const { db, actor } = options;
  if (options.name) await assertNameFree(db, actor.tenantId, options.name);
  const workflow = options.workflowId ? await linkableWorkflow(db, actor.tenantId, options.workflowId) : null;
  const pdf = await storeUploadedPdf(options);
  const fields = tagsFromFormFields(pdf.formFields, randomUUID);
  const refused = new Set(validateTagLayout({ tags: fields, pages: pdf.pages, reasonTagRequired: false }).map((problem) => problem.tagUuid));
  const tags = withDerivedBounds(
    fields.filter((tag) => !refused.has(tag.uuid)),
    pdf.pages,
  );
  const name = options.name ?? firstFree(nameFromFile(pdf.name), await takenNames(db, documentTemplates, actor.tenantId), NAME_MAX);
  try {
    const [row] = await db
      .insert(documentTemplates)
      .values({
        tenantId: actor.tenantId,
        ownerId: actor.userId,
        name,
        documentName: pdf.name,
        sha256: pdf.sha256,
        size: pdf.size,
        pageCount: pdf.pageCount,
        pages: pdf.pages,
        tags,
        signingPolicy: workflow?.signingPolicy ?? 'ESIGNATURE',
        workflowId: workflow?.workflowId ?? null,
      })
      .returning();
    return await presentOne(db, actor, row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export interface TemplateChanges {
  readonly name?: string | undefined;
  readonly description?: string | null | undefined;
  readonly tags?: Tag[] | undefined;
  readonly signingPolicy?: SigningPolicy | undefined;
  readonly workflowId?: string | null | undefined;
  readonly documentId?: string | undefined;
}

/**
 * Changes a template (its author or an admin). A replacement document is one of the caller's
 * uploaded documents with the template's pages (count, size and turn), else -216 for a landscape
 * page where the template's is portrait and -189 for any other difference
 * (check-template-fit.ts): the tags are placed in points and would land elsewhere. The tags, kept
 * or given, are checked against the resulting document, policy and workflow together.
 */
export async function updateTemplate(options: { db: Db; actor: TemplateActor; docTemplateId: string; changes: TemplateChanges }): Promise<DocumentTemplate> {
  const { db, actor, changes } = options;
  const row = await loadTemplate(db, actor.tenantId, options.docTemplateId);
  enforce(actor, 'documentTemplate.change', row);
  if (changes.name !== undefined) await assertNameFree(db, actor.tenantId, changes.name, row.id);

  let document: Pick<Row, 'documentName' | 'sha256' | 'size' | 'pageCount' | 'pages'> = {
    documentName: row.documentName,
    sha256: row.sha256,
    size: row.size,
    pageCount: row.pageCount,
    pages: row.pages,
  };
  if (changes.documentId) {
    const replacement = await loadOwnDocument(db, { tenantId: actor.tenantId, ownerId: actor.userId }, changes.documentId);
    const misfit = templateFitError({ template: row.pages as PageGeometry[], document: replacement.pages as PageGeometry[] });
    if (misfit) throw misfit;
    document = { documentName: replacement.name, sha256: replacement.sha256, size: replacement.size, pageCount: replacement.pageCount, pages: replacement.pages };
  }

  const workflowId = changes.workflowId === undefined ? row.workflowId : changes.workflowId;
  const workflow = workflowId ? await linkableWorkflow(db, actor.tenantId, workflowId) : null;
  const policy = changes.signingPolicy ?? (row.signingPolicy as SigningPolicy);
  const tags = checkTemplateTags(changes.tags ?? (row.tags as Tag[]), document.pages as PageGeometry[], policy, workflow);

  try {
    const [updated] = await db
      .update(documentTemplates)
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...document,
        tags,
        signingPolicy: policy,
        workflowId: workflow?.workflowId ?? null,
        updatedAt: new Date(),
      })
      .where(eq(documentTemplates.id, row.id))
      .returning();
    return await presentOne(db, actor, updated!);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/**
 * Deletes templates, all or none: an id that is not the tenant's answers 404, one the caller may
 * not change -11, and nothing goes. The stored PDF stays (content-addressed, maybe shared), as do
 * ePaks composed from the templates and their workflow templates (the tenant's in their own right).
 */
export async function deleteTemplates(options: { db: Db; actor: TemplateActor; docTemplateIds: string[] }): Promise<number> {
  const { actor } = options;
  const ids = [...new Set(options.docTemplateIds)];
  return options.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(documentTemplates)
      .where(and(eq(documentTemplates.tenantId, actor.tenantId), inArray(documentTemplates.id, ids)))
      .for('update');
    if (rows.length !== ids.length) throw noSuchTemplate();
    for (const row of rows) enforce(actor, 'documentTemplate.change', row);
    await tx.delete(documentTemplates).where(inArray(documentTemplates.id, ids));
    return ids.length;
  });
}

/** Base64 of a stream, in pieces: every piece but the last a multiple of 3 bytes, so they join. */
async function* base64Of(source: Readable): AsyncGenerator<string> {
  let carry = Buffer.alloc(0);
  for await (const chunk of source) {
    const bytes = Buffer.concat([carry, chunk as Buffer]);
    const whole = bytes.length - (bytes.length % 3);
    if (whole > 0) yield bytes.subarray(0, whole).toString('base64');
    carry = bytes.subarray(whole);
  }
  if (carry.length > 0) yield carry.toString('base64');
}

/**
 * The export of spec §7: a JSON file holding the template, the workflow template named in the
 * path (any of the tenant's, usually the linked one) and the PDF as base64. The PDF travels
 * inside rather than by reference: a reference means nothing in another tenant or instance,
 * which is where an export is re-imported, and its sha256 lets the importer check the bytes.
 * Streamed: a template's PDF may be as large as any document.
 */
export async function exportTemplate(options: {
  db: Db;
  storage: FileStorage;
  actor: TemplateActor;
  docTemplateId: string;
  workflowTemplateId: string;
}): Promise<BinaryBody> {
  const { db, actor } = options;
  const row = await loadTemplate(db, actor.tenantId, options.docTemplateId);
  const workflow = await getWorkflowTemplate(db, actor.tenantId, options.workflowTemplateId);
  const states = new Map((await listStates(db, actor.tenantId)).map((state) => [state.id, state]));
  const template = await presentOne(db, actor, row);
  const { editable: _editable, ownerId: _ownerId, workflowSteps: _steps, ...portable } = template;
  const head = JSON.stringify({
    format: DOCUMENT_TEMPLATE_EXPORT_FORMAT,
    version: DOCUMENT_TEMPLATE_EXPORT_VERSION,
    exportedOn: new Date().toISOString(),
    template: portable,
    // States are the tenant's: an importer matches them by name and type, so both travel.
    workflowTemplate: {
      ...workflow,
      steps: workflow.steps.map((step) => ({ ...step, stateName: states.get(step.workflowStateId)?.name ?? step.name })),
    },
    document: { name: row.documentName, contentType: 'application/pdf', sha256: row.sha256, size: row.size, pageCount: row.pageCount, pages: row.pages, contentBase64: '' },
  });
  // The base64 goes where the empty string is; the JSON around it is written as it is.
  const cut = head.lastIndexOf('""');
  const before = Buffer.from(head.slice(0, cut + 1));
  const after = Buffer.from(head.slice(cut + 1));
  const source = await options.storage.get(row.sha256);
  async function* body() {
    yield before;
    for await (const piece of base64Of(source)) yield Buffer.from(piece, 'ascii');
    yield after;
  }
  const safeName = row.name.replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim() || 'template';
  return {
    contentType: 'application/json',
    size: before.length + 4 * Math.ceil(row.size / 3) + after.length,
    fileName: `${safeName}.template.json`,
    stream: Readable.from(body()),
  };
}

/**
 * Composes an ePak draft from a template in one step (the compose tab docTemplates): the template's
 * document first with its tags bound to the recipients at their places, then the caller's own
 * documents if any; everything else as compose does it (composeEpak). Every place the tags name
 * needs a recipient. A tag still naming an address (one placed for a person not in the workflow)
 * whom this ePak does not have is left unassigned for the composer to give to someone.
 *
 * With `documentId`, the tags go on that document of the caller's instead of the template's own
 * PDF (the same form filled in or printed again): it must fit the template's pages (-216 for a
 * landscape page where the template's is portrait, -189 for any other difference;
 * check-template-fit.ts). The documents are resolved as compose resolves them (-176 for one given
 * twice, -169 for an ePak's copy, 404 for none of the caller's), and the template's own PDF given
 * again beside itself is -176 too. Nothing is written before every check has passed.
 */
export async function composeFromTemplate(options: {
  db: Db;
  scope: { tenantId: string; ownerId: string };
  docTemplateId: string;
  input: ComposeFromTemplateInput;
  settings: Pick<TenantSettings, 'skipNewUsers' | 'recipientDomains' | 'recipientsVerifiedOnly' | 'recipientRoles' | 'viewEnforceOption' | 'verificationMode'>;
}): Promise<string> {
  const { db, scope, input } = options;
  const row = await loadTemplate(db, scope.tenantId, options.docTemplateId);
  const { documentId, ...epakInput } = input;
  const own = await resolveComposeDocuments({ db, scope, documentIds: epakInput.documentIds, hasLeadDocument: true });
  let lead: TemplateDocument = { name: row.documentName, sha256: row.sha256, size: row.size, pageCount: row.pageCount, pages: row.pages as PageGeometry[] };
  if (documentId) {
    if (epakInput.documentIds.includes(documentId)) {
      throw new DomainError(ResponseCode.DOCUMENT_ALREADY_ADDED, 'This document carries the template\'s tags and is already in the ePak.', {
        issues: [{ path: `documentIds.${epakInput.documentIds.indexOf(documentId)}`, message: 'already present' }],
      });
    }
    const [carrier] = await resolveComposeDocuments({ db, scope, documentIds: [documentId], issuePath: () => 'documentId' });
    const misfit = templateFitError({ template: row.pages as PageGeometry[], document: carrier!.pages as PageGeometry[] });
    if (misfit) throw misfit;
    lead = {
      name: carrier!.name,
      sha256: carrier!.sha256,
      size: carrier!.size,
      pageCount: carrier!.pageCount,
      pages: carrier!.pages as PageGeometry[],
      sourceDocumentId: carrier!.id,
      signatureState: carrier!.signatureState,
    };
  } else {
    const again = own.findIndex((document) => document.sha256 === row.sha256);
    if (again >= 0) {
      throw new DomainError(ResponseCode.DOCUMENT_ALREADY_ADDED, 'This document is the template\'s own and is already in the ePak.', {
        issues: [{ path: `documentIds.${again}`, message: 'already present' }],
      });
    }
  }
  const steps = input.steps.map((step, index) => ({ order: index + 1, recipients: step.recipients }));
  const tags = row.tags as Tag[];
  const missing = unboundSlots(tags, steps);
  if (missing.length > 0) {
    throw invalidInput(
      'The template has tags for places these steps have nobody at.',
      missing.map((slot) => {
        const place = parseTemplateSlot(slot)!;
        return { path: place.stepOrder <= steps.length ? `steps.${place.stepOrder - 1}.recipients` : 'steps', message: `nobody at place ${place.position} of step ${place.stepOrder}` };
      }),
    );
  }
  const everyone = new Set(steps.flatMap((step) => step.recipients.map((recipient) => recipient.email.trim().toLowerCase())));
  const unassignStrangers = (list: readonly Tag[]): Tag[] =>
    list.map((tag) => {
      const { userEmail, wfsOrderId, userUuid: _uuid, ...rest } = tag;
      const kept = userEmail && !everyone.has(userEmail.toLowerCase()) ? rest : { ...rest, ...(userEmail ? { userEmail } : {}), ...(wfsOrderId !== undefined ? { wfsOrderId } : {}) };
      return tag.children ? { ...kept, children: unassignStrangers(tag.children) } : kept;
    });
  const bound = unassignStrangers(bindTemplateTags(tags, steps));
  const pages = lead.pages;
  const problem = tagLayoutError([...validateTagLayout({ tags: bound, pages, policy: input.signingPolicy, reasonTagRequired: false }), ...presetValueProblems(bound)]);
  if (problem) throw problem;
  const { settings } = options;
  return composeEpak({
    db,
    scope,
    input: epakInput,
    skipNewUsers: settings.skipNewUsers ?? false,
    filters: settings,
    ...(settings.viewEnforceOption ? { viewEnforceOption: settings.viewEnforceOption as ViewEnforceOption } : {}),
    // The tenant's signer verification mode: its default, or a per-recipient choice sent with the steps.
    ...(settings.verificationMode ? { verificationMode: settings.verificationMode } : {}),
    fromTemplate: { docTemplateId: row.id, document: lead, tags: withDerivedBounds(bound, pages) },
  });
}

/** The template's PDF bytes, for the compose tab's preview. */
export async function templateDocument(options: { db: Db; storage: FileStorage; tenantId: string; docTemplateId: string }): Promise<BinaryBody> {
  const row = await loadTemplate(options.db, options.tenantId, options.docTemplateId);
  const fileName = /\.pdf$/i.test(row.documentName) ? row.documentName : `${row.documentName.replace(/\.[^.]*$/, '')}.pdf`;
  return { contentType: 'application/pdf', size: row.size, fileName, ranged: rangedFile(options.storage, row.sha256) };
}
