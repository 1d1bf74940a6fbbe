import { z } from 'zod';
import { SignerStatus } from '../constants/statuses';
import { SignAction } from '../constants/workflow';
import { TagValue } from '../tags/tag';
import { type BinaryBody, defineEndpoint } from './contract';
import { EpakStatus, EpakViewer, SIGNATURE_BLOCKS_MAX_BODY_BYTES } from './epaks';
// Defined with the reasons (./reasons), which ./epaks uses for the viewer's list, so no import cycle.
import { SIGN_REASON_MAX_LENGTH } from './reasons';
import { RUBBER_STAMP_USES_MAX, RubberStampUse } from './rubber-stamps';
import { toSingleLine } from '../single-line';

/**
 * Acting on a started ePak (issue 5): a recipient signs each document (one PAdES revision per
 * document, drawn by the server from the values sent), a reviewer marks the ePak reviewed, the
 * owner stops it, and an external recipient reaches it through a signing link.
 */

const EpakParams = z.object({ ePakId: z.uuid() });
const DocumentParams = EpakParams.extend({ documentId: z.uuid() });

/** One tag's value as the signer filled it: text, a PNG/JPEG data URL, or a multiSelect's options. */
export const TagFill = z.object({ uuid: z.guid(), value: TagValue });
export type TagFill = z.infer<typeof TagFill>;

/** Where the signer signs (a place or "lat, lon"): one short line in the signature dictionary. */
export const SIGN_LOCATION_MAX_LENGTH = 200;

/** A signer's typed name: one line (it goes into the signature dictionary and mail). */
export const SIGNER_NAME_MAX_LENGTH = 120;

export const SignDocumentBody = z.object({
  /**
   * SIGN: the server seals with the tenant's seal. PRESIGN/POSTSIGN (hash-then-sign with a
   * signer's own device) are refused until a policy that uses them is configured.
   */
  action: SignAction.default('SIGN'),
  /** Values of the caller's own tags on this document; other tags are not the caller's to fill. */
  values: z.array(TagFill).max(500).default([]),
  reason: z.string().trim().max(SIGN_REASON_MAX_LENGTH).optional(),
  /** Required (non-blank) when the tenant's geolocation setting is MANDATORY (viewer.geolocation). */
  location: z.string().trim().max(SIGN_LOCATION_MAX_LENGTH).optional(),
  /**
   * Rubber stamps applied with this signature (issue 8): each onto the caller's rubber-stamp tag
   * or placed by them. Refused (-11, nothing signed) unless the tenant's flag and the caller's
   * passcode flag are on and each stamp is theirs or shared with them or a group of theirs.
   */
  rubberStamps: z.array(RubberStampUse).max(RUBBER_STAMP_USES_MAX).optional(),
  /**
   * The signer's name as they typed it (issue 22). Required (-6) when the signer's record has no
   * name (an external signer known only by address: viewer.nameRequired); otherwise it may correct
   * how their name shows in this ePak. It is what the signature's /Name, the "Who signs" list, the
   * certificate of completion and the activity log show for this place.
   */
  signerName: z
    .string()
    // One line with single spaces: "Olivia  Outsider" and "Olivia Outsider" are one name.
    .overwrite((value) => toSingleLine(value).replace(/\s+/g, ' '))
    .trim()
    .min(1)
    .max(SIGNER_NAME_MAX_LENGTH)
    .optional(),
});
export type SignDocumentBody = z.infer<typeof SignDocumentBody>;

export const SignDocumentResult = z.object({
  ePakId: z.uuid(),
  documentId: z.uuid(),
  /** 'Signed' for this document; a retried sign answers the same as the first. */
  documentStatus: z.literal('Signed'),
  /** The caller's status in their step: still Pending until every document is signed. */
  signerStatus: SignerStatus,
  epakStatus: EpakStatus,
  /** Documents of this ePak the caller has still to sign. */
  remainingDocumentIds: z.array(z.uuid()),
  /** The revision's number in this document (1 for the first signer). */
  revision: z.number().int().positive(),
});
export type SignDocumentResult = z.infer<typeof SignDocumentResult>;

export const signEpakDocument = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/sign',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'The caller signs one document in their place of the step under way: their values are checked (every required tag of theirs filled, and a location given when the tenant\'s geolocation setting is MANDATORY, -6), drawn by the server and sealed as one incremental PAdES revision. When the last document is signed the step moves on. -28 when nothing waits for the caller, -23 rejected, -72 completed, -46 deleted, -47 archived.',
  params: DocumentParams,
  body: SignDocumentBody,
  maxBodyBytes: SIGNATURE_BLOCKS_MAX_BODY_BYTES,
  response: SignDocumentResult,
});

/** What a recipient or the owner sets with POST epak/status. */
export const EPAK_STATUS_ACTIONS = ['Reviewed', 'Stopped'] as const;
export const EpakStatusAction = z.enum(EPAK_STATUS_ACTIONS);

export const setEpakStatus = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/status',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'Reviewed: a reviewer of the step under way has reviewed (view enforcement applies). Stopped: the owner stops an ePak under way; every open place becomes Skipped.',
  body: z.object({ ePakId: z.uuid(), status: EpakStatusAction, comment: z.string().trim().max(2000).optional() }),
  response: z.object({ ePakId: z.uuid(), status: EpakStatus, signerStatus: SignerStatus.nullable() }),
});

/** PUT …/document/{documentId}/{action}: what a person did with one document of an ePak. */
export const EPAK_DOCUMENT_ACTIONS = ['view'] as const;

export const actOnEpakDocument = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/epak/:epakId/document/:documentId/:action',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'view: the caller opened this document; once every document is opened the ePak is read, and a view-enforced ePak becomes eligible for action.',
  params: z.object({ epakId: z.uuid(), documentId: z.uuid(), action: z.enum(EPAK_DOCUMENT_ACTIONS) }),
  response: EpakViewer,
});

/** A signing link's token: 32 random bytes, base64url, behind a short prefix. */
export const EasyToken = z.string().regex(/^[A-Za-z0-9_-]{20,200}$/);

export const exchangeEasyToken = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:easytoken/exchange',
  access: 'public',
  summary:
    'Turns a signing link into a session that reaches only that ePak, for its recipient (-42 when the link is unknown, expired or revoked, or the ePak was deleted). The link stays good after the recipient acts, so they can come back to read and download.',
  params: z.object({ easytoken: EasyToken }),
  response: z.object({
    accessToken: z.string(),
    expiresIn: z.number().int().positive(),
    ePakId: z.uuid(),
    tenantId: z.uuid(),
    user: z.object({ userId: z.uuid(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  }),
});

/**
 * INPERSONSIGN: the host (the ePak's owner) hands their device to the signer once the signer has
 * confirmed who they are with a code mailed to them. Without `code`, a code is sent and an otpId
 * returned; with `otpId` and `code`, the answer is a short sign-auth token: a session of the
 * signer that reaches this ePak only, which the host's browser uses for the signer's part.
 */
export const authorizeInPersonSigner = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/sign/auth',
  access: 'tenant',
  action: 'epak.act',
  summary:
    'The owner starts (no code) or finishes (otpId and code) the identity check of an in-person signer of the step under way; finishing answers a sign-auth token for that signer and this ePak (-138 wrong code, -217 too many, -196 expired, -28 not pending).',
  body: z.object({
    ePakId: z.uuid(),
    recipientId: z.uuid(),
    otpId: z.uuid().optional(),
    code: z.string().trim().regex(/^\d{6}$/).optional(),
  }),
  response: z.object({
    /** Set when a code was sent. */
    otpId: z.uuid().nullable(),
    sentTo: z.string().nullable(),
    /** Set when the code was right: use as the bearer token for the signer's part. */
    signAuthToken: z.string().nullable(),
    expiresIn: z.number().int().positive(),
    signer: z.object({ userId: z.uuid(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  }),
});

/** A file attached to a started ePak (to one attachment tag, or to the ePak as a whole). */
export const EpakAttachment = z.object({
  attachmentId: z.uuid(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  documentId: z.uuid().nullable(),
  tagUuid: z.string().nullable(),
  uploadedBy: z.uuid().nullable(),
  createdOn: z.iso.datetime(),
});
export type EpakAttachment = z.infer<typeof EpakAttachment>;

/** Largest attachment without a tag limit of its own (an attachment tag's maxUpload wins). */
export const EPAK_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

export const attachToTag = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/:ePakId/document/:docId/tag/:tagId/attach',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'The signer a pending attachment tag is for uploads its file (multipart field `file`, an allowed document format, within the tag\'s maxUpload or 10 MB); a second upload replaces the first until they sign. The tag then shows the file\'s name.',
  params: z.object({ ePakId: z.uuid(), docId: z.uuid(), tagId: z.guid() }),
  bodyEncoding: 'multipart',
  response: EpakAttachment,
});

export const attachToEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak/:ePakId/attach',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'The owner, or a recipient of the step under way, attaches a supporting file to an ePak under way (multipart field `file`, 10 MB).',
  params: z.object({ ePakId: z.uuid() }),
  bodyEncoding: 'multipart',
  response: EpakAttachment,
});

export const listEpakAttachments = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epak/:ePakId/attach',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'The files attached to an ePak (its owner and its recipients).',
  params: z.object({ ePakId: z.uuid() }),
  response: z.object({ attachments: z.array(EpakAttachment) }),
});

export const downloadEpakAttachment = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epak/:ePakId/attach/:attachmentId',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'One attached file (its owner and its recipients).',
  params: z.object({ ePakId: z.uuid(), attachmentId: z.uuid() }),
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
