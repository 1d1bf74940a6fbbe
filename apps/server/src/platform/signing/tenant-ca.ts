/**
 * Each tenant gets its own small PKI: a self-signed root ("<tenant> Pakt CA") created with the
 * tenant, and a seal certificate ("<tenant> document seal") issued by it, whose key makes the
 * PAdES signature sealed into every signed step. A relying party that trusts the tenant's root
 * (imports it into Acrobat, NSS, Windows) then sees every Pakt signature of that tenant as
 * trusted, and nothing of another tenant's.
 *
 * Keys come back as PKCS#8 PEM strings for the caller to store. They are NOT encrypted here:
 * encrypting them at rest (and keeping the CA key away from the seal key if it wants to) is the
 * caller's business, because only the caller knows where its key-encryption key lives.
 */
import { createHash, createPrivateKey, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  KeyIdentifier,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectKeyIdentifier,
} from '@peculiar/asn1-x509';
import { DEFAULT_SEAL_KEY_ALGORITHM, OID, generateSealKeyPair, signatureAlgorithmFor, type SealKeyAlgorithm } from './algorithms';
import { sequence, tlv, toPem } from './der';

/** A certificate and its private key, both PEM, as the caller stores them. */
export interface TenantCertificate {
  certificatePem: string;
  /** Unencrypted PKCS#8: encrypt it before it touches the database or a disk. */
  privateKeyPkcs8Pem: string;
}

const CA_VALIDITY_YEARS = 20;
const SEAL_VALIDITY_YEARS = 3;
/**
 * notBefore is set an hour in the past so that a verifier whose clock runs a little behind ours
 * does not see a certificate that is "not yet valid" on a document sealed seconds after issue.
 */
const BACKDATE_MS = 60 * 60 * 1000;
/** X.520 upper bounds: ub-common-name and ub-organization-name are both 64 characters. */
const UB_NAME = 64;

/**
 * Extended key usages of the seal certificate. NSS (pdfsig, LibreOffice, Firefox-based tools)
 * checks PDF signers for its "email signer" usage, which demands id-kp-emailProtection once an
 * EKU extension is present; Acrobat accepts emailProtection or Microsoft Document Signing;
 * id-kp-documentSigning (RFC 9336) is the purpose-made standard one newer validators look for.
 * Having all three costs nothing and lets each verifier find the one it wants.
 */
const SEAL_EXTENDED_KEY_USAGES = [OID.documentSigning, OID.microsoftDocumentSigning, OID.emailProtection];

/** Creates a tenant's root CA. Slow for RSA (key generation): call it once per tenant. */
export async function createTenantCa({
  tenantName,
  now = new Date(),
  keyAlgorithm = DEFAULT_SEAL_KEY_ALGORITHM,
}: {
  tenantName: string;
  now?: Date;
  keyAlgorithm?: SealKeyAlgorithm;
}): Promise<TenantCertificate> {
  const { publicKey, privateKey } = await generateSealKeyPair(keyAlgorithm);
  const spki = subjectPublicKeyInfo(publicKey);
  const keyId = keyIdentifier(spki);
  const name = tenantDistinguishedName(tenantName, ' Pakt CA');
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const notAfter = addYears(now, CA_VALIDITY_YEARS);

  const certificateDer = signCertificate({
    subject: name,
    issuer: name,
    spki,
    notBefore,
    notAfter,
    signingKey: privateKey,
    extensions: [
      // pathLen 0: the tenant CA issues seal certificates only, never another CA.
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: true, pathLenConstraint: 0 })),
      extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)),
      extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyId)),
    ],
  });
  return {
    certificatePem: toPem('CERTIFICATE', certificateDer),
    privateKeyPkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * Issues the tenant's document seal certificate from its CA. The key type defaults to the
 * CA's. Validity is three years, cut short at the CA's own expiry so a seal never outlives the
 * root that vouches for it.
 */
export async function issueSealCertificate({
  ca,
  tenantName,
  now = new Date(),
  keyAlgorithm,
}: {
  ca: TenantCertificate;
  tenantName: string;
  now?: Date;
  keyAlgorithm?: SealKeyAlgorithm;
}): Promise<TenantCertificate> {
  const caCertificate = new X509Certificate(ca.certificatePem);
  const caKey = createPrivateKey(ca.privateKeyPkcs8Pem);
  if (!caCertificate.ca) throw new Error('issueSealCertificate: the given certificate is not a CA');
  if (!caCertificate.checkPrivateKey(caKey)) {
    throw new Error('issueSealCertificate: the CA private key does not belong to the CA certificate');
  }
  const caAsn = AsnConvert.parse(caCertificate.raw, Certificate);
  const caKeyId = subjectKeyIdentifierOf(caAsn);

  const { publicKey, privateKey } = await generateSealKeyPair(
    keyAlgorithm ?? (caKey.asymmetricKeyType === 'ec' ? 'ecdsa-p256' : 'rsa-3072'),
  );
  const spki = subjectPublicKeyInfo(publicKey);
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const caNotAfter = new Date(caCertificate.validTo);
  const threeYears = addYears(now, SEAL_VALIDITY_YEARS);
  const notAfter = threeYears < caNotAfter ? threeYears : caNotAfter;

  const certificateDer = signCertificate({
    subject: tenantDistinguishedName(tenantName, ' document seal'),
    // The CA's subject exactly as encoded in the CA certificate, so name chaining is byte-equal.
    issuer: caAsn.tbsCertificate.subject,
    spki,
    notBefore,
    notAfter,
    signingKey: caKey,
    extensions: [
      // An end entity: said explicitly (cA FALSE is the default, so the value is an empty
      // SEQUENCE) so that no verifier can mistake it for a CA.
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: false })),
      extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation)),
      extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([...SEAL_EXTENDED_KEY_USAGES])),
      extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyIdentifier(spki))),
      extension(id_ce_authorityKeyIdentifier, false, new AuthorityKeyIdentifier({ keyIdentifier: caKeyId })),
    ],
  });
  return {
    certificatePem: toPem('CERTIFICATE', certificateDer),
    privateKeyPkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function signCertificate(params: {
  subject: Name;
  issuer: Name;
  spki: SubjectPublicKeyInfo;
  notBefore: Date;
  notAfter: Date;
  signingKey: KeyObject;
  extensions: Extension[];
}): Buffer {
  const signatureAlgorithmDer = signatureAlgorithmFor(params.signingKey);
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: randomSerialNumber(),
    signature: AsnConvert.parse(signatureAlgorithmDer, AlgorithmIdentifier),
    issuer: params.issuer,
    // asn1-x509's Time picks UTCTime before 2050 and GeneralizedTime from then on (RFC 5280).
    validity: new Validity({ notBefore: params.notBefore, notAfter: params.notAfter }),
    subject: params.subject,
    subjectPublicKeyInfo: params.spki,
    extensions: new Extensions(params.extensions),
  });
  const tbsDer = Buffer.from(AsnConvert.serialize(tbs));
  const signature = sign('sha256', tbsDer, params.signingKey);
  // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING },
  // assembled from the very bytes that were signed rather than re-serialised.
  return sequence(tbsDer, signatureAlgorithmDer, tlv(0x03, Buffer.from([0]), signature));
}

function extension(extnID: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function subjectPublicKeyInfo(publicKey: KeyObject): SubjectPublicKeyInfo {
  return AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
}

/**
 * RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits. SHA-1 is fine here: the key
 * identifier only helps verifiers find the issuer, it is not a security property.
 */
function keyIdentifier(spki: SubjectPublicKeyInfo): Buffer {
  return createHash('sha1').update(Buffer.from(spki.subjectPublicKey)).digest();
}

function subjectKeyIdentifierOf(certificate: Certificate): KeyIdentifier {
  const ext = certificate.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_subjectKeyIdentifier);
  if (ext) return new KeyIdentifier(AsnConvert.parse(ext.extnValue.buffer, SubjectKeyIdentifier).buffer);
  // A CA without an SKI (not one we made): fall back to the same method we use.
  return new KeyIdentifier(keyIdentifier(certificate.tbsCertificate.subjectPublicKeyInfo));
}

/**
 * 16 random bytes with the top bit cleared (serials are positive INTEGERs, RFC 5280 4.1.2.2) and
 * the lowest bit of the first byte set, so the DER INTEGER is always exactly 16 octets: 126 bits
 * of randomness, far above the 64 the CA/Browser Forum asks of public CAs.
 */
function randomSerialNumber(): ArrayBuffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return new Uint8Array(bytes).buffer;
}

/**
 * O=<tenant>, CN=<tenant><suffix>, as UTF8String (tenant names are not always ASCII). Both are
 * cut to X.520's 64-character bound, shortening the tenant part (marked with "…") so the
 * suffix that says what the certificate is always survives.
 */
function tenantDistinguishedName(tenantName: string, cnSuffix: string): Name {
  const tenant = tenantName.trim();
  if (!tenant) throw new Error('a tenant name is required');
  const rdn = (type: string, value: string) =>
    new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: value }) })]);
  return new Name([
    rdn('2.5.4.10', fitCharacters(tenant, UB_NAME)),
    rdn('2.5.4.3', fitCharacters(tenant, UB_NAME - [...cnSuffix].length) + cnSuffix),
  ]);
}

/** Cuts by code points (never inside a surrogate pair) and marks the cut. */
function fitCharacters(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

function addYears(date: Date, years: number): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}
