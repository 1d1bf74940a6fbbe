import { constants, createHash, verify, X509Certificate } from 'node:crypto';
import { OID } from './algorithms';
import { childElements, type DerElement, readElement } from './der';

/**
 * Checks a detached CMS SignedData (RFC 5652) over the bytes a PDF signature's /ByteRange covers:
 * the digest the signer signed matches those bytes, and the signature verifies with the
 * certificate it names. For an RFC 3161 document timestamp, the token's message imprint is the
 * digest instead. This says nothing of trust (who issued the certificate, whether it was
 * revoked): only whether the signed bytes are the bytes that were signed.
 */

/** The verdict, the signer's common name, and their certificate (DER) when one was found. */
export type CmsCheck = { readonly signerName: string | null; readonly certificate?: Buffer } & (
  | { readonly result: 'intact' }
  | { readonly result: 'broken'; readonly reason: string }
  | { readonly result: 'unverifiable'; readonly reason: string }
);

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  [OID.sha256]: 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';

/** The dotted form of an OBJECT IDENTIFIER's content octets. */
function oidOf(element: DerElement | undefined): string {
  if (!element || element.tag !== 0x06) throw new Error('expected an OBJECT IDENTIFIER');
  const bytes = element.content;
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of bytes) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0n;
    }
  }
  const first = arcs.shift() ?? 0n;
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n];
  return [...head, ...arcs].join('.');
}

const commonName = (certificate: X509Certificate): string | null => /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? null;

/** The serial number as a bigint, whatever padding the DER or Node's hex text carries. */
const serialOf = (hex: string) => BigInt(`0x${hex || '0'}`);

/** Does `signature` over `data` verify with the certificate's key, for this digest and algorithm? */
function verifies(certificate: X509Certificate, digest: string, signatureAlgorithm: string, data: Buffer, signature: Buffer): boolean {
  const key = certificate.publicKey;
  try {
    if (signatureAlgorithm === RSASSA_PSS) {
      return verify(digest, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, signature);
    }
    return verify(digest, data, key, signature);
  } catch {
    return false;
  }
}

/** Checks `cms` (the DER of a ContentInfo) over `signedBytes`; `timestamp` for /SubFilter /ETSI.RFC3161. */
export function checkDetachedCms(cms: Buffer, signedBytes: Buffer, options: { timestamp?: boolean } = {}): CmsCheck {
  let signerName: string | null = null;
  let certificate: Buffer | undefined;
  // A value of zeros (an unfilled placeholder) or none signs nothing: the universal forgery class.
  if (cms.every((byte) => byte === 0)) return { result: 'broken', signerName, reason: 'the signature has no value' };
  try {
    const contentInfo = childElements(readElement(cms));
    if (oidOf(contentInfo[0]) !== OID.signedData || !contentInfo[1]) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: 'not a CMS SignedData' };
    const signedData = childElements(childElements(contentInfo[1])[0]!);
    const encapsulated = childElements(signedData[2]!);
    const certificates: X509Certificate[] = [];
    const signerInfosAt = signedData.findIndex((element, index) => index > 2 && element.tag === 0x31);
    for (const element of signedData.slice(3, signerInfosAt)) {
      if (element.tag !== 0xa0) continue;
      for (const certificate of childElements(element)) {
        // Attribute certificates and other choices are tagged; only plain X.509 ones are SEQUENCEs.
        if (certificate.tag === 0x30) certificates.push(new X509Certificate(certificate.raw));
      }
    }
    const signerInfo = childElements(childElements(signedData[signerInfosAt]!)[0]!);
    const sid = signerInfo[1]!;
    const digest = DIGESTS[oidOf(childElements(signerInfo[2]!)[0])];
    if (!digest) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: 'its digest algorithm is not one Pakt checks' };
    const signedAttributes = signerInfo[3]?.tag === 0xa0 ? signerInfo[3] : undefined;
    const rest = signerInfo.slice(signedAttributes ? 4 : 3);
    const signatureAlgorithm = oidOf(childElements(rest[0]!)[0]);
    const signature = rest[1]!.content;

    // The signer's certificate: the one its issuer and serial name, else (a key identifier) any that verifies.
    let named: X509Certificate[] = certificates;
    if (sid.tag === 0x30) {
      const serial = childElements(sid)[1]!;
      named = certificates.filter((certificate) => serialOf(certificate.serialNumber) === serialOf(serial.content.toString('hex')));
    }
    const candidates = named.length > 0 ? named : certificates;
    if (candidates.length === 0) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: 'the signature carries no certificate to check it with' };
    signerName = commonName(candidates[0]!);
    certificate = candidates[0]!.raw;

    // What the signer's digest must match: the covered bytes, or for a timestamp the token's content.
    let content = signedBytes;
    if (options.timestamp) {
      if (oidOf(encapsulated[0]) !== TST_INFO || !encapsulated[1]) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: 'the timestamp token has no TSTInfo' };
      const tstInfoDer = childElements(encapsulated[1])[0]!.content;
      const tstInfo = childElements(readElement(tstInfoDer));
      const imprint = childElements(tstInfo[2]!);
      const imprintDigest = DIGESTS[oidOf(childElements(imprint[0]!)[0])];
      if (!imprintDigest) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: "the timestamp's digest algorithm is not one Pakt checks" };
      if (!createHash(imprintDigest).update(signedBytes).digest().equals(imprint[1]!.content)) {
        return { result: 'broken', signerName, certificate, reason: 'the timestamped bytes were changed after the timestamp' };
      }
      content = tstInfoDer;
    }
    const contentDigest = createHash(digest).update(content).digest();

    let signedOver = content;
    if (signedAttributes) {
      const messageDigest = childElements(signedAttributes)
        .map((attribute) => childElements(attribute))
        .find((attribute) => oidOf(attribute[0]) === OID.messageDigest);
      const value = messageDigest && childElements(messageDigest[1]!)[0];
      if (!value) return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: 'the signature has no message digest' };
      if (!value.content.equals(contentDigest)) return { result: 'broken', signerName, certificate, reason: 'the signed bytes were changed after signing' };
      // The signature is over the attributes' DER with their SET OF tag, not the [0] they travel in.
      signedOver = Buffer.concat([Buffer.from([0x31]), signedAttributes.raw.subarray(1)]);
    }
    const signer = candidates.find((certificate) => verifies(certificate, digest, signatureAlgorithm, signedOver, signature));
    if (!signer) return { result: 'broken', signerName, certificate, reason: 'the signature does not verify with its certificate' };
    return { result: 'intact', signerName: commonName(signer), certificate: signer.raw };
  } catch (error) {
    // BER with indefinite lengths, or a structure this reader does not know: not checked, not condemned.
    return { result: 'unverifiable', signerName, ...(certificate ? { certificate } : {}), reason: `its signature could not be read (${(error as Error).message})` };
  }
}
