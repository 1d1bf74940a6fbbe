import crypto from 'node:crypto';
import { PdfEncryptionError } from './errors';
import type { PdfDict, PdfValue } from './objects';

/*
 * The standard security handler (ISO 32000-2 §7.6.4): RC4 40–128 bit (V1/V2, R2–R4), AES-128
 * (V4 /AESV2) and AES-256 (V5 /AESV3, R5 and R6), opened with the user password, empty by default,
 * or the owner password.
 *
 * The reader needs it because files encrypted with an empty user password open for everyone, yet
 * their object streams are encrypted, and those often hold the page tree. The writer needs it too:
 * strings and streams of objects appended to an encrypted file must be encrypted with the same key.
 */

export type CryptMethod = 'none' | 'rc4' | 'aesv2' | 'aesv3';
export type CryptTarget = 'string' | 'stream';

export interface SecurityHandler {
  /** /V and /R of the encryption dictionary. */
  readonly version: number;
  readonly revision: number;
  readonly stringMethod: CryptMethod;
  readonly streamMethod: CryptMethod;
  /** False when /EncryptMetadata false: XMP metadata streams are then stored in clear. */
  readonly encryptMetadata: boolean;
  /** /P, the permission bits, as a signed 32-bit integer. */
  readonly permissions: number;
  /** Which password opened the file. */
  readonly openedWith: 'user' | 'owner';
  decrypt(data: Buffer, num: number, gen: number, target: CryptTarget): Buffer;
  encrypt(data: Buffer, num: number, gen: number, target: CryptTarget): Buffer;
}

/** The padding string of Algorithm 2, step a. */
const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

const md5 = (...parts: Buffer[]) => {
  const hash = crypto.createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** RC4 by hand: OpenSSL 3 keeps it in the legacy provider, which Node does not load. */
export function rc4(key: Buffer, data: Buffer): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function aesDecrypt(key: Buffer, data: Buffer): Buffer {
  // The first 16 bytes are the IV. Shorter data is empty (writers do emit that for "").
  if (data.length < 32) return Buffer.alloc(0);
  const body = data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16);
  const decipher = crypto.createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(body), decipher.final()]);
  // Remove PKCS#7 padding when it is well formed; some writers get it wrong, so do not insist.
  const pad = plain[plain.length - 1]!;
  if (pad >= 1 && pad <= 16 && pad <= plain.length && plain.subarray(plain.length - pad).every((byte) => byte === pad)) {
    return plain.subarray(0, plain.length - pad);
  }
  return plain;
}

function aesEncrypt(key: Buffer, data: Buffer): Buffer {
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]);
}

/** AES-256-CBC with a zero IV and no padding, as R5/R6 wrap the file key in /UE and /OE. */
function aesUnwrap(key: Buffer, data: Buffer): Buffer {
  const decipher = crypto.createDecipheriv('aes-256-cbc', key, Buffer.alloc(16));
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data.subarray(0, 32)), decipher.final()]);
}

/** Algorithm 2.B (R6) or plain SHA-256 (R5): the hash behind every AES-256 password check. */
function hashR56(revision: number, password: Buffer, salt: Buffer, userKey: Buffer): Buffer {
  let k = crypto.createHash('sha256').update(password).update(salt).update(userKey).digest();
  if (revision === 5) return k;
  for (let round = 0; ; ) {
    const block = Buffer.concat([password, k, userKey]);
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => block));
    const cipher = crypto.createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    // The first 16 bytes as a big-endian number, mod 3: 256 ≡ 1 (mod 3), so the byte sum will do.
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = crypto.createHash(['sha256', 'sha384', 'sha512'][sum % 3]!).update(e).digest();
    round++;
    if (round >= 64 && e[e.length - 1]! <= round - 32) break;
  }
  return k.subarray(0, 32);
}

export interface SecurityOptions {
  /** The user or owner password; the empty user password when omitted. */
  password?: string;
  /** Resolves indirect values inside the encryption dictionary. */
  resolve?: (value: PdfValue) => PdfValue;
}

/**
 * Opens the standard security handler of an /Encrypt dictionary. `firstId` is the first element of
 * the trailer /ID (it salts RC4 and AES-128 keys). Throws PdfEncryptionError with reason
 * 'password' when the password (empty by default) opens neither as user nor as owner.
 */
export function openSecurityHandler(encrypt: PdfDict, firstId: Buffer, options: SecurityOptions = {}): SecurityHandler {
  const resolve = options.resolve ?? ((value: PdfValue) => value);
  const get = (dict: PdfDict, key: string): PdfValue | undefined => {
    const value = dict.entries.get(key);
    return value === undefined ? undefined : resolve(value);
  };
  const int = (key: string, fallback?: number): number | undefined => {
    const value = get(encrypt, key);
    return value?.kind === 'number' ? value.value : fallback;
  };
  const bytes = (key: string): Buffer => {
    const value = get(encrypt, key);
    if (value?.kind !== 'string') throw new PdfEncryptionError(`the encryption dictionary has no /${key}`, 'unsupported');
    return value.bytes;
  };

  const filter = get(encrypt, 'Filter');
  if (filter?.kind !== 'name' || filter.value !== 'Standard') {
    const name = filter?.kind === 'name' ? `/${filter.value}` : 'an unknown';
    throw new PdfEncryptionError(`the file uses ${name} security handler; only the standard (password) handler is supported`, 'unsupported');
  }
  const version = int('V', 0)!;
  const revision = int('R', 0)!;
  if (![1, 2, 4, 5].includes(version) || revision < 2 || revision > 6) {
    throw new PdfEncryptionError(`encryption V${version} R${revision} is not supported`, 'unsupported');
  }
  // /P is a 32-bit field some writers store unsigned.
  const permissions = int('P', 0)! | 0;
  const encryptMetadataValue = get(encrypt, 'EncryptMetadata');
  const encryptMetadata = !(encryptMetadataValue?.kind === 'bool' && !encryptMetadataValue.value);

  let stringMethod: CryptMethod;
  let streamMethod: CryptMethod;
  if (version < 4) {
    stringMethod = streamMethod = 'rc4';
  } else {
    const filters = get(encrypt, 'CF');
    const method = (key: 'StrF' | 'StmF'): CryptMethod => {
      const name = get(encrypt, key);
      if (name?.kind !== 'name' || name.value === 'Identity') return 'none';
      const cf = filters?.kind === 'dict' ? get(filters, name.value) : undefined;
      const cfm = cf?.kind === 'dict' ? get(cf, 'CFM') : undefined;
      const value = cfm?.kind === 'name' ? cfm.value : 'None';
      if (value === 'V2') return 'rc4';
      if (value === 'AESV2') return 'aesv2';
      if (value === 'AESV3') return 'aesv3';
      throw new PdfEncryptionError(`crypt filter /${name.value} uses /CFM /${value}, which is not supported`, 'unsupported');
    };
    stringMethod = method('StrF');
    streamMethod = method('StmF');
  }

  const password = options.password ?? '';
  let fileKey: Buffer | undefined;
  let openedWith: 'user' | 'owner' = 'user';
  if (revision >= 5) {
    // AES-256: UTF-8 passwords (SASLprep is not applied: it changes nothing for ASCII), 127 bytes at most.
    const pw = Buffer.from(password, 'utf8').subarray(0, 127);
    const u = bytes('U');
    const o = bytes('O');
    if (u.length < 48 || o.length < 48) throw new PdfEncryptionError('the encryption dictionary has a malformed /U or /O', 'unsupported');
    if (hashR56(revision, pw, u.subarray(32, 40), Buffer.alloc(0)).equals(u.subarray(0, 32))) {
      fileKey = aesUnwrap(hashR56(revision, pw, u.subarray(40, 48), Buffer.alloc(0)), bytes('UE'));
    } else if (hashR56(revision, pw, o.subarray(32, 40), u.subarray(0, 48)).equals(o.subarray(0, 32))) {
      fileKey = aesUnwrap(hashR56(revision, pw, o.subarray(40, 48), u.subarray(0, 48)), bytes('OE'));
      openedWith = 'owner';
    }
  } else {
    const length = version === 1 || revision === 2 ? 5 : Math.min(16, Math.max(5, Math.floor(int('Length', 128)! / 8)));
    const o = bytes('O').subarray(0, 32);
    const u = bytes('U');
    const keyFor = (userPassword: Buffer): Buffer | undefined => {
      const p = Buffer.alloc(4);
      p.writeInt32LE(permissions);
      const parts = [padPassword(userPassword), o, p, firstId];
      if (revision >= 4 && !encryptMetadata) parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff]));
      let key = md5(...parts);
      if (revision >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
      key = key.subarray(0, length);
      // Algorithms 4 and 5: the key is right when it reproduces /U (its first 16 bytes from R3 on).
      if (revision === 2) return rc4(key, PASSWORD_PAD).equals(u.subarray(0, 32)) ? key : undefined;
      let check = rc4(key, md5(PASSWORD_PAD, firstId));
      for (let i = 1; i <= 19; i++) check = rc4(xorKey(key, i), check);
      return check.equals(u.subarray(0, 16)) ? key : undefined;
    };
    const pw = Buffer.from(password, 'latin1');
    fileKey = keyFor(pw);
    if (!fileKey) {
      // Algorithm 7: the owner password decrypts /O into the user password.
      let ownerKey = md5(padPassword(pw));
      if (revision >= 3) for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
      ownerKey = ownerKey.subarray(0, length);
      let userPassword = o;
      if (revision === 2) userPassword = rc4(ownerKey, o);
      else for (let i = 19; i >= 0; i--) userPassword = rc4(xorKey(ownerKey, i), userPassword);
      fileKey = keyFor(userPassword);
      if (fileKey) openedWith = 'owner';
    }
  }
  if (!fileKey) {
    throw new PdfEncryptionError(
      password ? 'the password is wrong for this file' : 'the file is protected by a password: it cannot be opened without it',
      'password',
    );
  }
  const key = fileKey;

  const objectKey = (num: number, gen: number, aes: boolean): Buffer => {
    // Algorithm 1: the file key salted with the object's number and generation.
    const salt = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
    const hash = md5(key, salt, aes ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0));
    return hash.subarray(0, Math.min(key.length + 5, 16));
  };
  const run = (encrypting: boolean) => (data: Buffer, num: number, gen: number, target: CryptTarget): Buffer => {
    const method = target === 'string' ? stringMethod : streamMethod;
    switch (method) {
      case 'none':
        return data;
      case 'rc4':
        return rc4(objectKey(num, gen, false), data);
      case 'aesv2':
        return encrypting ? aesEncrypt(objectKey(num, gen, true), data) : aesDecrypt(objectKey(num, gen, true), data);
      case 'aesv3':
        return encrypting ? aesEncrypt(key, data) : aesDecrypt(key, data);
    }
  };
  return { version, revision, stringMethod, streamMethod, encryptMetadata, permissions, openedWith, decrypt: run(false), encrypt: run(true) };
}

function padPassword(password: Buffer): Buffer {
  return Buffer.concat([password.subarray(0, 32), PASSWORD_PAD]).subarray(0, 32);
}

function xorKey(key: Buffer, value: number): Buffer {
  return Buffer.from(key.map((byte) => byte ^ value));
}
