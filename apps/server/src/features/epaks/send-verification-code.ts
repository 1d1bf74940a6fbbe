import { randomInt } from 'node:crypto';
import {
  DomainError,
  invalidInput,
  type RecipientVerification,
  ResponseCode,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MINUTES,
  VERIFICATION_RESEND_SECONDS,
  type VerificationChannel,
} from '@pakt/domain';
import { eq } from 'drizzle-orm';
import { maskEmail, maskPhone } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakRecipients } from '../../platform/db/schema';
import { queueEmail, queueSms } from '../../platform/mail/outbox';
import { assertActionable, assertNotOverdue, type EpakActor } from './access';
import { recordEpakActivity } from './activity';
import { withLockedEpak } from './manage';
import { assertVerificationOpen, loadWaitingPlace, presentVerification, verificationCodeDigest } from './recipient-verification';

/**
 * Sends a one-time code to the caller's place in the step under way (POST …/verification/code):
 * six digits, by mail or, when asked and the person has a phone texts can reach, by text; good
 * for ten minutes, kept only as a digest. A new code replaces the last (its tries start afresh)
 * but no sooner than a minute after it (-198), and nothing is sent while wrong codes hold the
 * place locked (-217). The code goes through the outbox inside the transaction, with the
 * activity entry, so a refused or rolled-back call sends nothing.
 */
export async function sendVerificationCode(options: {
  db: Db;
  actor: EpakActor;
  epakId: string;
  channel: VerificationChannel;
  /** Texts can reach people: an SMS relay is configured, or nothing is delivered and admins relay the outbox. */
  smsAvailable: boolean;
  ip?: string | null;
  now?: Date;
}): Promise<{ channel: VerificationChannel; sentTo: string; expiresIn: number; resendAfter: number; verification: RecipientVerification }> {
  const now = options.now ?? new Date();
  return withLockedEpak(
    options.db,
    options.actor,
    options.epakId,
    async (tx, { epak }) => {
      assertActionable(epak);
      assertNotOverdue(epak, now);
      const { place, user } = await loadWaitingPlace(tx, epak, options.actor.userId);
      if (!place.verificationRequired) throw invalidInput('Your place in this ePak asks for no verification: sign as you are.', [{ path: 'verification', message: 'notRequired' }]);
      if (place.verifiedAt) throw invalidInput('You are verified already for this ePak.', [{ path: 'verification', message: 'verified' }]);
      assertVerificationOpen(place, now);
      const waited = place.verificationCodeSentAt ? (now.getTime() - place.verificationCodeSentAt.getTime()) / 1000 : Infinity;
      if (waited < VERIFICATION_RESEND_SECONDS) {
        const resendAfter = Math.ceil(VERIFICATION_RESEND_SECONDS - waited);
        throw new DomainError(ResponseCode.OTP_RETRY_TIMEOUT, `Wait ${resendAfter} seconds before asking for another code.`, { data: { resendAfter } });
      }
      if (options.channel === 'sms' && (!user.phone || !options.smsAvailable)) {
        throw invalidInput(
          user.phone ? 'Text messages are not set up here: have the code mailed instead.' : 'There is no phone number on record for you: have the code mailed instead.',
          [{ path: 'channel', message: user.phone ? 'smsUnavailable' : 'noPhone' }],
        );
      }

      const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
      const expiresAt = new Date(now.getTime() + VERIFICATION_CODE_MINUTES * 60_000);
      const [updated] = await tx
        .update(epakRecipients)
        .set({ verificationCodeHash: verificationCodeDigest(place.id, code), verificationCodeSentAt: now, verificationCodeExpiresAt: expiresAt, verificationAttempts: 0 })
        .where(eq(epakRecipients.id, place.id))
        .returning();
      if (options.channel === 'sms') {
        await queueSms({
          db: tx,
          tenantId: epak.tenantId,
          to: user.phone!,
          body: `Pakt code to sign "${epak.subject}": ${code}. Valid ${VERIFICATION_CODE_MINUTES} min. Never share it.`,
          kind: 'epak_verification_code',
        });
      } else {
        await queueEmail({
          db: tx,
          tenantId: epak.tenantId,
          to: user.email,
          subject: `Your code to sign "${epak.subject}"`,
          body: `Your code is ${code}. Enter it where you are signing "${epak.subject}" to confirm it is you. It works for ${VERIFICATION_CODE_MINUTES} minutes. If you did not ask for it, ignore this mail: nobody can sign in your place without it.`,
          kind: 'epak_verification_code',
        });
      }
      const sentTo = options.channel === 'sms' ? maskPhone(user.phone)! : maskEmail(user.email);
      // The log says a code went out and where, masked; never the code.
      await recordEpakActivity(tx, {
        epakId: epak.id,
        actorId: options.actor.userId,
        action: 'verificationCodeSent',
        details: { recipientId: place.id, channel: options.channel, sentTo },
        ip: options.ip ?? null,
      });
      return {
        channel: options.channel,
        sentTo,
        expiresIn: VERIFICATION_CODE_MINUTES * 60,
        resendAfter: VERIFICATION_RESEND_SECONDS,
        verification: presentVerification(updated!, user, { smsAvailable: options.smsAvailable, now }),
      };
    },
    'epak.respond',
  );
}
