import { z } from 'zod';
import { SigningPolicy } from '../constants/signing-policies';
import { SignerStatus, UserType } from '../constants/statuses';
import { GeolocationType } from '../constants/ui';
import { EmailAddress } from '../constants/validation';
import { WorkflowStateType } from '../constants/workflow';
import { DocumentSignatureState, PageGeometry } from '../documents';
import { singleLineText } from '../single-line';
import { Tag } from '../tags/tag';
import { defineEndpoint, type BinaryBody } from './contract';
import { SigningReason } from './reasons';
import { CeremonyRubberStamps } from './rubber-stamps';
import { RecipientVerification } from './recipient-verification';

/**
 * ePaks as composed (issue 4): a draft holds its documents, its steps with concrete recipients
 * and, per document, its tags. Starting and running it belongs to the workflow engine.
 */
export const EPAK_STATUSES = ['Draft', 'InProgress', 'Completed', 'Rejected', 'Stopped', 'Expired'] as const;
export const EpakStatus = z.enum(EPAK_STATUSES);
export type EpakStatus = z.infer<typeof EpakStatus>;

const Email = z.string().trim().toLowerCase().pipe(EmailAddress);

export const EpakStepInput = z.object({
  workflowStateId: z.uuid(),
  recipients: z
    .array(
      z.object({
        email: Email,
        /**
         * The composer's choice of signer verification for this recipient (spec §9): heeded only when
         * the tenant's mode is a DefaultSelective one, and only for a signing step; left out, the
         * mode's default (signerVerificationChoice).
         */
        verify: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(50),
});

export const EpakInput = z.object({
  /** One line: it goes into mail subjects (line breaks there would be header injection). */
  subject: singleLineText(200),
  message: z.string().trim().max(4000).optional(),
  /**
   * The caller's documents, in the order the ePak shows them. At least one: none is refused by the
   * server with -109 (no new document attached) rather than here, so the code says what is missing.
   */
  documentIds: z.array(z.uuid()).max(20),
  steps: z.array(EpakStepInput).min(1).max(30),
  signingPolicy: SigningPolicy.default('ESIGNATURE'),
  /** The template the steps came from, if any (kept for reference and search). */
  workflowId: z.uuid().optional(),
  expiresOn: z.iso.datetime().optional(),
  notificationStartDate: z.iso.datetime().optional(),
  /** Left out: the tenant's view-enforce option decides (and decides anyway when it hides the choice). */
  viewEnforced: z.boolean().optional(),
});
export type EpakInput = z.infer<typeof EpakInput>;

export const EpakRecipient = z.object({
  recipientId: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: UserType,
  /** Where this person stands (spec §4 signer statuses); Pending until they act. */
  status: SignerStatus,
  /** They confirm a one-time code before signing or delegating (signer verification); left out by older answers: no. */
  verificationRequired: z.boolean().optional(),
});
export type EpakRecipient = z.infer<typeof EpakRecipient>;

/**
 * What the caller may do with the ePak they are looking at: its owner, a recipient of the step
 * under way, or someone who acted before. `eligibleForAction` is the view-enforcement rule of
 * spec §5: true when the ePak is not viewEnforced, or the caller has read it (opened every
 * document).
 */
export const EpakViewer = z.object({
  isOwner: z.boolean(),
  /** The caller's place in the step under way when they have one, else their latest place. */
  recipientId: z.uuid().nullable(),
  stepOrder: z.number().int().positive().nullable(),
  stepType: WorkflowStateType.nullable(),
  status: SignerStatus.nullable(),
  /** Something waits for the caller now (their status is Pending in the step under way). */
  canAct: z.boolean(),
  isRead: z.boolean(),
  eligibleForAction: z.boolean(),
  viewedDocumentIds: z.array(z.uuid()),
  /** The documents the caller has already signed in their place (a retried sign is a no-op). */
  signedDocumentIds: z.array(z.uuid()),
  starred: z.boolean(),
  /**
   * The ePak's tenant's geolocation setting in force (spec §9): whether the signer is asked where
   * they sign (OPTIONAL) or must say (MANDATORY). Carried here because a signing-link session
   * cannot read its tenant's configuration.
   */
  geolocation: GeolocationType,
  /**
   * The ePak's tenant's enabled signing reasons, the default first, for the ceremony's picker.
   * Carried here for the same reason as geolocation: a signing-link session reaches only its ePak.
   */
  reasons: z.array(SigningReason),
  /**
   * The rubber-stamp chooser (issue 8, spec §6): whether the caller may apply a stamp when they
   * sign here, and which. Left out by older answers, read as not available.
   */
  rubberStamps: CeremonyRubberStamps.optional(),
  /**
   * Signer verification (issue 22, spec §9): whether the caller's place must confirm a one-time
   * code before signing or delegating, whether it has, and where a code goes (masked). Left out
   * by older answers, read as nothing required (NO_VERIFICATION).
   */
  verification: RecipientVerification.optional(),
  /**
   * The caller's name as this ePak shows it: the name they typed when they signed here, else the
   * name on their record; null when their record has no name (an external signer known only by
   * address). `nameRequired`: the ceremony must ask for their name before they sign (issue 22).
   */
  signerName: z.string().nullable().default(null),
  nameRequired: z.boolean().default(false),
});
export type EpakViewer = z.infer<typeof EpakViewer>;

export const EpakDetail = z.object({
  ePakId: z.uuid(),
  subject: z.string(),
  message: z.string().nullable(),
  status: EpakStatus,
  signingPolicy: SigningPolicy,
  workflowId: z.uuid().nullable(),
  documents: z.array(
    z.object({
      /** The ePak's own copy: its id is what signatureblocks are addressed by. */
      documentId: z.uuid(),
      sourceDocumentId: z.uuid().nullable(),
      name: z.string(),
      pageCount: z.number().int().positive(),
      pages: z.array(PageGeometry),
      /** Signers' revisions appended so far (0 for the file as composed). */
      revisions: z.number().int().nonnegative().default(0),
      /** The signatures the uploaded file carried, as checked at upload (null: not checked). */
      signatureState: DocumentSignatureState.nullable().default(null),
    }),
  ),
  steps: z.array(
    z.object({
      order: z.number().int().positive(),
      workflowStateId: z.uuid(),
      name: z.string(),
      type: WorkflowStateType,
      recipients: z.array(EpakRecipient),
    }),
  ),
  signerCount: z.number().int().nonnegative(),
  /** The order of the step under way; null for a draft and once the ePak has ended. */
  currentStep: z.number().int().positive().nullable(),
  expiresOn: z.iso.datetime().nullable(),
  notificationStartDate: z.iso.datetime().nullable(),
  viewEnforced: z.boolean(),
  ownerId: z.uuid(),
  ownerName: z.string().default(''),
  createdOn: z.iso.datetime(),
  modifiedOn: z.iso.datetime(),
  viewer: EpakViewer.optional(),
});
export type EpakDetail = z.infer<typeof EpakDetail>;

export const createEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epak',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'Compose an ePak as a draft: documents, steps with recipients (an unknown address becomes an invited external user unless the tenant skips new users). -109 without a document, -176 for a document given twice, -169 for the id of an ePak\'s own copy of a document rather than one of the caller\'s documents.',
  body: EpakInput,
  response: EpakDetail,
});

const EpakParams = z.object({ ePakId: z.uuid() });

export const getEpak = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'An ePak the caller owns or is a recipient of, with what the caller may do with it (viewer); anyone else is told it does not exist.',
  params: EpakParams,
  response: EpakDetail,
});

const BlockParams = EpakParams.extend({ documentId: z.uuid() });
const TagsBody = z.object({ tags: z.array(Tag).max(2000) });

/**
 * Tags carry their images inline (letterheads up to 500 KB, image tags up to their maxUpload) as
 * data URLs, a third larger than the bytes: a few of them pass the server's 1 MB default.
 */
export const SIGNATURE_BLOCKS_MAX_BODY_BYTES = 16 * 1024 * 1024;

export const getSignatureBlocks = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/signatureblocks',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'The tags placed on one document of an ePak (its owner and its recipients).',
  params: BlockParams,
  response: TagsBody,
});

export const createSignatureBlocks = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/signatureblocks',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'Place the tags of one document of a draft, replacing what was there; the placement rules are checked again here (issue per tag with its message key).',
  params: BlockParams,
  body: TagsBody,
  maxBodyBytes: SIGNATURE_BLOCKS_MAX_BODY_BYTES,
  response: TagsBody,
});

export const updateSignatureBlocks = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/signatureblocks',
  access: 'tenant',
  action: 'epak.compose',
  summary: 'Save the tags of one document of a draft again (same rules as placing them).',
  params: BlockParams,
  body: TagsBody,
  maxBodyBytes: SIGNATURE_BLOCKS_MAX_BODY_BYTES,
  response: TagsBody,
});

export const downloadEpakDocument = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/download',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary: 'The current PDF of one document of an ePak, every signer\'s revision included (its owner and its recipients).',
  params: BlockParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

/** Widths a page picture may be asked for, in device pixels (the server keeps a few per page). */
export const PAGE_PREVIEW_WIDTHS = [360, 480, 640, 800, 960, 1280] as const;

export const previewEpakDocumentPage = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/pages/:page/preview',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'A PNG of one page of the current file of a document, drawn on the server at one of a few widths, shown to a signer while the PDF itself loads (same readers as the download). -6 for a page the document does not have, -228 when the page cannot be drawn.',
  params: BlockParams.extend({ page: z.coerce.number().int().min(1).max(100_000) }),
  query: z.object({ width: z.coerce.number().pipe(z.literal(PAGE_PREVIEW_WIDTHS)) }),
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

export const startEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/start',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'Send a draft: its tags are checked again with every rule of its signing policy (-6, -49), the signers the tags are for must be the signers of its steps (-107), every signer needs a signature field (-62, naming who lacks one), and a draft without documents is -109.',
  params: EpakParams,
  response: EpakDetail,
});

export const rejectEpak = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/reject',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'The caller, a recipient of the step under way, rejects the ePak with a comment: it ends for everyone (-28 when nothing waits for the caller, -23 once rejected, -72 once completed).',
  params: EpakParams,
  body: z.object({ comment: z.string().trim().min(1).max(2000) }),
  response: z.object({ ePakId: z.uuid(), status: EpakStatus }),
});

/** One person the compose form may offer for an address it is typing (spec §5 signer input). */
export const DirectoryUser = z.object({
  userId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: UserType,
});
export type DirectoryUser = z.infer<typeof DirectoryUser>;

/** Autocomplete starts at 2 characters (spec §5); the form waits 200 ms between keystrokes. */
export const DIRECTORY_SEARCH_MIN_LENGTH = 2;
export const DIRECTORY_SEARCH_DEBOUNCE_MS = 200;

export const searchDirectory = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/users',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    'People of this tenant whose name or address starts with what is typed (at least 2 characters), for the recipient fields; disabled members are left out.',
  query: z.object({ q: z.string().trim().min(DIRECTORY_SEARCH_MIN_LENGTH).max(100), limit: z.coerce.number().int().min(1).max(20).default(10) }),
  response: z.object({ users: z.array(DirectoryUser) }),
});
