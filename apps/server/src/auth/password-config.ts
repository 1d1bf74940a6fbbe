import { DEFAULT_PASSWORD_CONFIG, PasswordConfig } from '@pakt/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { memberships, passwordConfigs } from '../db/schema';

/** A tenant's password rules; a missing or invalid row means the defaults. */
export async function loadPasswordConfig(db: Db, tenantId: string | undefined): Promise<PasswordConfig> {
  if (!tenantId) return DEFAULT_PASSWORD_CONFIG;
  const [row] = await db.select().from(passwordConfigs).where(eq(passwordConfigs.tenantId, tenantId));
  const parsed = PasswordConfig.safeParse(row?.config);
  return parsed.success ? parsed.data : DEFAULT_PASSWORD_CONFIG;
}

/**
 * The strictest lockout rules among a user's tenants: a user in a strict and a lax tenant must
 * not get the lax tenant's attempts against the strict tenant's documents.
 */
export async function loadLockoutRules(db: Db, userId: string): Promise<Pick<PasswordConfig, 'maxFailedAttempts' | 'lockoutMinutes'>> {
  const tenantIds = (await db.select({ id: memberships.tenantId }).from(memberships).where(eq(memberships.userId, userId))).map((r) => r.id);
  const configs = [DEFAULT_PASSWORD_CONFIG];
  if (tenantIds.length > 0) {
    const rows = await db.select().from(passwordConfigs).where(inArray(passwordConfigs.tenantId, tenantIds));
    for (const row of rows) {
      const parsed = PasswordConfig.safeParse(row.config);
      if (parsed.success) configs.push(parsed.data);
    }
  }
  return {
    maxFailedAttempts: Math.min(...configs.map((c) => c.maxFailedAttempts)),
    lockoutMinutes: Math.max(...configs.map((c) => c.lockoutMinutes)),
  };
}
