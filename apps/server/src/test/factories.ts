import { randomUUID } from 'node:crypto';
import type { Role } from '@pakt/domain';
import type { Db } from '../platform/db/database';
import { memberships, tenants, users } from '../platform/db/schema';
import { hashPassword } from '../features/auth/secrets';

/** A password that meets the default rules; tests that need a weak one say so. */
export const GOOD_PASSWORD = 'Correct-Horse-42';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export async function makeTenant(db: Db, values: Partial<typeof tenants.$inferInsert> = {}) {
  const [tenant] = await db.insert(tenants).values({ name: `Tenant ${unique()}`, ...values }).returning();
  return tenant!;
}

/**
 * One argon2 hash per password for the whole file: hashing costs tens of milliseconds of CPU (as it
 * should), and the suites make thousands of users. A hash verifies the same under any user, so
 * sharing it changes nothing a test checks; sign-in still runs the real verify.
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

export async function makeUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> & { password?: string | null } = {},
) {
  const { password = GOOD_PASSWORD, ...rest } = values;
  const [user] = await db
    .insert(users)
    .values({
      email: `user-${unique()}@example.test`,
      firstName: 'Asha',
      lastName: 'Rao',
      status: 'enabled',
      emailVerifiedAt: new Date(),
      passwordHash: password === null ? null : await hashOnce(password),
      ...rest,
    })
    .returning();
  return { ...user!, password };
}

/** A member of a tenant; builds the tenant and the user when not given. */
export async function makeMember(
  db: Db,
  options: {
    role?: Role;
    tenant?: { id: string };
    user?: Parameters<typeof makeUser>[1];
    status?: 'invited' | 'active' | 'disabled';
    expiresAt?: Date;
  } = {},
) {
  const tenant = options.tenant ?? (await makeTenant(db));
  const user = await makeUser(db, options.user);
  await db.insert(memberships).values({
    tenantId: tenant.id,
    userId: user.id,
    role: options.role ?? 'signer',
    status: options.status ?? 'active',
    expiresAt: options.expiresAt ?? null,
  });
  return { tenant, user };
}

export async function makeRoot(db: Db) {
  return makeUser(db, { isRoot: true, email: `root-${randomUUID()}@example.test` });
}
