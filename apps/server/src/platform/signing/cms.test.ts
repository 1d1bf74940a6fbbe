import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ContentInfo, SignedData, id_data, id_signedData } from '@peculiar/asn1-cms';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OID } from './algorithms';
import {
  CMS_SIZE_MARGIN,
  assembleSignedData,
  buildSignedAttributes,
  maxCmsSize,
  signAttributes,
  signDigest,
} from './cms';
import { childElements, readElement, toDer } from './der';
import { KEY_ALGORITHMS, createSealFixture, run, type SealFixture } from '../../test/signing-support';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

function opensslCmsVerify(f: SealFixture, cms: Buffer, content: Buffer) {
  const sigFile = path.join(f.dir, `sig-${randomBytes(4).toString('hex')}.der`);
  const dataFile = `${sigFile}.data`;
  fs.writeFileSync(sigFile, cms);
  fs.writeFileSync(dataFile, content);
  return run('openssl', [
    'cms', '-verify', '-binary', '-inform', 'DER', '-in', sigFile, '-content', dataFile,
    '-CAfile', f.caPem, '-purpose', 'any', '-out', '/dev/null',
  ]);
}

describe.each(KEY_ALGORITHMS)('CMS for PAdES (%s)', (keyAlgorithm) => {
  let f: SealFixture;
  beforeAll(async () => {
    f = await createSealFixture(keyAlgorithm);
  });
  afterAll(() => f.cleanup());

  it('verifies with openssl cms over the signed bytes, and not over others', () => {
    const data = randomBytes(5000);
    const cms = signDigest({ digest: sha256(data), key: f.seal.privateKeyPkcs8Pem, certificate: f.seal.certificatePem, chain: [f.ca.certificatePem] });
    const ok = opensslCmsVerify(f, cms, data);
    expect(ok.stderr).toContain('CMS Verification successful');
    expect(ok.status).toBe(0);

    const tampered = Buffer.from(data);
    tampered[100]! ^= 1;
    const bad = opensslCmsVerify(f, cms, tampered);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/CMS Verification failure/);
    expect(bad.stderr).toMatch(/verify_content|digest failure/);
  });

  it('is a detached SignedData v1 with SHA-256, the signer then the chain, and one SignerInfo by issuer and serial', () => {
    const digest = sha256(Buffer.from('hello'));
    const cms = signDigest({ digest, key: f.seal.privateKeyPkcs8Pem, certificate: f.seal.certificatePem, chain: [f.ca.certificatePem] });
    const contentInfo = AsnConvert.parse(cms, ContentInfo);
    expect(contentInfo.contentType).toBe(id_signedData);
    const signedData = AsnConvert.parse(contentInfo.content, SignedData);
    expect(signedData.version).toBe(1);
    expect(signedData.digestAlgorithms.map((a) => [a.algorithm, a.parameters])).toEqual([[OID.sha256, undefined]]);
    expect(signedData.encapContentInfo.eContentType).toBe(id_data);
    expect(signedData.encapContentInfo.eContent).toBeUndefined();
    // Embedded byte for byte as issued.
    const embedded = (signedData.certificates ?? []).map((c) => Buffer.from(AsnConvert.serialize(c.certificate)));
    expect(embedded).toEqual([toDer(f.seal.certificatePem), toDer(f.ca.certificatePem)]);

    expect(signedData.signerInfos).toHaveLength(1);
    const signerInfo = signedData.signerInfos[0]!;
    expect(signerInfo.version).toBe(1);
    const sealAsn = AsnConvert.parse(toDer(f.seal.certificatePem), Certificate);
    const sid = signerInfo.sid.issuerAndSerialNumber;
    expect(sid && Buffer.from(AsnConvert.serialize(sid.issuer))).toEqual(Buffer.from(AsnConvert.serialize(sealAsn.tbsCertificate.issuer)));
    expect(sid && Buffer.from(sid.serialNumber)).toEqual(Buffer.from(sealAsn.tbsCertificate.serialNumber));
    expect(signerInfo.digestAlgorithm.algorithm).toBe(OID.sha256);
    expect(signerInfo.signatureAlgorithm.algorithm).toBe(keyAlgorithm === 'rsa-3072' ? OID.sha256WithRsaEncryption : OID.ecdsaWithSha256);
    expect(signerInfo.unsignedAttrs).toBeUndefined();
  });

  it('signs exactly content-type, message-digest and signing-certificate-v2, in DER order, with no signing-time', () => {
    const digest = randomBytes(32);
    const attributesDer = buildSignedAttributes({ digest, signerCertificate: f.seal.certificatePem });
    const set = readElement(attributesDer);
    expect(set.tag).toBe(0x31);
    expect(set.raw.length).toBe(attributesDer.length);
    const attributes = childElements(set);
    // DER SET OF: ascending by encoding.
    const encodings = attributes.map((a) => a.raw);
    expect([...encodings].sort(Buffer.compare)).toEqual(encodings);

    const byType = new Map(
      attributes.map((a) => {
        const [type, values] = childElements(a);
        const oid = run('openssl', ['asn1parse', '-inform', 'DER'], type!.raw).stdout.match(/OBJECT\s+:(\S+)/)?.[1];
        return [oid, childElements(values!)];
      }),
    );
    expect([...byType.keys()].sort()).toEqual(['contentType', 'id-smime-aa-signingCertificateV2', 'messageDigest']);
    expect(byType.has('signingTime')).toBe(false);
    expect(byType.get('contentType')?.[0]?.raw.toString('hex')).toBe('06092a864886f70d010701'); // id-data
    expect(byType.get('messageDigest')?.[0]?.content).toEqual(digest);

    // SigningCertificateV2 { certs { ESSCertIDv2 { certHash, issuerSerial } } }, SHA-256 by default.
    const [certs] = childElements(byType.get('id-smime-aa-signingCertificateV2')![0]!);
    const [essCertId] = childElements(certs!);
    const [certHash, issuerSerial] = childElements(essCertId!);
    expect(certHash?.tag).toBe(0x04);
    expect(certHash?.content).toEqual(sha256(toDer(f.seal.certificatePem)));
    const [generalNames, serial] = childElements(issuerSerial!);
    const sealAsn = AsnConvert.parse(toDer(f.seal.certificatePem), Certificate);
    expect(childElements(childElements(generalNames!)[0]!)[0]!.raw).toEqual(
      Buffer.from(AsnConvert.serialize(sealAsn.tbsCertificate.issuer)),
    );
    expect(serial?.content).toEqual(Buffer.from(sealAsn.tbsCertificate.serialNumber));
  });

  it('takes a signature made elsewhere (hash-then-sign) and embeds it', () => {
    const data = randomBytes(2000);
    const signedAttributesDer = buildSignedAttributes({ digest: sha256(data), signerCertificate: f.seal.certificatePem });
    // An external signer: OpenSSL, with nothing but the bytes to sign and the key.
    const attrsFile = path.join(f.dir, 'attrs.der');
    const sigFile = path.join(f.dir, 'attrs.sig');
    fs.writeFileSync(attrsFile, signedAttributesDer);
    const signed = run('openssl', ['dgst', '-sha256', '-sign', f.sealKey, '-out', sigFile, attrsFile]);
    expect(signed.status, signed.stderr).toBe(0);
    const cms = assembleSignedData({
      signedAttributesDer,
      signature: fs.readFileSync(sigFile),
      signerCertificate: f.seal.certificatePem,
      chain: [f.ca.certificatePem],
    });
    expect(opensslCmsVerify(f, cms, data).status).toBe(0);
  });

  it('refuses to assemble a signature that does not verify', async () => {
    const signedAttributesDer = buildSignedAttributes({ digest: randomBytes(32), signerCertificate: f.seal.certificatePem });
    const otherAttributes = buildSignedAttributes({ digest: randomBytes(32), signerCertificate: f.seal.certificatePem });
    const wrongContent = signAttributes({ signedAttributesDer: otherAttributes, privateKeyPem: f.seal.privateKeyPkcs8Pem });
    const wrongKey = signAttributes({ signedAttributesDer, privateKeyPem: f.ca.privateKeyPkcs8Pem });
    for (const signature of [wrongContent, wrongKey, Buffer.alloc(10)]) {
      expect(() => assembleSignedData({ signedAttributesDer, signature, signerCertificate: f.seal.certificatePem })).toThrow(
        /does not verify/,
      );
    }
  });

  it('never exceeds maxCmsSize, over many random digests and with or without the chain', () => {
    const chains = [[f.ca.certificatePem], [], [f.seal.certificatePem, f.ca.certificatePem]];
    for (const chain of chains) {
      const bound = maxCmsSize({ certificate: f.seal.certificatePem, chain });
      const sizes = new Set<number>();
      for (let i = 0; i < 150; i++) {
        const cms = signDigest({ digest: randomBytes(32), key: f.seal.privateKeyPkcs8Pem, certificate: f.seal.certificatePem, chain });
        sizes.add(cms.length);
      }
      const largest = Math.max(...sizes);
      // The margin is for CMS made elsewhere: ours stays within the computed worst case itself.
      expect(largest).toBeLessThanOrEqual(bound - CMS_SIZE_MARGIN);
      if (keyAlgorithm === 'rsa-3072') {
        // PKCS#1 v1.5 signatures always have the modulus length: the bound is exact.
        expect([...sizes]).toEqual([bound - CMS_SIZE_MARGIN]);
      } else {
        // ECDSA signatures vary (r and s lose or gain a leading zero); the worst case is reached
        // when both need one, about one signature in four, so 150 tries meet it.
        expect(sizes.size).toBeGreaterThan(1);
        expect(largest).toBe(bound - CMS_SIZE_MARGIN);
      }
    }
  });

  it('gives the same CMS through the separate steps as through signDigest', () => {
    const data = randomBytes(300);
    const digest = sha256(data);
    const signedAttributesDer = buildSignedAttributes({ digest, signerCertificate: f.seal.certificatePem });
    const signature = signAttributes({ signedAttributesDer, privateKeyPem: f.seal.privateKeyPkcs8Pem });
    const steps = assembleSignedData({ signedAttributesDer, signature, signerCertificate: f.seal.certificatePem, chain: [f.ca.certificatePem] });
    const once = signDigest({ digest, key: f.seal.privateKeyPkcs8Pem, certificate: f.seal.certificatePem, chain: [f.ca.certificatePem] });
    // PKCS#1 v1.5 is deterministic, so RSA gives identical bytes; ECDSA signatures are randomised,
    // so there both must simply verify.
    if (keyAlgorithm === 'rsa-3072') expect(steps).toEqual(once);
    for (const cms of [steps, once]) expect(opensslCmsVerify(f, cms, data).status).toBe(0);
  });
});

describe('CMS input checks', () => {
  let f: SealFixture;
  beforeAll(async () => {
    f = await createSealFixture('ecdsa-p256');
  });
  afterAll(() => f.cleanup());

  it('wants a 32-byte SHA-256 digest', () => {
    for (const digest of [Buffer.alloc(0), Buffer.alloc(20), Buffer.alloc(48)]) {
      expect(() => buildSignedAttributes({ digest, signerCertificate: f.seal.certificatePem })).toThrow(/32-byte/);
    }
  });

  it('accepts certificates as PEM or DER alike', () => {
    const digest = randomBytes(32);
    const der = new X509Certificate(f.seal.certificatePem).raw;
    expect(buildSignedAttributes({ digest, signerCertificate: der })).toEqual(
      buildSignedAttributes({ digest, signerCertificate: f.seal.certificatePem }),
    );
    expect(maxCmsSize({ certificate: der })).toBe(maxCmsSize({ certificate: f.seal.certificatePem }));
  });

  it('refuses bytes that are not signed attributes', () => {
    expect(() => signAttributes({ signedAttributesDer: Buffer.from([0x30, 0x00]), privateKeyPem: f.seal.privateKeyPkcs8Pem })).toThrow(
      /signed attributes/,
    );
  });
});
