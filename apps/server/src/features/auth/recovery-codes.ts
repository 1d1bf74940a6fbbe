import { randomBytes } from 'node:crypto';
import { formatRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from '@pakt/domain';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { twoFactorRecoveryCodes } from '../../platform/db/schema';
import { digestSecret } from './secrets';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten base32 letters, five random bits each (32 divides 256, so no letter is likelier than another). */
function newRecoveryCode(): string {
  return Array.from(randomBytes(10), (byte) => BASE32[byte & 31]).join('');
}

/**
 * A code's digest, salted with its owner: 50 random bits need no slow hash, and one person's code
 * can never match another's row.
 */
function digestRecoveryCode(userId: string, compact: string): string {
  return digestSecret(`recovery:${userId}:${compact}`);
}

/**
 * Replaces a person's recovery codes with ten new ones and answers them as shown (`abcde-fghij`),
 * the only time they exist outside the person's hands. The earlier codes, used or not, are gone.
 * Run it in the transaction of the change that asks for new codes.
 */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values([...codes].map((code) => ({ userId, codeHash: digestRecoveryCode(userId, code) })));
  return [...codes].map(formatRecoveryCode);
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/**
 * Marks a typed code used when it is one of the person's unused codes. Conditional in one
 * statement, so two sign-ins racing with one code cannot both spend it: the second finds it used.
 */
export async function spendRecoveryCode(db: Db, userId: string, typed: string, now = new Date()): Promise<boolean> {
  const compact = normalizeRecoveryCode(typed);
  if (!compact) return false;
  const spent = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, digestRecoveryCode(userId, compact)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return spent.length > 0;
}
