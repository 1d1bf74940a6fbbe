/**
 * The few DER primitives the signing code writes and reads by hand.
 *
 * Why by hand: a PAdES signature is only as good as its bytes. The signed attributes are hashed
 * and signed exactly as encoded, verifiers (NSS, OpenSSL, Acrobat) re-encode them and compare, so
 * they must be canonical DER with the SET OF sorted, which no ASN.1 library here does for us. And
 * certificates from a tenant's CA (or, later, someone else's) must be embedded byte for byte: a
 * decode/re-encode round trip through a schema library may normalise something and break the
 * certificate's own signature. Writing TLVs directly keeps every byte under our control.
 */

/** A DER length: short form below 128, else 0x80|n followed by n big-endian bytes. */
export function encodeLength(length: number): Buffer {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`bad DER length ${length}`);
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** Tag, length, value. Only low tag numbers (< 31) are used in CMS and X.509, so one tag byte. */
export function tlv(tag: number, ...contents: Uint8Array[]): Buffer {
  const value = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), encodeLength(value.length), value]);
}

export const sequence = (...contents: Uint8Array[]): Buffer => tlv(0x30, ...contents);
export const octetString = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
export const derNull = (): Buffer => Buffer.from([0x05, 0x00]);

/** A non-negative small INTEGER (CMS versions). */
export function smallInteger(value: number): Buffer {
  if (!Number.isInteger(value) || value < 0 || value > 127) throw new RangeError(`smallInteger(${value})`);
  return Buffer.from([0x02, 0x01, value]);
}

/**
 * SET OF in DER order (X.690 11.6): elements sorted by their encodings compared as octet
 * strings, the shorter one padded with zero octets. Two distinct TLVs can never be prefixes of
 * each other (equal headers mean equal lengths), so a plain byte comparison gives that order.
 */
export function setOf(elements: Uint8Array[]): Buffer {
  const sorted = elements.map((e) => Buffer.from(e)).sort(Buffer.compare);
  return tlv(0x31, ...sorted);
}

/** OBJECT IDENTIFIER from dotted form: first two arcs packed as 40*a+b, each arc base-128. */
export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map((a) => {
    if (!/^\d+$/.test(a)) throw new Error(`bad OID ${dotted}`);
    return BigInt(a);
  });
  const [first, second, ...rest] = arcs;
  if (first === undefined || second === undefined || first > 2n || (first < 2n && second > 39n)) {
    throw new Error(`bad OID ${dotted}`);
  }
  const out: number[] = [];
  for (const arc of [first * 40n + second, ...rest]) {
    const chunk: number[] = [Number(arc & 0x7fn)];
    for (let n = arc >> 7n; n > 0n; n >>= 7n) chunk.unshift(Number(n & 0x7fn) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

export interface DerElement {
  tag: number;
  /** The whole TLV, header included: what gets embedded elsewhere verbatim. */
  raw: Buffer;
  /** The value octets only. */
  content: Buffer;
}

/** Reads the DER element starting at `offset`. Rejects indefinite lengths (BER, not DER). */
export function readElement(buffer: Buffer, offset = 0): DerElement {
  const tag = buffer[offset];
  const first = buffer[offset + 1];
  if (tag === undefined || first === undefined) throw new Error('DER: truncated header');
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: high tag numbers are not used here');
  let length = first;
  let headerLength = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: indefinite or oversized length');
    length = 0;
    for (let i = 0; i < count; i++) {
      const b = buffer[offset + 2 + i];
      if (b === undefined) throw new Error('DER: truncated length');
      length = length * 256 + b;
    }
    headerLength += count;
  }
  const end = offset + headerLength + length;
  if (end > buffer.length) throw new Error('DER: element runs past the end of its container');
  return {
    tag,
    raw: buffer.subarray(offset, end),
    content: buffer.subarray(offset + headerLength, end),
  };
}

/** The elements inside a constructed element's content, in order. */
export function childElements(parent: DerElement): DerElement[] {
  const children: DerElement[] = [];
  for (let offset = 0; offset < parent.content.length; ) {
    const child = readElement(parent.content, offset);
    children.push(child);
    offset += child.raw.length;
  }
  return children;
}

/** PEM (any label) or DER bytes → DER. Certificates travel as PEM at rest and DER in CMS. */
export function toDer(input: string | Uint8Array): Buffer {
  if (typeof input !== 'string') return Buffer.from(input);
  const match = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(input);
  if (!match?.[2]) throw new Error('expected a PEM block');
  return Buffer.from(match[2].replace(/\s+/g, ''), 'base64');
}

export function toPem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
