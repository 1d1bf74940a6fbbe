import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * A bearer secret: 32 random bytes, base64url, with a prefix so leaked tokens are recognisable
 * (secret scanners, log review) and an access token is never mistaken for a refresh token.
 */
export function generateSecret(prefix: 'pka' | 'pkr' | 'pki' | 'pks' | 'pkp' | 'pku' | 'pkv'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored as SHA-256 digests: they are random enough not to need a slow hash. */
export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** argon2id with the library's defaults (19 MiB, 2 passes), OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against this when no user matches keeps "no such user" as slow as "wrong password".
const DUMMY_HASH = hash('pakt-dummy-password-for-timing');

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
