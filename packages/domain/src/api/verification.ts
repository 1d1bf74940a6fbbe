import { z } from 'zod';
import { DocumentSignatureState } from '../documents';
import { type BinaryBody, defineEndpoint } from './contract';

/**
 * Public verification (issue 20): anyone drops a PDF on /verify, signed in or not, and gets a
 * report of its signatures and of what each later revision changed. The file is read in the
 * sandbox under the limits of uploads and never stored. See docs/verification.md for what is
 * checked and what cannot be known.
 */

/** Who vouches for a signer's certificate, as far as this install can tell. */
export const CertificateAnchor = z.enum([
  /** Issued by the certificate authority of one of this install's tenants. */
  'thisInstall',
  /** Issued by someone else: this install cannot say whether to trust them. */
  'other',
  /** No certificate could be read. */
  'none',
]);
export type CertificateAnchor = z.infer<typeof CertificateAnchor>;

export const VerifiedSignature = DocumentSignatureState.shape.signatures.element.extend({
  /** The signer certificate's subject and issuer, as distinguished names. */
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  anchor: CertificateAnchor,
  /** The tenant whose certificate authority issued it, when `anchor` is thisInstall. */
  anchorTenant: z.string().nullable(),
  /** The revision (1-based) this signature ends: what it covers is that revision and those before. */
  revision: z.number().int().positive().nullable(),
});
export type VerifiedSignature = z.infer<typeof VerifiedSignature>;

/** What a revision changed, page by page: the kind, whether the rules allow it after a signature, and why. */
export const RevisionChange = z.object({
  kind: z.enum(['pageContent', 'pageResources', 'newPage', 'removedPage', 'annotationAdded', 'annotationChanged', 'annotationRemoved', 'formFieldFilled', 'formFieldChanged', 'signatureAdded', 'other']),
  /** 1-based page, where the change is on one. */
  page: z.number().int().positive().nullable(),
  /** The field or annotation it concerns. */
  name: z.string().nullable(),
  /** Allowed after a signature: by the certification's permissions (DocMDP) or, without one, the ordinary "fill in and sign" rules. */
  allowed: z.boolean(),
  detail: z.string(),
});
export type RevisionChange = z.infer<typeof RevisionChange>;

/**
 * Where a page looks different after a revision: the box of the changed pixels in page points,
 * and the area as it looked before and after (PNG data URLs, small renders), when the page could
 * be rendered here.
 */
export const ChangedRegion = z.object({
  page: z.number().int().positive(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  before: z.string().startsWith('data:image/png;base64,').max(2_000_000).nullable(),
  after: z.string().startsWith('data:image/png;base64,').max(2_000_000).nullable(),
});
export type ChangedRegion = z.infer<typeof ChangedRegion>;

export const VerifiedRevision = z.object({
  /** 1-based, in file order. */
  number: z.number().int().positive(),
  /** Its last byte's offset + 1. */
  endOffset: z.number().int().nonnegative(),
  /** The signature whose bytes end here (its field name), if any. */
  signedBy: z.string().nullable(),
  /** What it changed against the revision before; empty for the first. */
  changes: z.array(RevisionChange),
  /** Where its pages look different from the revision before, as rendered (empty when nothing shows, or nothing could be rendered). */
  regions: z.array(ChangedRegion).max(20).default([]),
});
export type VerifiedRevision = z.infer<typeof VerifiedRevision>;

/** The known forgery classes of PDF signatures (the "PDF insecurity" studies), as this file shows them. */
export const ForgeryWarning = z.object({
  kind: z.enum(['incrementalSaving', 'signatureWrapping', 'universalForgery', 'shadowHide', 'shadowReplace', 'shadowHideAndReplace']),
  /** The signature it concerns (field name), when one. */
  signature: z.string().nullable(),
  detail: z.string(),
});
export type ForgeryWarning = z.infer<typeof ForgeryWarning>;

/** When the file is a Pakt document of this install: what its record says (nothing more than the file's holder may know). */
export const PaktRecord = z.object({
  tenantName: z.string(),
  subject: z.string(),
  status: z.string(),
  completedOn: z.iso.datetime().nullable(),
  signers: z.array(z.string()),
  /** The file is the ePak's document as it stands now (final), or an earlier revision of it. */
  matches: z.enum(['current', 'earlier']),
  /** The ePak's activity log still chains, and records this file's hash. */
  auditChainValid: z.boolean(),
});
export type PaktRecord = z.infer<typeof PaktRecord>;

export const VerificationReport = z.object({
  fileName: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  /**
   * valid: signed, every signature intact and the changes after each allowed; changed: intact,
   * but something not allowed came after a signature; invalid: a signature does not hold;
   * unsigned: no signature; unknown: a signature of a kind that cannot be checked here.
   */
  verdict: z.enum(['valid', 'changed', 'invalid', 'unsigned', 'unknown']),
  certificationLevel: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  signatures: z.array(VerifiedSignature),
  revisions: z.array(VerifiedRevision),
  warnings: z.array(ForgeryWarning),
  pakt: PaktRecord.nullable(),
  checkedOn: z.iso.datetime(),
});
export type VerificationReport = z.infer<typeof VerificationReport>;

export const verifyDocument = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/verify',
  access: 'public',
  summary:
    'Verify a PDF (multipart field `file`), signed in or not: each signature (intact, certificate, who vouches for it), each revision and what it changed, the known forgery classes, and whether it is a Pakt document of this install. The file is read in the sandbox under the upload limits and not stored; -59 when it is not a readable PDF.',
  bodyEncoding: 'multipart',
  response: VerificationReport,
});

/**
 * The QR code of a certificate of completion: `/verify?record=<token>`, the token being the ePak,
 * the digest of its final documents and this install's code over both (so it cannot be forged or
 * pointed at another ePak). Opening it shows the public record below and asks for the file, whose
 * SHA-256 the browser compares with the record's without sending the file anywhere.
 */
export const VERIFY_RECORD_PARAM = 'record';

export const PublicVerificationRecord = z.object({
  tenantName: z.string(),
  status: z.string(),
  completedOn: z.iso.datetime().nullable(),
  /** The SHA-256 of each document as it stands at the end, in ePak order. */
  documents: z.array(z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  signerCount: z.number().int().nonnegative(),
  /** Shown only when the tenant allows it (setting publicRecordShowsNames); null otherwise. */
  subject: z.string().nullable(),
  signers: z.array(z.string()).nullable(),
});
export type PublicVerificationRecord = z.infer<typeof PublicVerificationRecord>;

export const verifyQrData = defineEndpoint({
  method: 'GET',
  path: '/msbapi/public/verifyQrData',
  access: 'public',
  summary:
    "The public record behind a certificate's QR code (`data`: the token of its URL): the tenant, status, completion time, each final document's SHA-256 and how many signed; the subject and signers' names only where the tenant allows. A token this install did not make answers 404.",
  query: z.object({ data: z.string().min(1).max(400) }),
  response: PublicVerificationRecord,
});

export const verifyDocumentReport = defineEndpoint({
  method: 'POST',
  path: '/msbapi/public/verify/report',
  access: 'public',
  summary:
    "The same check as verifyDocument (multipart field `file`), answered as a PDF report sealed by the install's own seal ('Pakt verification service'), for keeping or passing on. The file is not stored.",
  bodyEncoding: 'multipart',
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
