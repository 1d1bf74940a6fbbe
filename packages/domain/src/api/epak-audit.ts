import { z } from 'zod';
import { SignerStatus } from '../constants/statuses';
import { type BinaryBody, defineEndpoint } from './contract';
import { EpakStatus } from './epaks';

/**
 * An ePak's audit trail (issue 5): its activity log, hash-chained so an edited entry shows, and
 * the download of its documents with the sealed certificate of completion once it has ended.
 */

const EpakParams = z.object({ ePakId: z.uuid() });

/** A SHA-256 as lowercase hex. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A document's file before and after what the entry records (a signer's revision). */
export const ActivityDocumentHashes = z.object({
  documentId: z.string(),
  name: z.string().nullable(),
  before: Sha256Hex.nullable(),
  after: Sha256Hex.nullable(),
});
export type ActivityDocumentHashes = z.infer<typeof ActivityDocumentHashes>;

/**
 * What an entry may show of what it recorded: comments, document hashes and status changes.
 * Everything else stored with it (internal ids of mail jobs, anything secret) stays on the
 * server; the hash covers the whole stored entry, so it can be checked there only (chainValid).
 */
export const ActivityDetails = z.object({
  comment: z.string().optional(),
  reason: z.string().optional(),
  documents: z.array(ActivityDocumentHashes).optional(),
  /** The ePak's status when this entry changed it (Completed, Rejected, Stopped…). */
  status: EpakStatus.optional(),
  /** The actor's own status when this entry changed it (Signed, Reviewed…). */
  signerStatus: SignerStatus.optional(),
});
export type ActivityDetails = z.infer<typeof ActivityDetails>;

export const ActivityEntry = z.object({
  seq: z.number().int().positive(),
  at: z.iso.datetime(),
  /** composed, started, signed, reviewed, rejected… (new kinds may appear). */
  action: z.string(),
  /** Null for what the system did (an expiry) or for a person since removed. */
  actor: z.object({ userId: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  details: ActivityDetails,
  /** The address the actor acted from: shown to the ePak's owner only, null for anyone else. */
  ip: z.string().nullable(),
  /** Null for entries written before the log was chained. */
  hash: Sha256Hex.nullable(),
  prevHash: Sha256Hex.nullable(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const EpakActivity = z.object({
  entries: z.array(ActivityEntry),
  /** Every entry's hash recomputed and every link checked, on the server, at this call. */
  chainValid: z.boolean(),
});
export type EpakActivity = z.infer<typeof EpakActivity>;

export const getEpakActivity = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/activity',
  access: 'tenant',
  action: 'epak.act',
  signingLink: false,
  summary:
    "What happened to an ePak, in order, each entry with its hash and its predecessor's, and whether the chain verifies (its owner and its recipients; IP addresses for its owner only).",
  params: EpakParams,
  response: EpakActivity,
});

/** The certificate's name inside a download zip. */
export const CERTIFICATE_FILE_NAME = 'certificate-of-completion.pdf';

export const downloadEpak = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/download',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    'The ePak\'s files: with one document and the ePak not Completed, that document\'s current PDF; otherwise a zip of every document\'s current PDF, with the sealed certificate of completion once the ePak has ended (its owner and its recipients).',
  params: EpakParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
