import { z } from 'zod';
import { SigningPolicy } from '../constants/signing-policies';
import { PageGeometry } from '../documents';
import { singleLineText } from '../single-line';
import { Tag } from '../tags/tag';
import { type BinaryBody, defineEndpoint } from './contract';
import { EpakDetail, EpakInput } from './epaks';
import { WorkflowStep } from './workflows';

/**
 * Document templates (spec §7 "Templates and letterheads", §9 the compose tab docTemplates): a
 * PDF with its preconfigured tags and, optionally, a linked workflow template. Shared by
 * everyone in the tenant who composes. Tags name their person by place in the workflow
 * (template-slots.ts), so one template serves any recipients.
 */
export const DocumentTemplate = z.object({
  docTemplateId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  documentName: z.string(),
  size: z.number().int().nonnegative(),
  pageCount: z.number().int().positive(),
  pages: z.array(PageGeometry),
  tags: z.array(Tag),
  signingPolicy: SigningPolicy,
  /** The linked workflow template; null when the template leaves the workflow to compose. */
  workflowId: z.uuid().nullable(),
  workflowName: z.string().nullable(),
  /**
   * The linked workflow template's steps, so compose can fill them from the template alone (a
   * submitter may not be allowed to read workflow templates); null when none is linked.
   */
  workflowSteps: z.array(WorkflowStep).nullable(),
  /** Who made it; null once they have left the instance. */
  ownerId: z.uuid().nullable(),
  ownerName: z.string().nullable(),
  /** Whether the caller may change or delete it: its author, or an admin of the tenant. */
  editable: z.boolean(),
  createdOn: z.iso.datetime(),
  modifiedOn: z.iso.datetime(),
});
export type DocumentTemplate = z.infer<typeof DocumentTemplate>;

export const listDocumentTemplates = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/documenttemplates',
  access: 'tenant',
  action: 'document.manage',
  summary: "The tenant's document templates, most recently changed first.",
  response: z.object({ templates: z.array(DocumentTemplate) }),
});

/** A template's name: shown in the compose tab's list, unique in the tenant whatever its case. */
export const DocumentTemplateName = singleLineText(200);
const TemplateDescription = z.string().trim().max(1000).nullable().optional();
const TemplateParams = z.object({ docTemplateId: z.uuid() });

export const createDocumentTemplate = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documenttemplates',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Save one of one's ePaks as a template: one of its documents (the first unless `documentId` names another) with its tags, each naming its person by place in the workflow, its signing policy, and a linked workflow template (the ePak's own when its steps have the same shape, else one made from the ePak's steps with a placeholder for each person).",
  body: z.object({
    ePakId: z.uuid(),
    documentId: z.uuid().optional(),
    name: DocumentTemplateName,
    description: TemplateDescription,
  }),
  response: DocumentTemplate,
});

/** The upload's form fields, read by the server from the multipart body before the file. */
export const DocumentTemplateUploadFields = z.object({ name: DocumentTemplateName.optional(), workflowId: z.uuid().optional() });

export const uploadDocumentTemplate = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documenttemplate/upload',
  access: 'tenant',
  action: 'document.manage',
  summary:
    'Make a template from a file (multipart field `file`, after the optional fields `name` and `workflowId`), through the document upload rules and limits. The PDF\'s own text and signature fields become its preconfigured tags.',
  bodyEncoding: 'multipart',
  body: DocumentTemplateUploadFields,
  response: DocumentTemplate,
});

export const updateDocumentTemplate = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/documenttemplates/:docTemplateId',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Change a template (its author or an admin, -11 otherwise): name, description, tags (the placement rules apply; a slot must be a place of the linked workflow), signing policy, linked workflow template (null to unlink), or its document, replaced by one of one's uploaded documents with the same pages: a landscape page where the template's is portrait is -216, any other difference in page count or page size -189.",
  params: TemplateParams,
  body: z.object({
    name: DocumentTemplateName.optional(),
    description: TemplateDescription,
    tags: z.array(Tag).max(500).optional(),
    signingPolicy: SigningPolicy.optional(),
    workflowId: z.uuid().nullable().optional(),
    documentId: z.uuid().optional(),
  }),
  maxBodyBytes: 8 * 1024 * 1024,
  response: DocumentTemplate,
});

export const deleteDocumentTemplates = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/documenttemplates',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Delete templates, all or none: each must be the caller's or the caller an admin (-11). ePaks composed from them keep their documents and tags; linked workflow templates stay.",
  body: z.object({ docTemplateIds: z.array(z.uuid()).min(1).max(100) }),
  response: z.object({ deleted: z.number().int().nonnegative() }),
});

/**
 * What export writes and a later import reads: the template, its workflow template, and the PDF
 * itself (base64) with its content address, so the file is whole on its own and its document can
 * be checked against the sha256 after a copy between instances.
 */
export const DOCUMENT_TEMPLATE_EXPORT_FORMAT = 'pakt.documentTemplate';
export const DOCUMENT_TEMPLATE_EXPORT_VERSION = 1;

export const exportDocumentTemplate = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/documenttemplate/:docTemplateId/workflowtemplate/:workflowTemplateId/export',
  access: 'tenant',
  action: 'document.manage',
  summary:
    'A JSON download of a template with a workflow template of the tenant (its linked one, usually) and the PDF as base64: { format, version, exportedOn, template, workflowTemplate, document }.',
  params: TemplateParams.extend({ workflowTemplateId: z.uuid() }),
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

export const downloadDocumentTemplate = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/documenttemplates/:docTemplateId/document',
  access: 'tenant',
  action: 'document.manage',
  summary: "A template's PDF, to preview it and place its tags.",
  params: TemplateParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

/**
 * Compose from a template in one step (the compose tab docTemplates): an ePak draft with the
 * template's document first (then any of one's own documents in `documentIds`), the steps given,
 * and the template's tags bound to the recipients at their places. Every place a tag names needs
 * a recipient (-6, issues at `steps`). The ePak records the template it came from.
 */
/**
 * An ePak as compose sends it, the documents after the template's own (which may be none).
 * `documentId`: one of one's own documents to carry the template's tags instead of the template's
 * PDF (the same form, filled in or printed again); it must have the template's pages.
 */
export const ComposeFromTemplateInput = EpakInput.omit({ documentIds: true }).extend({
  documentIds: z.array(z.uuid()).max(19).default([]),
  documentId: z.uuid().optional(),
});
export type ComposeFromTemplateInput = z.infer<typeof ComposeFromTemplateInput>;

export const composeFromDocumentTemplate = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documenttemplates/:docTemplateId/epak',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "Compose an ePak draft from a template: its document and tags, bound to the recipients given at each place of the steps, plus any of one's own documents after it (-176 for the template's own document again, or any document twice; -169 for an ePak's copy of a document). With `documentId`, the tags go on that document of one's own instead of the template's PDF: -216 for a landscape page where the template's is portrait, -189 for any other difference in pages (count, size, turn).",
  params: TemplateParams,
  body: ComposeFromTemplateInput,
  response: EpakDetail,
});
