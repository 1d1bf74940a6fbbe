import { randomInt } from 'node:crypto';
import { DomainError, invalidInput, ResponseCode } from '@pakt/domain';
import { and, desc, eq } from 'drizzle-orm';
import { digestSecret, issueSession, IN_PERSON_CHALLENGE_PREFIX, maskEmail, OTP_RESEND_SECONDS, verifyChallenge } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epakSteps, epaks, otpChallenges, users } from '../../platform/db/schema';
import { queueEmail } from '../../platform/mail/outbox';
import { assertActionable, assertNotOverdue, type EpakActor, loadVisibleEpak } from './access';
import { recordEpakActivity } from './activity';

/**
 * An in-person signer's place marked verified (signer verification, recipient-verification.ts),
 * under the ePak's row lock with its activity entry.
 */
async function markVerifiedInPerson(db: Db, options: { epakId: string; recipientId: string; actorId: string; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: epaks.id }).from(epaks).where(eq(epaks.id, options.epakId)).for('update');
    const [place] = await tx.select().from(epakRecipients).where(eq(epakRecipients.id, options.recipientId));
    if (!place || !place.verificationRequired || place.verifiedAt) return;
    await tx
      .update(epakRecipients)
      .set({ verifiedAt: options.now, verificationCodeHash: null, verificationCodeExpiresAt: null, verificationAttempts: 0, verificationFailures: 0, verificationLockedUntil: null })
      .where(eq(epakRecipients.id, place.id));
    await recordEpakActivity(tx, { epakId: options.epakId, actorId: options.actorId, action: 'signerVerified', details: { recipientId: place.id, via: 'inPerson' } });
  });
}

/** The code is good for ten minutes; the signer's session on the host's device for fifteen. */
export const IN_PERSON_CODE_MINUTES = 10;
export const IN_PERSON_SESSION_SECONDS = 15 * 60;
/** The client id of an in-person signer's session: sign.ts accepts INPERSONSIGN only from it. */
export const IN_PERSON_CLIENT_ID = 'inperson';

/**
 * The host (the ePak's owner) asks the in-person signer of the step under way to confirm who
 * they are: a code goes to the signer's address, and the signer reads it out or types it on the
 * host's device. The right code yields a session of the signer bound to this ePak only (the same
 * kind a signing link opens), so the signer's part runs under the signer's identity, not the
 * host's. The challenge is bound to ePak and recipient by its client id, and can never be traded
 * for a sign-in (auth/two-factor.ts refuses in-person challenges there).
 */
export async function authorizeInPersonSigner(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  recipientId: string;
  otpId?: string | undefined;
  code?: string | undefined;
  client?: { ipAddress?: string; userAgent?: string };
  now?: Date;
}) {
  const { db, actor } = options;
  const now = options.now ?? new Date();
  // The owner hosts (epak.manage): a recipient is told 403, anyone else 404.
  const { epak } = await loadVisibleEpak(db, actor, options.epakId, { action: 'epak.manage' });
  assertActionable(epak);
  assertNotOverdue(epak, now);
  const [place] = await db
    .select({ recipient: epakRecipients, step: epakSteps, user: users })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.id, options.recipientId), eq(epakRecipients.epakId, epak.id)));
  if (!place) throw invalidInput('No such recipient in this ePak.', [{ path: 'recipientId', message: 'unknown' }]);
  if (place.step.type !== 'INPERSONSIGN') throw invalidInput('This person signs on their own device, not in person.', [{ path: 'recipientId', message: place.step.type }]);
  if (epak.status !== 'InProgress' || epak.currentStep !== place.step.position || (place.recipient.status !== 'Pending' && place.recipient.status !== 'DelegatePending')) {
    throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Nothing of this ePak is waiting for this person now.');
  }
  const signer = { userId: place.user.id, email: place.user.email, firstName: place.user.firstName, lastName: place.user.lastName };
  const binding = `${IN_PERSON_CHALLENGE_PREFIX}${epak.id}:${place.recipient.id}`;

  if (!options.code) {
    // One live code at a time: while the last one is unused, asking again within the resend
    // wait is refused, so the host cannot flood the signer's mailbox or collect fresh tries
    // faster than a person types. A used code (a turn that ended) allows a new one at once.
    const [last] = await db
      .select({ sentAt: otpChallenges.sentAt, consumedAt: otpChallenges.consumedAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.userId, place.user.id), eq(otpChallenges.clientId, binding)))
      .orderBy(desc(otpChallenges.createdAt))
      .limit(1);
    const waited = last?.sentAt && !last.consumedAt ? (now.getTime() - last.sentAt.getTime()) / 1000 : Infinity;
    if (waited < OTP_RESEND_SECONDS) {
      const resendAfter = Math.ceil(OTP_RESEND_SECONDS - waited);
      throw new DomainError(ResponseCode.OTP_RETRY_TIMEOUT, `Wait ${resendAfter} seconds before asking for another code.`, { data: { resendAfter } });
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const otpId = await db.transaction(async (tx) => {
      const [challenge] = await tx
        .insert(otpChallenges)
        .values({ userId: place.user.id, method: 'email', clientId: binding, sentAt: now, expiresAt: new Date(now.getTime() + IN_PERSON_CODE_MINUTES * 60_000) })
        .returning();
      await tx.update(otpChallenges).set({ codeHash: digestSecret(`${challenge!.id}:${code}`) }).where(eq(otpChallenges.id, challenge!.id));
      await queueEmail({
        db: tx,
        tenantId: epak.tenantId,
        to: place.user.email,
        subject: `Your code to sign "${epak.subject}" in person`,
        body: `Your code is ${code}. Give it to the person hosting your signing of "${epak.subject}" only if you are with them now. It works for ${IN_PERSON_CODE_MINUTES} minutes.`,
        kind: 'epak_inperson_code',
      });
      return challenge!.id;
    });
    return { otpId, sentTo: maskEmail(place.user.email), signAuthToken: null, expiresIn: IN_PERSON_CODE_MINUTES * 60, signer };
  }

  if (!options.otpId) throw invalidInput('Send the otpId with the code.', [{ path: 'otpId', message: 'required' }]);
  const { clientId } = await verifyChallenge({ db, otpId: options.otpId, code: options.code, inPerson: true });
  if (clientId !== binding) throw new DomainError(ResponseCode.INVALID_OTP_ID, 'This code was sent for another signing.');
  // The code reached the signer's own mailbox: the proof signer verification asks for, so a place
  // that must verify counts as verified and the signer is not asked for a second code.
  if (place.recipient.verificationRequired && !place.recipient.verifiedAt) await markVerifiedInPerson(db, { epakId: epak.id, recipientId: place.recipient.id, actorId: place.user.id, now });
  const issued = await issueSession({
    db,
    userId: place.user.id,
    clientId: IN_PERSON_CLIENT_ID,
    lifetimes: { accessSeconds: IN_PERSON_SESSION_SECONDS, refreshSeconds: IN_PERSON_SESSION_SECONDS },
    ...(options.client ? { client: options.client } : {}),
    scope: { tenantId: epak.tenantId, epakId: epak.id },
  });
  return { otpId: null, sentTo: null, signAuthToken: issued.accessToken, expiresIn: IN_PERSON_SESSION_SECONDS, signer };
}
