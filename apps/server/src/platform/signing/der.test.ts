import { describe, expect, it } from 'vitest';
import { childElements, encodeLength, objectIdentifier, readElement, sequence, setOf, tlv, toDer, toPem } from './der';
import { run } from '../../test/signing-support';

describe('DER helpers', () => {
  it('writes lengths in the shortest form', () => {
    expect(encodeLength(0).toString('hex')).toBe('00');
    expect(encodeLength(127).toString('hex')).toBe('7f');
    expect(encodeLength(128).toString('hex')).toBe('8180');
    expect(encodeLength(255).toString('hex')).toBe('81ff');
    expect(encodeLength(256).toString('hex')).toBe('820100');
    expect(encodeLength(70_000).toString('hex')).toBe('83011170');
  });

  it('writes object identifiers OpenSSL reads back, large arcs included', () => {
    const asn1parse = (oid: string) => run('openssl', ['asn1parse', '-inform', 'DER'], objectIdentifier(oid)).stdout.trim();
    expect(asn1parse('1.2.840.113549.1.9.16.2.47')).toMatch(/OBJECT\s+:id-smime-aa-signingCertificateV2$/);
    expect(asn1parse('2.16.840.1.101.3.4.2.1')).toMatch(/OBJECT\s+:sha256$/);
    expect(asn1parse('2.999.1')).toMatch(/OBJECT\s+:2\.999\.1$/);
    expect(asn1parse('1.3.6.1.4.1.311.999999.3')).toMatch(/OBJECT\s+:1\.3\.6\.1\.4\.1\.311\.999999\.3$/);
    expect(objectIdentifier('1.2.840.113549.1.7.1').toString('hex')).toBe('06092a864886f70d010701');
    expect(objectIdentifier('2.999.1').toString('hex')).toBe('0603883701');
    expect(() => objectIdentifier('3.1')).toThrow();
    expect(() => objectIdentifier('1.40')).toThrow();
  });

  it('sorts SET OF elements by their encodings', () => {
    const a = tlv(0x04, Buffer.from([2]));
    const b = tlv(0x04, Buffer.from([1, 0]));
    const c = tlv(0x02, Buffer.from([9]));
    expect(setOf([a, b, c]).toString('hex')).toBe(`310a${c.toString('hex')}${a.toString('hex')}${b.toString('hex')}`);
  });

  it('reads back what it writes, long lengths included', () => {
    const big = Buffer.alloc(300, 7);
    const outer = sequence(tlv(0x04, big), tlv(0x05));
    const [first, second] = childElements(readElement(outer));
    expect(first?.content).toEqual(big);
    expect(second?.raw.toString('hex')).toBe('0500');
    expect(() => readElement(Buffer.from([0x30, 0x80, 0x00, 0x00]))).toThrow(/indefinite/);
    expect(() => readElement(Buffer.from([0x30, 0x05, 0x00]))).toThrow(/past the end/);
  });

  it('converts PEM and DER both ways', () => {
    const der = sequence(tlv(0x04, Buffer.alloc(100, 1)));
    const pem = toPem('CERTIFICATE', der);
    expect(pem.split('\n').every((line) => line.length <= 64)).toBe(true);
    expect(toDer(pem)).toEqual(der);
    expect(toDer(der)).toEqual(der);
    expect(() => toDer('not pem')).toThrow(/PEM/);
  });
});
