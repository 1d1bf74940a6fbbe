import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { derNull, encodeLength, objectIdentifier, sequence } from './der';

/** Object identifiers used by the tenant CA and the CMS signatures. */
export const OID = {
  sha256WithRsaEncryption: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  microsoftDocumentSigning: '1.3.6.1.4.1.311.10.3.12',
  documentSigning: '1.3.6.1.5.5.7.3.36',
} as const;

/**
 * The key types a tenant CA and its seal certificates can have. RSA 3072 is the default (see
 * DEFAULT_SEAL_KEY_ALGORITHM); P-256 is kept because it verifies just as well in NSS and
 * OpenSSL, and an installation that only cares about modern readers may prefer its small keys.
 */
export type SealKeyAlgorithm = 'rsa-3072' | 'ecdsa-p256';

/**
 * RSA 3072 by default: every PDF reader and every validation service (Acrobat back to its
 * oldest supported versions, the EU DSS validator, NSS, OpenSSL, Windows CryptoAPI, Java)
 * verifies RSA PKCS#1 v1.5 signatures, while ECDSA support in PDF readers arrived later and is
 * still uneven in older or embedded ones. A seal lives as long as the document, so the widest
 * verifier base wins over smaller signatures. 3072 bits is the size NIST SP 800-57 and ETSI TS
 * 119 312 give for use beyond 2030, matching the 20-year CA.
 */
export const DEFAULT_SEAL_KEY_ALGORITHM: SealKeyAlgorithm = 'rsa-3072';

const generateKeyPairAsync = promisify(generateKeyPair);

/** A fresh key pair. Asynchronous because RSA 3072 generation takes up to seconds of CPU. */
export async function generateSealKeyPair(
  algorithm: SealKeyAlgorithm,
): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  switch (algorithm) {
    case 'rsa-3072':
      return generateKeyPairAsync('rsa', { modulusLength: 3072, publicExponent: 0x10001 });
    case 'ecdsa-p256':
      return generateKeyPairAsync('ec', { namedCurve: 'P-256' });
  }
}

/** How a key signs: RSA PKCS#1 v1.5 or ECDSA, both over SHA-256. */
export type SignatureFamily = 'rsa' | 'ecdsa';

/** Bytes in the group order of the curves we accept (OpenSSL's curve names). */
const EC_ORDER_BYTES: Record<string, number> = { prime256v1: 32, secp384r1: 48, secp521r1: 66 };

/**
 * How this key signs. Keys we would not create ourselves are still accepted when they are sound
 * (a tenant may bring RSA 4096, a later HSM may hold P-384); anything else is refused rather
 * than half-supported: RSA below 2048 bits, RSA-PSS-only keys, other curves, EdDSA.
 */
export function signatureFamilyOf(key: KeyObject): SignatureFamily {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048) return 'rsa';
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve && details.namedCurve in EC_ORDER_BYTES) return 'ecdsa';
  throw new Error(
    `unsupported signing key: ${key.asymmetricKeyType ?? 'unknown'} ${details?.namedCurve ?? details?.modulusLength ?? ''}`,
  );
}

/**
 * The AlgorithmIdentifier for a SHA-256 signature by this key. sha256WithRSAEncryption carries
 * an explicit NULL parameter (RFC 4055); ecdsa-with-SHA256 has none (RFC 5758).
 */
export function signatureAlgorithmFor(key: KeyObject): Buffer {
  return signatureFamilyOf(key) === 'rsa'
    ? sequence(objectIdentifier(OID.sha256WithRsaEncryption), derNull())
    : sequence(objectIdentifier(OID.ecdsaWithSha256));
}

/** SHA-256's AlgorithmIdentifier with parameters absent, as RFC 5754 says to write it. */
export const sha256AlgorithmIdentifier = (): Buffer => sequence(objectIdentifier(OID.sha256));

/**
 * The largest signature this (public or private) key can produce, in bytes. RSA PKCS#1 v1.5
 * output is always exactly the modulus length. ECDSA is a DER SEQUENCE of two INTEGERs r and s,
 * each at most the group order's length plus one leading zero byte, so its length varies from
 * one signature to the next and we take the worst case.
 */
export function maxSignatureLength(key: KeyObject): number {
  const details = key.asymmetricKeyDetails;
  if (signatureFamilyOf(key) === 'rsa') return Math.ceil((details?.modulusLength ?? 0) / 8);
  const orderBytes = EC_ORDER_BYTES[details?.namedCurve ?? ''] ?? 0;
  const integer = 2 + orderBytes + 1;
  const content = 2 * integer;
  return 1 + encodeLength(content).length + content;
}
