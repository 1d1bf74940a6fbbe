import { z } from 'zod';
import { type BinaryBody, defineEndpoint } from './contract';

/**
 * Letterhead templates (spec §7 "GET, POST and DELETE /msbapi/v1/letterheadtemplate", §5 upload
 * rules, §9 the compose tab letterheadTemplates). A tenant's templates are shared by everyone in
 * it who composes: a letterhead is the organisation's paper, not one person's. Whoever uploaded
 * one, or an admin, deletes it.
 */

/** The two formats a letterhead is stored in, judged by the file's first bytes. */
export const LetterheadContentType = z.enum(['image/png', 'image/jpeg']);
export type LetterheadContentType = z.infer<typeof LetterheadContentType>;

/**
 * The largest side, in px, a letterhead image may have. A 500 KB PNG can still unpack to a huge
 * bitmap; sealing decodes it, so its size is bounded here (a 300 dpi A4-wide banner is ~2500 px).
 */
export const LETTERHEAD_MAX_SIDE_PX = 8000;

export const LetterheadTemplate = z.object({
  letterHeadDocId: z.uuid(),
  name: z.string(),
  contentType: LetterheadContentType,
  /** Bytes of the stored image. */
  size: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Who uploaded it; null once they have left the instance. */
  ownerId: z.uuid().nullable(),
  ownerName: z.string().nullable(),
  /** Whether the caller may delete it: its uploader, or an admin of the tenant. */
  deletable: z.boolean(),
  createdOn: z.iso.datetime(),
});
export type LetterheadTemplate = z.infer<typeof LetterheadTemplate>;

const LetterheadParams = z.object({ letterHeadDocId: z.uuid() });

export const listLetterheadTemplates = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/letterheadtemplate',
  access: 'tenant',
  action: 'document.manage',
  summary: "The tenant's letterhead templates, newest first.",
  response: z.object({ letterheads: z.array(LetterheadTemplate) }),
});

export const uploadLetterheadTemplate = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/letterheadtemplate',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Upload a letterhead (multipart field `file`, one file): a PNG or JPEG by its first bytes, at most 500 KB. Larger: -142 with message maxSizeExceeded; any other kind: -6 'Please select image in jpg/png/jpeg'.",
  bodyEncoding: 'multipart',
  response: LetterheadTemplate,
});

export const deleteLetterheadTemplate = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/letterheadtemplate/:letterHeadDocId',
  access: 'tenant',
  action: 'document.manage',
  summary: "Delete a letterhead template: one's own, or any of the tenant's for an admin (-11 otherwise). ePaks that used it keep their copy.",
  params: LetterheadParams,
  response: z.object({ deleted: z.literal(true) }),
});

export const downloadLetterheadTemplate = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/letterheadtemplate/:letterHeadDocId/image',
  access: 'tenant',
  action: 'document.manage',
  summary: "A letterhead template's image bytes (PNG or JPEG), for thumbnails and to put on a letterHead tag.",
  params: LetterheadParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
