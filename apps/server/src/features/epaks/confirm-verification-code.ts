import { DomainError, invalidInput, type RecipientVerification, ResponseCode, VERIFICATION_MAX_ATTEMPTS } from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { secretsEqual } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakRecipients } from '../../platform/db/schema';
import { assertActionable, assertNotOverdue, type EpakActor } from './access';
import { recordEpakActivity } from './activity';
import { withLockedEpak } from './manage';
import { assertVerificationOpen, loadWaitingPlace, presentVerification, verificationCodeDigest, verificationLockEnd } from './recipient-verification';

type Outcome =
  | { kind: 'verified'; verification: RecipientVerification }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'void' }
  | { kind: 'locked'; until: Date };

/**
 * Confirms the code sent to the caller's place (POST …/verification). A right one verifies the
 * place for the rest of it. A wrong one is counted twice, as the second factor's are at sign-in:
 * against the code (the fifth wrong try voids it, -217) and against the place across codes (every
 * tenth in a row locks it, for a time that doubles with each lock, -217 with data.retryAfter),
 * until a right code clears both. Codes are compared by digest in constant time.
 *
 * Every try, right or wrong, is written with its activity entry under the ePak's row lock, which
 * also keeps concurrent guesses in line; a wrong try commits before it is answered, so the count
 * cannot be escaped by the refusal.
 */
export async function confirmVerificationCode(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  code: string;
  smsAvailable: boolean;
  ip?: string | null;
  now?: Date;
}): Promise<{ verified: true; verification: RecipientVerification }> {
  const now = options.now ?? new Date();
  const outcome = await withLockedEpak<Outcome>(
    options.db,
    options.actor,
    options.epakId,
    async (tx, { epak }) => {
      assertActionable(epak);
      assertNotOverdue(epak, now);
      const { place, user } = await loadWaitingPlace(tx, epak, options.actor.userId);
      if (!place.verificationRequired) throw invalidInput('Your place in this ePak asks for no verification: sign as you are.', [{ path: 'verification', message: 'notRequired' }]);
      const present = (row: typeof place) => presentVerification(row, user, { smsAvailable: options.smsAvailable, now });
      // A retry of a confirmation whose answer was lost: the place is verified, and says so again.
      if (place.verifiedAt) return { kind: 'verified', verification: present(place) };
      assertVerificationOpen(place, now);
      const live = place.verificationCodeHash !== null && place.verificationCodeExpiresAt !== null && place.verificationCodeExpiresAt > now && place.verificationAttempts < VERIFICATION_MAX_ATTEMPTS;
      if (!live) {
        throw new DomainError(
          ResponseCode.INVALID_OTP_ID,
          place.verificationCodeHash ? 'This code has expired: ask for a new one.' : 'No code is waiting to be confirmed: ask for a new one.',
          { data: { expired: place.verificationCodeHash !== null } },
        );
      }

      if (secretsEqual(place.verificationCodeHash!, verificationCodeDigest(place.id, options.code))) {
        const [updated] = await tx
          .update(epakRecipients)
          .set({ verifiedAt: now, verificationCodeHash: null, verificationCodeExpiresAt: null, verificationAttempts: 0, verificationFailures: 0, verificationLockedUntil: null })
          .where(eq(epakRecipients.id, place.id))
          .returning();
        await recordEpakActivity(tx, { epakId: epak.id, actorId: options.actor.userId, action: 'signerVerified', details: { recipientId: place.id }, ip: options.ip ?? null });
        return { kind: 'verified', verification: present(updated!) };
      }

      const attempts = place.verificationAttempts + 1;
      const failures = place.verificationFailures + 1;
      const lockedUntil = verificationLockEnd(failures, now);
      // A lock voids the code as well: after it, a new code is asked for.
      const voided = lockedUntil !== null || attempts >= VERIFICATION_MAX_ATTEMPTS;
      await tx
        .update(epakRecipients)
        .set({
          verificationAttempts: attempts,
          verificationFailures: failures,
          ...(lockedUntil ? { verificationLockedUntil: lockedUntil } : {}),
          ...(voided ? { verificationCodeHash: null, verificationCodeExpiresAt: null } : {}),
        })
        .where(eq(epakRecipients.id, place.id));
      const attemptsLeft = voided ? 0 : VERIFICATION_MAX_ATTEMPTS - attempts;
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: options.actor.userId,
        action: 'verificationFailed',
        details: { recipientId: place.id, attemptsLeft, ...(lockedUntil ? { lockedUntil: lockedUntil.toISOString() } : {}) },
        ip: options.ip ?? null,
      });
      if (lockedUntil) return { kind: 'locked', until: lockedUntil };
      return voided ? { kind: 'void' } : { kind: 'wrong', attemptsLeft };
    },
    'epak.respond',
  );

  switch (outcome.kind) {
    case 'verified':
      return { verified: true, verification: outcome.verification };
    case 'wrong':
      throw new DomainError(ResponseCode.WRONG_OTP, `The code is not correct: ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'try' : 'tries'} left.`, {
        data: { attemptsLeft: outcome.attemptsLeft },
      });
    case 'void':
      throw new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, 'Too many wrong tries of this code: ask for a new one.', { data: { attemptsLeft: 0 } });
    case 'locked':
      // Thrown as the lock itself answers, with the wait.
      assertVerificationOpen({ verificationLockedUntil: outcome.until }, now);
      throw new Error('unreachable: a lock that has ended');
  }
}
