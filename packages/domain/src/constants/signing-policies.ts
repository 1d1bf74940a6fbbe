import { z } from 'zod';

// All signing policies an ePak can use (spec §1).
export const SIGNING_POLICIES = [
  'ESIGNATURE',
  'QUICKSIGN',
  'SAFEMOBILE',
  'HYBRID',
  'ETOKEN',
  'INTERNAL',
  'COSIGN',
  'AADHAAR',
  'CAPI',
  'PSS',
  'QUICKSIGNNEW',
  'TRANSSPED',
  'ODPPKI',
  'ODPIDPKI',
  'DSC',
  'CERTIFIEDSIGN',
  'NEXUSPKI',
  'CLOUDDSC',
] as const;
export const SigningPolicy = z.enum(SIGNING_POLICIES);
export type SigningPolicy = z.infer<typeof SigningPolicy>;

// Policies producing a certificate-based digital signature (spec §9).
export const DIGITAL_SIGNING_POLICIES = [
  'INTERNAL',
  'SAFEMOBILE',
  'HYBRID',
  'ETOKEN',
  'CAPI',
  'AADHAAR',
  'PSS',
  'TRANSSPED',
  'DSC',
  'ODPPKI',
] as const satisfies readonly SigningPolicy[];
export const DigitalSigningPolicy = z.enum(DIGITAL_SIGNING_POLICIES);
export type DigitalSigningPolicy = z.infer<typeof DigitalSigningPolicy>;

// These policies sign once per document, so only one signature tag per signer is allowed (spec §5).
export const SINGLE_SIGNATURE_TAG_POLICIES = [
  'INTERNAL',
  'SAFEMOBILE',
  'HYBRID',
  'ETOKEN',
  'CAPI',
  'PSS',
  'TRANSSPED',
  'COSIGN',
] as const satisfies readonly SigningPolicy[];
export const SingleSignatureTagPolicy = z.enum(SINGLE_SIGNATURE_TAG_POLICIES);
export type SingleSignatureTagPolicy = z.infer<typeof SingleSignatureTagPolicy>;

const DIGITAL_SET: ReadonlySet<string> = new Set(DIGITAL_SIGNING_POLICIES);
const SINGLE_TAG_SET: ReadonlySet<string> = new Set(SINGLE_SIGNATURE_TAG_POLICIES);

export function isDigitalSigningPolicy(policy: SigningPolicy): policy is DigitalSigningPolicy {
  return DIGITAL_SET.has(policy);
}

export function supportsMultipleSignatureTags(policy: SigningPolicy): boolean {
  return !SINGLE_TAG_SET.has(policy);
}

// Capture devices for hand-drawn signatures; 'On-Screen' keeps its hyphen as sent.
export const SIGNATURE_PAD_TYPES = ['Topaz', 'On-Screen'] as const;
export const SignaturePadType = z.enum(SIGNATURE_PAD_TYPES);
export type SignaturePadType = z.infer<typeof SignaturePadType>;
