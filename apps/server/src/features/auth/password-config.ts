import { DEFAULT_PASSWORD_CONFIG, PasswordConfig } from '@pakt/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, passwordConfigs } from '../../platform/db/schema';

/** A tenant's password rules; a missing or invalid row means the defaults. */
export async function loadPasswordConfig(db: Db, tenantId: string | undefined): Promise<PasswordConfig> {
  if (!tenantId) return DEFAULT_PASSWORD_CONFIG;
  const [row] = await db.select().from(passwordConfigs).where(eq(passwordConfigs.tenantId, tenantId));
  const parsed = PasswordConfig.safeParse(row?.config);
  return parsed.success ? parsed.data : DEFAULT_PASSWORD_CONFIG;
}

/**
 * The strictest password rules among a user's tenants: a password must satisfy every tenant the
 * person can sign in to, since one password opens all of them.
 */
export async function loadStrictestPasswordConfig(db: Db, userId: string): Promise<PasswordConfig> {
  const tenantIds = (await db.select({ id: memberships.tenantId }).from(memberships).where(eq(memberships.userId, userId))).map((r) => r.id);
  const configs = [DEFAULT_PASSWORD_CONFIG];
  if (tenantIds.length > 0) {
    for (const row of await db.select().from(passwordConfigs).where(inArray(passwordConfigs.tenantId, tenantIds))) {
      const parsed = PasswordConfig.safeParse(row.config);
      if (parsed.success) configs.push(parsed.data);
    }
  }
  const positiveMin = (values: number[]) => (values.some((v) => v > 0) ? Math.min(...values.filter((v) => v > 0)) : 0);
  return {
    minLength: Math.max(...configs.map((c) => c.minLength)),
    requireUppercase: configs.some((c) => c.requireUppercase),
    requireLowercase: configs.some((c) => c.requireLowercase),
    requireDigit: configs.some((c) => c.requireDigit),
    requireSpecial: configs.some((c) => c.requireSpecial),
    historyCount: Math.max(...configs.map((c) => c.historyCount)),
    expiryDays: positiveMin(configs.map((c) => c.expiryDays)),
    maxFailedAttempts: Math.min(...configs.map((c) => c.maxFailedAttempts)),
    lockoutMinutes: Math.max(...configs.map((c) => c.lockoutMinutes)),
  };
}
