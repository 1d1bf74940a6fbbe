import { randomBytes } from 'node:crypto';
import type { Role } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { memberships, passwordHistory, tenants, users } from '../../platform/db/schema';
import { hashPassword } from '../auth';
import { rootExists } from './first-run';

export const DEMO_TENANT_NAME = 'Pakt Demo';
const DEMO_ROLES: Role[] = ['admin', 'custodian', 'submitter', 'signer', 'registrar', 'super_admin'];

export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
}

/** Fresh for every seed: a demo must never ship a password anyone else knows. */
function generatePassword(): string {
  return `Demo-${randomBytes(12).toString('base64url')}-7aZ`;
}

/**
 * `npm start -- --demo`: a demo tenant with one user of every tenant role (and the root account
 * when the install has none), each with a newly generated password that is printed once.
 * Seeding twice does nothing: the second run cannot know the passwords to print.
 */
export async function seedDemo(db: Db): Promise<DemoAccount[] | undefined> {
  const [existing] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, DEMO_TENANT_NAME));
  if (existing) return undefined;
  const accounts: DemoAccount[] = [];
  const hashed = async (role: Role | 'root', firstName: string) => {
    const password = generatePassword();
    const email = `${role.replace('_', '-')}@demo.pakt.test`;
    accounts.push({ role: role as Role, email, password });
    return { email, firstName, lastName: 'Demo', status: 'enabled', emailVerifiedAt: new Date(), passwordHash: await hashPassword(password), passwordChangedAt: new Date() };
  };
  const needsRoot = !(await rootExists(db));
  const rows = await Promise.all(DEMO_ROLES.map((role) => hashed(role, role.replace('_', ' ').replace(/^./, (c) => c.toUpperCase()))));
  const rootRow = needsRoot ? await hashed('root', 'Root') : undefined;
  await db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ name: DEMO_TENANT_NAME }).returning();
    if (rootRow) {
      const [root] = await tx.insert(users).values({ ...rootRow, isRoot: true }).returning();
      await tx.insert(passwordHistory).values({ userId: root!.id, passwordHash: rootRow.passwordHash });
    }
    for (const [i, row] of rows.entries()) {
      const [user] = await tx.insert(users).values(row).returning();
      await tx.insert(memberships).values({ tenantId: tenant!.id, userId: user!.id, role: DEMO_ROLES[i]!, status: 'active' });
      await tx.insert(passwordHistory).values({ userId: user!.id, passwordHash: row.passwordHash });
    }
  });
  return accounts;
}
