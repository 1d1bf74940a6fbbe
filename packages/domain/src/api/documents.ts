import { z } from 'zod';
import { DocumentFormat } from '../constants/ui';
import { DocumentName, DocumentSignatureState, PageGeometry } from '../documents';
import { type BinaryBody, defineEndpoint } from './contract';

/** A stored document, as lists and uploads describe it. */
export const DocumentSummary = z.object({
  documentId: z.uuid(),
  name: DocumentName,
  /** What was uploaded; images and office files are stored as the PDF made from them. */
  sourceFormat: DocumentFormat,
  /** Bytes of the stored PDF. */
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  pageCount: z.number().int().positive(),
  pages: z.array(PageGeometry),
  /** Encrypted with an empty user password: it opens without one, but signing must respect it. */
  encrypted: z.boolean(),
  /** Form fields found in it, offered as preconfigured tags. */
  formFieldCount: z.number().int().nonnegative(),
  /** The signatures it carried when uploaded, checked; null when it was not checked (uploaded before Pakt checked them). */
  signatureState: DocumentSignatureState.nullable(),
  createdOn: z.iso.datetime(),
});
export type DocumentSummary = z.infer<typeof DocumentSummary>;

const DocumentParams = z.object({ documentId: z.uuid() });

export const uploadDocument = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documents',
  access: 'tenant',
  action: 'document.manage',
  summary:
    'Upload a document (multipart field `file`): a PDF, an image (made into a PDF) or an office file (converted by LibreOffice when installed).',
  bodyEncoding: 'multipart',
  response: DocumentSummary,
});

export const DOCUMENT_PAGE_SIZE = 50;

export const listDocuments = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/documents',
  access: 'tenant',
  action: 'document.manage',
  summary: "The caller's documents in this tenant, newest first.",
  query: z.object({ page: z.coerce.number().int().min(1).default(1) }),
  response: z.object({ documents: z.array(DocumentSummary), total: z.number().int().nonnegative(), pageSize: z.number().int().positive() }),
});

export const deleteDocuments = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/documents',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Delete some of one's documents; all or none. -82 for a document a live ePak (a draft, or one in progress) was composed from: the ePak keeps its copy, so it is stopped or deleted first.",
  body: z.object({ documentIds: z.array(z.uuid()).min(1).max(100) }),
  response: z.object({ deleted: z.number().int().nonnegative() }),
});

export const mergeDocuments = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documents/merge',
  access: 'tenant',
  action: 'document.manage',
  summary: 'Make one new document of several, pages in the order given; the originals stay.',
  body: z.object({ documentIds: z.array(z.uuid()).min(2).max(50), name: DocumentName }),
  response: DocumentSummary,
});

export const renameDocument = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/document/:documentId/rename',
  access: 'tenant',
  action: 'document.manage',
  summary: 'Rename a document (-67 for characters a file name may not hold).',
  params: DocumentParams,
  body: z.object({ name: z.string().max(1000) }),
  response: DocumentSummary,
});

export const convertDocument = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/document/convert',
  access: 'tenant',
  action: 'document.manage',
  summary: 'Convert an image or office file (multipart field `file`) to PDF and answer the PDF, storing nothing.',
  bodyEncoding: 'multipart',
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

export const downloadDocument = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/documents/:documentId/download',
  access: 'tenant',
  action: 'document.manage',
  summary: 'The stored PDF of one of one\'s documents.',
  params: DocumentParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

/** A form field of the PDF, offered as a tag where it already sits (spec §7 preconfigured tags). */
export const PreconfiguredTag = z.object({
  name: z.string(),
  fieldType: z.enum(['text', 'checkbox', 'radio', 'choice', 'signature', 'button']),
  /** 1-based. */
  pageNumber: z.number().int().positive(),
  /** Relative to the page's visible box, unrotated, from its top-left corner, in points. */
  positionX: z.number(),
  positionY: z.number(),
  blockWidth: z.number().nonnegative(),
  blockHeight: z.number().nonnegative(),
  value: z.string().nullable(),
  required: z.boolean(),
  readOnly: z.boolean(),
});
export type PreconfiguredTag = z.infer<typeof PreconfiguredTag>;

export const preconfiguredTags = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/documents/:documentId/preconfiguredtags',
  access: 'tenant',
  action: 'document.manage',
  summary: "The document's own form fields, as tags placed where they are.",
  params: DocumentParams,
  response: z.object({ tags: z.array(PreconfiguredTag) }),
});
