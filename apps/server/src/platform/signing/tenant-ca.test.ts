import { X509Certificate, createPrivateKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantCa, issueSealCertificate } from './tenant-ca';
import { KEY_ALGORITHMS, createSealFixture, run, type SealFixture } from '../../test/signing-support';

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

function opensslText(pemFile: string): string {
  const out = run('openssl', ['x509', '-in', pemFile, '-noout', '-text', '-nameopt', 'utf8,sep_comma_plus_space']);
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

describe.each(KEY_ALGORITHMS)('tenant CA and seal certificate (%s)', (keyAlgorithm) => {
  let f: SealFixture;
  beforeAll(async () => {
    f = await createSealFixture(keyAlgorithm);
  });
  afterAll(() => f.cleanup());

  it('makes a self-signed root OpenSSL reads as a constrained CA', () => {
    const text = opensslText(f.caPem);
    expect(text).toContain('Subject: O=Acme Ltd, CN=Acme Ltd Pakt CA');
    expect(text).toContain('Issuer: O=Acme Ltd, CN=Acme Ltd Pakt CA');
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Certificate Sign, CRL Sign\s/);
    expect(text).toMatch(/X509v3 Subject Key Identifier:/);
    expect(text).toMatch(keyAlgorithm === 'rsa-3072' ? /Public-Key: \(3072 bit\)/ : /NIST CURVE: P-256/);
    expect(text).toMatch(keyAlgorithm === 'rsa-3072' ? /Signature Algorithm: sha256WithRSAEncryption/ : /Signature Algorithm: ecdsa-with-SHA256/);
    const selfCheck = run('openssl', ['verify', '-CAfile', f.caPem, f.caPem]);
    expect(selfCheck.stdout.trim()).toBe(`${f.caPem}: OK`);
  });

  it('issues a seal certificate for document signing that chains to the root', () => {
    const text = opensslText(f.sealPem);
    expect(text).toContain('Subject: O=Acme Ltd, CN=Acme Ltd document seal');
    expect(text).toContain('Issuer: O=Acme Ltd, CN=Acme Ltd Pakt CA');
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation\s/);
    expect(text).toMatch(/X509v3 Extended Key Usage:\s+1\.3\.6\.1\.5\.5\.7\.3\.36, 1\.3\.6\.1\.4\.1\.311\.10\.3\.12, E-mail Protection\s/);

    // The authority key identifier is the CA's subject key identifier.
    const caSki = /Subject Key Identifier:\s+([0-9A-F:]+)/.exec(opensslText(f.caPem))?.[1];
    expect(caSki).toBeDefined();
    expect(text).toMatch(new RegExp(`Authority Key Identifier:\\s+(keyid:)?${caSki}\\s`));

    expect(run('openssl', ['verify', '-CAfile', f.caPem, f.sealPem]).stdout.trim()).toBe(`${f.sealPem}: OK`);
    // OpenSSL's S/MIME-signing purpose checks key usage and the emailProtection EKU, as NSS does.
    const smime = run('openssl', ['verify', '-purpose', 'smimesign', '-CAfile', f.caPem, f.sealPem]);
    expect(smime.stdout.trim()).toBe(`${f.sealPem}: OK`);
  });

  it('returns PKCS#8 keys that belong to their certificates', () => {
    for (const pair of [f.ca, f.seal]) {
      expect(pair.privateKeyPkcs8Pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(new X509Certificate(pair.certificatePem).checkPrivateKey(createPrivateKey(pair.privateKeyPkcs8Pem))).toBe(true);
    }
  });

  it('gives each certificate a random positive 16-byte serial', () => {
    const serials = [f.caPem, f.sealPem].map((file) => run('openssl', ['x509', '-in', file, '-noout', '-serial']).stdout.trim());
    for (const serial of serials) expect(serial).toMatch(/^serial=[0-7][0-9A-F]{31}$/);
    expect(serials[0]).not.toBe(serials[1]);
  });
});

describe('certificate validity', () => {
  const now = new Date('2030-06-15T12:00:00Z');

  it('is 20 years for the CA and 3 years for the seal, starting an hour before now', async () => {
    const ca = await createTenantCa({ tenantName: 'Acme', now, keyAlgorithm: 'ecdsa-p256' });
    const seal = await issueSealCertificate({ ca, tenantName: 'Acme', now });
    const caCert = new X509Certificate(ca.certificatePem);
    const sealCert = new X509Certificate(seal.certificatePem);
    expect(new Date(caCert.validFrom).toISOString()).toBe('2030-06-15T11:00:00.000Z');
    expect(new Date(caCert.validTo).toISOString()).toBe('2050-06-15T12:00:00.000Z');
    expect(new Date(sealCert.validFrom).toISOString()).toBe('2030-06-15T11:00:00.000Z');
    expect(new Date(sealCert.validTo).toISOString()).toBe('2033-06-15T12:00:00.000Z');
  });

  it('writes dates from 2050 on as GeneralizedTime and never lets a seal outlive its CA', async () => {
    const ca = await createTenantCa({ tenantName: 'Acme', now, keyAlgorithm: 'ecdsa-p256' });
    const late = new Date(now.getTime() + 19 * YEAR_MS);
    const seal = await issueSealCertificate({ ca, tenantName: 'Acme', now: late });
    expect(new X509Certificate(seal.certificatePem).validTo).toBe(new X509Certificate(ca.certificatePem).validTo);

    const parsed = run('openssl', ['asn1parse', '-inform', 'PEM'], Buffer.from(ca.certificatePem)).stdout;
    expect(parsed).toMatch(/UTCTIME\s+:300615110000Z/);
    expect(parsed).toMatch(/GENERALIZEDTIME\s+:20500615120000Z/);
  });
});

describe('certificate names', () => {
  it('keeps a tenant name in any script, as UTF-8', async () => {
    const tenantName = 'पाक्ट परीक्षण संस्था';
    const ca = await createTenantCa({ tenantName, keyAlgorithm: 'ecdsa-p256' });
    const seal = await issueSealCertificate({ ca, tenantName });
    const subject = new X509Certificate(seal.certificatePem).subject;
    expect(subject).toContain(`O=${tenantName}`);
    expect(subject).toContain(`CN=${tenantName} document seal`);
    expect(run('openssl', ['asn1parse', '-inform', 'PEM'], Buffer.from(seal.certificatePem)).stdout).toContain('UTF8STRING');
  });

  it('shortens a very long tenant name to the 64-character bound, keeping what the certificate is', async () => {
    const tenantName = `The ${'Very '.repeat(20)}Long Company`;
    const ca = await createTenantCa({ tenantName, keyAlgorithm: 'ecdsa-p256' });
    const seal = await issueSealCertificate({ ca, tenantName });
    for (const pem of [ca.certificatePem, seal.certificatePem]) {
      const fields = Object.fromEntries(
        new X509Certificate(pem).subject.split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ) as Record<string, string>;
      expect([...(fields.O ?? '')].length).toBeLessThanOrEqual(64);
      expect([...(fields.CN ?? '')].length).toBeLessThanOrEqual(64);
      expect(fields.CN).toMatch(/^The Very .*…( Pakt CA| document seal)$/);
    }
  });

  it('refuses an empty tenant name', async () => {
    await expect(createTenantCa({ tenantName: '  ', keyAlgorithm: 'ecdsa-p256' })).rejects.toThrow(/tenant name/);
  });
});

describe('issueSealCertificate refuses a bad CA', () => {
  it('when the key does not belong to the certificate', async () => {
    const a = await createTenantCa({ tenantName: 'A', keyAlgorithm: 'ecdsa-p256' });
    const b = await createTenantCa({ tenantName: 'B', keyAlgorithm: 'ecdsa-p256' });
    await expect(
      issueSealCertificate({ ca: { certificatePem: a.certificatePem, privateKeyPkcs8Pem: b.privateKeyPkcs8Pem }, tenantName: 'A' }),
    ).rejects.toThrow(/does not belong/);
  });

  it('when the certificate is not a CA', async () => {
    const ca = await createTenantCa({ tenantName: 'A', keyAlgorithm: 'ecdsa-p256' });
    const seal = await issueSealCertificate({ ca, tenantName: 'A' });
    await expect(issueSealCertificate({ ca: seal, tenantName: 'A' })).rejects.toThrow(/not a CA/);
  });
});
