import { DEFAULT_PASSWORD_CONFIG, DomainError, forbidden, passwordProblems, passwordRejected, ResponseCode } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { passwordHistory, systemSettings, users } from '../../platform/db/schema';
import { digestSecret, generateSecret, hashPassword, secretsEqual } from '../auth';

const SETUP_KEY = 'setup';

export async function rootExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.isRoot, true)).limit(1);
  return !!row;
}

/**
 * At every start of an install without a root account: a fresh one-time setup token (or the
 * configured one), stored only as a digest. Returns the link to print, or undefined when set up.
 * A new token at each start means a link seen in an old log stops working.
 */
export async function prepareFirstRun(options: { db: Db; publicUrl: string; configuredToken?: string }): Promise<string | undefined> {
  const { db } = options;
  if (await rootExists(db)) {
    await db.delete(systemSettings).where(eq(systemSettings.key, SETUP_KEY));
    return undefined;
  }
  const token = options.configuredToken ?? generateSecret('pks');
  const value = { tokenDigest: digestSecret(token), createdAt: new Date().toISOString() };
  await db
    .insert(systemSettings)
    .values({ key: SETUP_KEY, value })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value, updatedAt: new Date() } });
  return `${options.publicUrl}/root?setup=${encodeURIComponent(token)}`;
}

/** Creates the root account; the setup token is consumed in the same transaction. */
export async function completeFirstRun(options: {
  db: Db;
  token: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}) {
  const problems = passwordProblems(options.password, DEFAULT_PASSWORD_CONFIG);
  if (problems.length > 0) {
    throw passwordRejected(problems, 'password');
  }
  const passwordHash = await hashPassword(options.password);
  return options.db.transaction(async (tx) => {
    const [setup] = await tx.select().from(systemSettings).where(eq(systemSettings.key, SETUP_KEY)).for('update');
    const digest = (setup?.value as { tokenDigest?: string } | undefined)?.tokenDigest;
    if (!digest || !secretsEqual(digest, digestSecret(options.token))) {
      // Also the answer once setup is done: the link is single-use.
      throw forbidden('This setup link is not valid (it may have been used already).');
    }
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, options.email));
    if (existing) throw new DomainError(ResponseCode.USER_ALREADY_EXISTS, 'A user with this email already exists.');
    const [root] = await tx
      .insert(users)
      .values({
        email: options.email,
        firstName: options.firstName,
        lastName: options.lastName,
        status: 'enabled',
        emailVerifiedAt: new Date(),
        isRoot: true,
        passwordHash,
        passwordChangedAt: new Date(),
      })
      .returning();
    await tx.insert(passwordHistory).values({ userId: root!.id, passwordHash });
    await tx.delete(systemSettings).where(eq(systemSettings.key, SETUP_KEY));
    return root!;
  });
}
