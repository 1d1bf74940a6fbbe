import {
  DEFAULT_PASSWORD_CONFIG,
  DomainError,
  type RecipientVerification,
  ResponseCode,
  transition,
  VERIFICATION_MAX_ATTEMPTS,
  VERIFICATION_RESEND_SECONDS,
  type WorkflowStateType,
} from '@pakt/domain';
import { and, eq } from 'drizzle-orm';
import { digestSecret, maskEmail, maskPhone } from '../auth';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epakSteps, users } from '../../platform/db/schema';
import type { EpakRow } from './access';
import { loadEngineState } from './engine-store';

/**
 * Signer verification (issue 22, spec §9 verification modes), the parts the commands share: who
 * must verify (fixed at compose), the gate sign and delegate pass through (-151, -152), the
 * throttle's arithmetic and what the ceremony is told. The code is kept only as a SHA-256 digest
 * bound to the place, so a code read off one place's row works nowhere else.
 */

/**
 * Wrong codes in a row, across codes, before verification locks: twice a code's own tries, as for
 * the second factor at sign-in (auth/two-factor.ts), so a person who mistypes through one code
 * can ask for another and try again, yet guessing across codes stops soon.
 */
export const MAX_VERIFICATION_FAILURES = 2 * VERIFICATION_MAX_ATTEMPTS;
/** The first lock lasts as long as a sign-in lock by default; each further one twice the last, at most a day. */
export const VERIFICATION_LOCKOUT_MINUTES = DEFAULT_PASSWORD_CONFIG.lockoutMinutes;
export const MAX_VERIFICATION_LOCKOUT_MINUTES = 24 * 60;

export type RecipientRow = typeof epakRecipients.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** The stored form of a code: bound to its place, so the same six digits hash differently elsewhere. */
export const verificationCodeDigest = (recipientId: string, code: string) => digestSecret(`verification:${recipientId}:${code}`);

/**
 * When a lock earned by the `failures`-th wrong code in a row ends, or null when that one earns
 * none: every MAX_VERIFICATION_FAILURES-th does, each lock twice as long as the one before (the
 * count is kept across locks, so it says how many there were) until a right code clears it.
 */
export function verificationLockEnd(failures: number, now: Date): Date | null {
  if (failures <= 0 || failures % MAX_VERIFICATION_FAILURES !== 0) return null;
  const lockouts = failures / MAX_VERIFICATION_FAILURES;
  const minutes = Math.min(MAX_VERIFICATION_LOCKOUT_MINUTES, VERIFICATION_LOCKOUT_MINUTES * 2 ** Math.min(lockouts - 1, 16));
  return new Date(now.getTime() + minutes * 60_000);
}

/**
 * Whether texts can reach people: an SMS relay is configured, or nothing is delivered at all and
 * administrators relay the outbox by hand (the rule sign-in codes follow).
 */
export const smsAvailableOn = (config: { sms?: unknown; smtp?: unknown }) => Boolean(config.sms) || !config.smtp;

const secondsUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** -217 while locked, with the wait in data.retryAfter (the error handler sends it as Retry-After). */
export function assertVerificationOpen(place: Pick<RecipientRow, 'verificationLockedUntil'>, now: Date): void {
  const until = place.verificationLockedUntil;
  if (!until || until <= now) return;
  const retryAfter = secondsUntil(until, now);
  const minutes = Math.ceil(retryAfter / 60);
  throw new DomainError(ResponseCode.MAXIMUM_OTP_ATTEMPTS, `Too many wrong codes: verification is paused. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    data: { retryAfter, lockedUntil: until.toISOString() },
  });
}

/**
 * The gate of sign and delegate: a place that must verify and has not is refused, with -151 for
 * signing and -152 for delegating (spec §8), before anything is changed.
 */
export function assertPlaceVerified(place: Pick<RecipientRow, 'verificationRequired' | 'verifiedAt'>, action: 'sign' | 'delegate'): void {
  if (!place.verificationRequired || place.verifiedAt) return;
  throw new DomainError(
    action === 'sign' ? ResponseCode.SIGN_VERIFICATION_ERROR : ResponseCode.DELEGATE_VERIFICATION_ERROR,
    action === 'sign'
      ? 'Confirm the code sent to you before you sign: ask for a code, then enter it.'
      : 'Confirm the code sent to you before you hand your place to someone else: ask for a code, then enter it.',
    { data: { verificationRequired: true } },
  );
}

/** The gate for a place known by its id (the sign command knows no more of it). */
export async function assertRecipientVerified(db: Db, recipientId: string, action: 'sign' | 'delegate'): Promise<void> {
  const [place] = await db
    .select({ verificationRequired: epakRecipients.verificationRequired, verifiedAt: epakRecipients.verifiedAt })
    .from(epakRecipients)
    .where(eq(epakRecipients.id, recipientId));
  if (place) assertPlaceVerified(place, action);
}

/** What presentVerification reads of a place. */
export type VerificationPlace = Pick<
  RecipientRow,
  'verificationRequired' | 'verifiedAt' | 'verificationCodeHash' | 'verificationCodeSentAt' | 'verificationCodeExpiresAt' | 'verificationAttempts' | 'verificationLockedUntil'
>;

/** Where a place stands, as the ceremony is told: masked addresses, never the code. */
export function presentVerification(place: VerificationPlace, user: Pick<UserRow, 'email' | 'phone'>, options: { smsAvailable: boolean; now: Date }): RecipientVerification {
  const { now } = options;
  const locked = place.verificationLockedUntil && place.verificationLockedUntil > now ? place.verificationLockedUntil : null;
  const outstanding =
    place.verificationCodeHash !== null && place.verificationCodeExpiresAt !== null && place.verificationCodeExpiresAt > now && place.verificationAttempts < VERIFICATION_MAX_ATTEMPTS;
  const resendAt = place.verificationCodeSentAt ? new Date(place.verificationCodeSentAt.getTime() + VERIFICATION_RESEND_SECONDS * 1000) : null;
  return {
    required: place.verificationRequired,
    verified: place.verifiedAt !== null,
    maskedEmail: maskEmail(user.email),
    maskedPhone: options.smsAvailable ? maskPhone(user.phone) : null,
    codeOutstanding: outstanding && !locked,
    codeExpiresAt: outstanding ? place.verificationCodeExpiresAt!.toISOString() : null,
    attemptsLeft: outstanding ? VERIFICATION_MAX_ATTEMPTS - place.verificationAttempts : 0,
    resendAt: resendAt && resendAt > now ? resendAt.toISOString() : null,
    lockedUntil: locked ? locked.toISOString() : null,
  };
}

/** What the viewer says of a place (EpakViewer.verification); nothing asked of a caller with no place. */
export async function loadViewerVerification(db: Db, recipientId: string | null, options: { smsAvailable: boolean; now?: Date }): Promise<RecipientVerification | undefined> {
  if (!recipientId) return undefined;
  const [row] = await db.select({ place: epakRecipients, user: users }).from(epakRecipients).innerJoin(users, eq(users.id, epakRecipients.userId)).where(eq(epakRecipients.id, recipientId));
  return row ? presentVerification(row.place, row.user, { smsAvailable: options.smsAvailable, now: options.now ?? new Date() }) : undefined;
}

export interface WaitingPlace {
  readonly place: RecipientRow;
  readonly order: number;
  readonly type: WorkflowStateType;
  readonly user: UserRow;
}

/**
 * The caller's place in the step under way that waits for them. Otherwise the engine's reason
 * (-23 rejected, -72 completed), else -28 as sign answers: nothing waits for them now.
 */
export async function loadWaitingPlace(tx: Db, epak: EpakRow, userId: string): Promise<WaitingPlace> {
  const rows = await tx
    .select({ place: epakRecipients, order: epakSteps.position, type: epakSteps.type, user: users })
    .from(epakRecipients)
    .innerJoin(epakSteps, eq(epakSteps.id, epakRecipients.stepId))
    .innerJoin(users, eq(users.id, epakRecipients.userId))
    .where(and(eq(epakRecipients.epakId, epak.id), eq(epakRecipients.userId, userId)));
  const waiting = rows.find((row) => epak.status === 'InProgress' && row.order === epak.currentStep && (row.place.status === 'Pending' || row.place.status === 'DelegatePending'));
  if (waiting) return { ...waiting, type: waiting.type as WorkflowStateType };
  const mine = rows.find((row) => row.order === epak.currentStep) ?? rows[0];
  if (mine) {
    const stored = await loadEngineState(tx, epak);
    const result = transition(stored.state, { type: 'sign', recipientId: mine.place.id });
    if (!result.ok) throw new DomainError(ResponseCode[result.code], result.reason);
  }
  throw new DomainError(ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING, 'Nothing of this ePak is waiting for you now.');
}
