/**
 * The CMS that goes into a PDF signature's /Contents: a detached SignedData at PAdES baseline
 * B-B (ETSI EN 319 142-1, with the CAdES attributes of ETSI EN 319 122-1), for a signature
 * dictionary with /SubFilter /ETSI.CAdES.detached.
 *
 * The work is split in three steps so that the signature itself can be made elsewhere (an HSM,
 * a remote signing service, the signer's own device) in a hash-then-sign flow:
 *   1. buildSignedAttributes: the digest of the PDF's ByteRange → the DER the signer signs;
 *   2. signAttributes: those bytes → a signature (or any external signer does this step);
 *   3. assembleSignedData: attributes + signature + certificates → the CMS to embed.
 * signDigest runs the three at once for a key we hold; maxCmsSize sizes the placeholder.
 */
import { createHash, createPrivateKey, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { OID, maxSignatureLength, sha256AlgorithmIdentifier, signatureAlgorithmFor } from './algorithms';
import { childElements, objectIdentifier, octetString, readElement, sequence, setOf, smallInteger, tlv, toDer } from './der';

/** A certificate as PEM text or DER bytes. */
export type CertificateInput = string | Uint8Array;

const SHA256_LENGTH = 32;

/**
 * Signed attributes for PAdES B-B, DER-encoded as the SET OF that gets signed:
 * - content-type = id-data (RFC 5652 requires it whenever there are signed attributes);
 * - message-digest = SHA-256 of the ByteRange bytes;
 * - signing-certificate-v2 (RFC 5035 ESS) naming the seal certificate by its SHA-256 hash and
 *   issuer/serial, so the certificate cannot be swapped for another with the same key.
 * No signing-time: PAdES forbids it (the claimed time is the signature dictionary's /M).
 */
export function buildSignedAttributes({
  digest,
  signerCertificate,
}: {
  /** SHA-256 of the bytes the /ByteRange covers. */
  digest: Uint8Array;
  signerCertificate: CertificateInput;
}): Buffer {
  if (digest.length !== SHA256_LENGTH) throw new Error(`expected a ${SHA256_LENGTH}-byte SHA-256 digest, got ${digest.length} bytes`);
  const certificateDer = toDer(signerCertificate);
  const { issuer, serialNumber } = issuerAndSerial(certificateDer);

  // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial }; DER
  // leaves out a value equal to its DEFAULT, so SHA-256 is not written.
  const issuerSerial = sequence(
    sequence(tlv(0xa4, issuer)), // GeneralNames { directoryName [4] Name } (explicit: Name is a CHOICE)
    serialNumber,
  );
  const essCertIdV2 = sequence(octetString(createHash('sha256').update(certificateDer).digest()), issuerSerial);
  const signingCertificateV2 = sequence(sequence(essCertIdV2)); // { certs SEQUENCE OF ESSCertIDv2 }

  return setOf([
    attribute(OID.contentType, objectIdentifier(OID.data)),
    attribute(OID.messageDigest, octetString(digest)),
    attribute(OID.signingCertificateV2, signingCertificateV2),
  ]);
}

/**
 * Signs DER signed attributes with SHA-256: RSA PKCS#1 v1.5 for an RSA key, ECDSA (DER
 * Ecdsa-Sig-Value, what CMS carries) for an EC key.
 */
export function signAttributes({
  signedAttributesDer,
  privateKeyPem,
}: {
  signedAttributesDer: Uint8Array;
  /** PKCS#8 (or PKCS#1/SEC1) PEM, or a KeyObject already loaded. */
  privateKeyPem: string | KeyObject;
}): Buffer {
  assertSignedAttributes(signedAttributesDer);
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  signatureAlgorithmFor(key); // refuses key types we cannot describe in the SignerInfo
  return sign('sha256', signedAttributesDer, key);
}

/**
 * Assembles the ContentInfo(SignedData) to embed in /Contents: version 1, SHA-256, detached (no
 * eContent), certificates = the signer's then the chain (root last; the root may be left out,
 * a verifier must trust it independently anyway), one SignerInfo identified by issuer and serial.
 *
 * The signature is checked against the signer certificate before anything is assembled, since
 * it may come from outside (hash-then-sign) and a bad one, once sealed into a PDF, stays there.
 */
export function assembleSignedData({
  signedAttributesDer,
  signature,
  signerCertificate,
  chain = [],
}: {
  signedAttributesDer: Uint8Array;
  signature: Uint8Array;
  signerCertificate: CertificateInput;
  chain?: CertificateInput[];
}): Buffer {
  assertSignedAttributes(signedAttributesDer);
  const certificateDer = toDer(signerCertificate);
  const publicKey = new X509Certificate(certificateDer).publicKey;
  if (!verify('sha256', signedAttributesDer, publicKey, signature)) {
    throw new Error('assembleSignedData: the signature does not verify with the signer certificate');
  }
  const chainDer = chain.map((c) => {
    const der = toDer(c);
    new X509Certificate(der); // throws on anything that is not a certificate, before it is sealed in
    return der;
  });
  return encodeContentInfo({
    signedAttributesDer: Buffer.from(signedAttributesDer),
    signature: Buffer.from(signature),
    certificateDer,
    chainDer,
    signatureAlgorithm: signatureAlgorithmFor(publicKey),
  });
}

/** The three steps at once, for a key we hold. */
export function signDigest({
  digest,
  key,
  certificate,
  chain = [],
}: {
  digest: Uint8Array;
  key: string | KeyObject;
  certificate: CertificateInput;
  chain?: CertificateInput[];
}): Buffer {
  const signedAttributesDer = buildSignedAttributes({ digest, signerCertificate: certificate });
  const signature = signAttributes({ signedAttributesDer, privateKeyPem: key });
  return assembleSignedData({ signedAttributesDer, signature, signerCertificate: certificate, chain });
}

/**
 * Margin on top of the exact worst case computed below. Our own CMS never needs it (see
 * maxCmsSize); it is there for a CMS made by an external signer on the hash-then-sign path,
 * which may encode things its own way: OpenSSL, for one, adds a cmsAlgorithmProtection attribute
 * (about 70 bytes) and some signers add signing-time or SMIMECapabilities (a few hundred). 2 KB
 * of placeholder zeros (the hex doubles it) per signature is a fair price for not failing then.
 */
export const CMS_SIZE_MARGIN = 1024;

/**
 * An upper bound, in bytes, of the DER CMS signDigest/assembleSignedData produce for this
 * certificate and chain: what the PDF writer reserves for /Contents (as 2× hex digits).
 *
 * Computed, not guessed: a dry-run CMS is assembled from the real certificates with a zero
 * digest and a signature of the greatest length the key can produce (every other part has a
 * fixed size: the digest is always 32 bytes, the rest is fixed by the certificates), which is an
 * exact upper bound for our CMS; CMS_SIZE_MARGIN is then added for externally made ones.
 */
export function maxCmsSize({ certificate, chain = [] }: { certificate: CertificateInput; chain?: CertificateInput[] }): number {
  const certificateDer = toDer(certificate);
  const publicKey = new X509Certificate(certificateDer).publicKey;
  const signedAttributesDer = buildSignedAttributes({ digest: Buffer.alloc(SHA256_LENGTH), signerCertificate: certificateDer });
  const dryRun = encodeContentInfo({
    signedAttributesDer,
    signature: Buffer.alloc(maxSignatureLength(publicKey), 0xff),
    certificateDer,
    chainDer: chain.map(toDer),
    signatureAlgorithm: signatureAlgorithmFor(publicKey),
  });
  return dryRun.length + CMS_SIZE_MARGIN;
}

function encodeContentInfo(parts: {
  signedAttributesDer: Buffer;
  signature: Buffer;
  certificateDer: Buffer;
  chainDer: Buffer[];
  signatureAlgorithm: Buffer;
}): Buffer {
  const { issuer, serialNumber } = issuerAndSerial(parts.certificateDer);
  const signerInfo = sequence(
    smallInteger(1), // version 1: the signer is identified by issuerAndSerialNumber
    sequence(issuer, serialNumber),
    sha256AlgorithmIdentifier(),
    // signedAttrs [0] IMPLICIT: the signed SET with its tag changed from 0x31 to 0xA0 and every
    // other byte identical, which is what verifiers reverse before checking the signature.
    Buffer.concat([Buffer.from([0xa0]), parts.signedAttributesDer.subarray(1)]),
    parts.signatureAlgorithm,
    octetString(parts.signature),
  );
  // The chain may repeat the signer (callers pass what they have); embed each certificate once.
  const certificates: Buffer[] = [];
  for (const der of [parts.certificateDer, ...parts.chainDer]) {
    if (!certificates.some((c) => c.equals(der))) certificates.push(der);
  }
  const signedData = sequence(
    // version 1: only X.509 certificates, eContentType id-data, SignerInfo version 1 (RFC 5652 5.1)
    smallInteger(1),
    tlv(0x31, sha256AlgorithmIdentifier()), // digestAlgorithms: one element, already in DER order
    sequence(objectIdentifier(OID.data)), // encapContentInfo without eContent: detached
    // certificates [0] IMPLICIT CertificateSet, each certificate byte for byte as issued. Kept in
    // signer-first order rather than DER-sorted: the CMS outside signedAttrs is BER, every
    // verifier accepts it, and some simple ones take the first certificate as the signer's.
    tlv(0xa0, ...certificates),
    tlv(0x31, signerInfo),
  );
  return sequence(objectIdentifier(OID.signedData), tlv(0xa0, signedData));
}

/** Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue } */
function attribute(type: string, value: Buffer): Buffer {
  return sequence(objectIdentifier(type), setOf([value]));
}

/** The issuer Name and serialNumber INTEGER TLVs of a certificate, exactly as encoded in it. */
function issuerAndSerial(certificateDer: Buffer): { issuer: Buffer; serialNumber: Buffer } {
  const certificate = readElement(certificateDer);
  const [tbs] = childElements(certificate);
  if (certificate.tag !== 0x30 || tbs?.tag !== 0x30) throw new Error('not an X.509 certificate');
  const fields = childElements(tbs);
  // TBSCertificate ::= SEQUENCE { version [0] EXPLICIT DEFAULT v1, serialNumber, signature, issuer, ... }
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const serialNumber = fields[offset];
  const issuer = fields[offset + 2];
  if (serialNumber?.tag !== 0x02 || issuer?.tag !== 0x30) throw new Error('not an X.509 certificate');
  return { issuer: issuer.raw, serialNumber: serialNumber.raw };
}

function assertSignedAttributes(der: Uint8Array): void {
  if (der[0] !== 0x31) throw new Error('signed attributes must be the DER SET from buildSignedAttributes');
}
