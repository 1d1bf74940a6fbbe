import { DomainError, ResponseCode } from '@pakt/domain';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { digestSecret, type ClientInfo, issueSession } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakLinks, epakRecipients, epaks, users } from '../../platform/db/schema';

/** A link session lasts long enough to read and sign; opening the link again makes a new one. */
export const SIGNING_LINK_SESSION_SECONDS = 2 * 3600;
export const SIGNING_LINK_CLIENT_ID = 'easysign';

const invalidLink = () =>
  new DomainError(ResponseCode.INVALID_EASY_SIGN_LINK, 'This signing link is not valid any more. Ask the sender for a new one.');

/**
 * GET /epaks/{easytoken}/exchange: a signing link becomes a session that reaches only its ePak
 * (http/auth-guard.ts). The link stays good until it expires or is revoked, so the recipient can
 * come back to read and download what they signed; what they may do is the engine's to decide.
 * Unknown, expired and revoked links all answer the same -42.
 */
export async function exchangeSigningLink(options: { db: Db; token: string; client?: ClientInfo; now?: Date }) {
  const { db } = options;
  const now = options.now ?? new Date();
  const [row] = await db
    .select({ link: epakLinks, epak: epaks, user: users })
    .from(epakLinks)
    .innerJoin(epaks, eq(epaks.id, epakLinks.epakId))
    .innerJoin(epakRecipients, eq(epakRecipients.id, epakLinks.recipientId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakLinks.tokenHash, digestSecret(options.token)), isNull(epakLinks.revokedAt), gt(epakLinks.expiresAt, now)));
  if (!row || row.epak.deletedAt || row.epak.status === 'Draft' || row.user.disabledAt) throw invalidLink();
  await db.update(epakLinks).set({ lastUsedAt: now }).where(eq(epakLinks.id, row.link.id));
  const issued = await issueSession({
    db,
    userId: row.user.id,
    clientId: SIGNING_LINK_CLIENT_ID,
    lifetimes: { accessSeconds: SIGNING_LINK_SESSION_SECONDS, refreshSeconds: SIGNING_LINK_SESSION_SECONDS },
    ...(options.client ? { client: options.client } : {}),
    scope: { tenantId: row.epak.tenantId, epakId: row.epak.id },
  });
  return {
    accessToken: issued.accessToken,
    expiresIn: issued.expiresIn,
    ePakId: row.epak.id,
    tenantId: row.epak.tenantId,
    user: { userId: row.user.id, email: row.user.email, firstName: row.user.firstName, lastName: row.user.lastName },
  };
}
