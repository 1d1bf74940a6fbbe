import { DEFAULT_PASSWORD_CONFIG, DomainError, passwordProblems, passwordRejected, ResponseCode } from '@pakt/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { memberships, passwordHistory, tenants, users } from '../db/schema';
import { hashPassword } from '../auth/secrets';

/** Self-service sign-up: a new organisation (tenant) with the person as its admin. */
export async function signUp(options: {
  db: Db;
  email: string;
  firstName: string;
  middleName?: string | undefined;
  lastName: string;
  orgName: string;
  jobTitle?: string | undefined;
  password: string;
}) {
  const problems = passwordProblems(options.password, DEFAULT_PASSWORD_CONFIG);
  if (problems.length > 0) {
    throw passwordRejected(problems, 'newPassword');
  }
  const passwordHash = await hashPassword(options.password);
  return options.db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, options.email));
    if (taken) throw new DomainError(ResponseCode.USER_ALREADY_EXISTS, 'An account with this email exists: sign in instead.');
    const [clash] = await tx.select({ id: tenants.id }).from(tenants).where(sql`lower(${tenants.name}) = lower(${options.orgName})`);
    if (clash) throw new DomainError(ResponseCode.TENANT_ALREADY_EXISTS, 'An organisation with this name exists already.');
    const [tenant] = await tx.insert(tenants).values({ name: options.orgName }).returning();
    const [user] = await tx
      .insert(users)
      .values({
        email: options.email,
        firstName: options.firstName,
        middleName: options.middleName ?? null,
        lastName: options.lastName,
        title: options.jobTitle ?? null,
        status: 'enabled',
        passwordHash,
        passwordChangedAt: new Date(),
      })
      .returning();
    await tx.insert(memberships).values({ tenantId: tenant!.id, userId: user!.id, role: 'admin', status: 'active' });
    await tx.insert(passwordHistory).values({ userId: user!.id, passwordHash });
    return user!;
  });
}
