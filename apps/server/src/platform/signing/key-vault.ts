import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encrypts the tenants' private keys at rest (AES-256-GCM) with one master key, so a copy of the
 * database alone signs nothing. The master key comes from SEAL_MASTER_KEY (base64 of 32 bytes)
 * when set, which a deployment of several processes on PostgreSQL must do so they all share it;
 * an embedded install without it gets a key file made on first use in its data directory
 * (`seal-master.key`, readable by its owner only), keeping `npm start` free of set-up.
 */

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Stored values start with this, so the format can change later without guessing. */
const FORMAT = 'v1';

export class KeyVaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyVaultError';
  }
}

export interface KeyVault {
  /** `v1.<base64 iv>.<base64 ciphertext+tag>`; `context` (e.g. the tenant id) is bound in as AAD. */
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /**
   * A message authentication code (HMAC-SHA256, base64url) under a key derived from the master key
   * for `context`: what this install writes into a QR code or link and must recognise as its own.
   */
  mac(data: string, context: string): string;
  /** Whether `mac` is this install's code for `data` (compared in constant time). */
  checkMac(data: string, mac: string, context: string): boolean;
}

export function keyVault(masterKey: Buffer): KeyVault {
  if (masterKey.length !== KEY_BYTES) throw new KeyVaultError(`the master key must be ${KEY_BYTES} bytes, got ${masterKey.length}`);
  // One key per context, derived (HKDF) so that a code made for one purpose is worth nothing for another.
  const macKey = (context: string) => Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), `pakt-mac:${context}`, KEY_BYTES));
  const mac = (data: string, context: string) => crypto.createHmac('sha256', macKey(context)).update(data, 'utf8').digest('base64url');
  return {
    mac,
    checkMac(data, given, context) {
      const expected = Buffer.from(mac(data, context), 'utf8');
      const actual = Buffer.from(given, 'utf8');
      return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
    },
    seal(plaintext, context) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', masterKey, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${FORMAT}.${iv.toString('base64')}.${body.toString('base64')}`;
    },
    open(sealed, context) {
      const [format, ivText, bodyText] = sealed.split('.');
      if (format !== FORMAT || !ivText || !bodyText) throw new KeyVaultError('not a sealed key of a known format');
      const iv = Buffer.from(ivText, 'base64');
      const body = Buffer.from(bodyText, 'base64');
      if (iv.length !== IV_BYTES || body.length <= TAG_BYTES) throw new KeyVaultError('the sealed key is damaged');
      const decipher = crypto.createDecipheriv('aes-256-gcm', masterKey, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new KeyVaultError('the sealed key does not open with this master key (wrong key, wrong tenant, or damaged)');
      }
    },
  };
}

/**
 * The master key: SEAL_MASTER_KEY when given, else the data directory's key file, made now if
 * missing (created exclusively, so two processes starting together cannot write different keys).
 */
export function loadMasterKey(options: { fromEnv?: string | undefined; dataDir: string }): Buffer {
  if (options.fromEnv !== undefined) {
    const key = Buffer.from(options.fromEnv, 'base64');
    if (key.length !== KEY_BYTES) throw new KeyVaultError(`SEAL_MASTER_KEY must be the base64 of ${KEY_BYTES} bytes`);
    return key;
  }
  const file = path.join(options.dataDir, 'seal-master.key');
  fs.mkdirSync(options.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new KeyVaultError(`${file} does not hold a ${KEY_BYTES}-byte key`);
  return key;
}
