import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { oneTimeTokens } from '../../platform/db/schema';
import { digestSecret, generateSecret } from './secrets';

type Purpose = (typeof oneTimeTokens.$inferInsert)['purpose'];

const PREFIX: Record<Purpose, 'pku' | 'pkv'> = { uis: 'pku', verify_email: 'pkv' };

export async function issueOneTimeToken(options: {
  db: Db;
  purpose: Purpose;
  userId: string;
  seconds: number;
  clientId?: string;
}): Promise<string> {
  const token = generateSecret(PREFIX[options.purpose]);
  await options.db.insert(oneTimeTokens).values({
    purpose: options.purpose,
    tokenHash: digestSecret(token),
    userId: options.userId,
    clientId: options.clientId ?? null,
    expiresAt: new Date(Date.now() + options.seconds * 1000),
  });
  return token;
}

/**
 * Spends a token: the update is conditional (unspent, unexpired, right purpose), so of two
 * requests racing with one token exactly one gets the row. Undefined when it cannot be spent.
 */
export async function consumeOneTimeToken(options: { db: Db; purpose: Purpose; token: string }) {
  const [row] = await options.db
    .update(oneTimeTokens)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, digestSecret(options.token)),
        eq(oneTimeTokens.purpose, options.purpose),
        isNull(oneTimeTokens.consumedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return row;
}

/** When the newest token of a purpose was issued to a user: for rate-limiting resends. */
export async function lastIssuedAt(options: { db: Db; purpose: Purpose; userId: string }): Promise<Date | undefined> {
  const [row] = await options.db
    .select({ createdAt: oneTimeTokens.createdAt })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, options.userId), eq(oneTimeTokens.purpose, options.purpose)))
    .orderBy(desc(oneTimeTokens.createdAt))
    .limit(1);
  return row?.createdAt;
}
