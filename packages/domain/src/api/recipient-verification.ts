import { z } from 'zod';
import { defineEndpoint } from './contract';

/**
 * Signer verification (issue 22, spec §9 verification modes): a recipient whose place asks for it
 * confirms a one-time code, sent by mail or text, before they sign or delegate (-151, -152 until
 * they have). Reviewing and rejecting need no code. The code itself is never in any answer: only
 * the masked address it went to.
 */

/** Six digits, good for ten minutes; a new one may be asked for a minute after the last. */
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_CODE_MINUTES = 10;
export const VERIFICATION_RESEND_SECONDS = 60;
/** Wrong tries of one code before it is void (-217) and a new one is needed. */
export const VERIFICATION_MAX_ATTEMPTS = 5;

export const VerificationChannel = z.enum(['email', 'sms']);
export type VerificationChannel = z.infer<typeof VerificationChannel>;

/**
 * Where the caller's place stands with verification (EpakViewer.verification). Nothing here is a
 * secret: addresses are masked, and the code is not told.
 */
export const RecipientVerification = z.object({
  /** The caller's place in the step under way must confirm a code before signing or delegating. */
  required: z.boolean(),
  /** It has: verification holds for the rest of this place. */
  verified: z.boolean(),
  /** Where a code goes by mail, masked (j***@ex***.com). */
  maskedEmail: z.string().nullable(),
  /** Where a code goes by text, masked to its last digits; null when the person has no phone or texts cannot reach it. */
  maskedPhone: z.string().nullable(),
  /** A code was sent that may still be typed (not expired, not void after too many wrong tries). */
  codeOutstanding: z.boolean(),
  codeExpiresAt: z.iso.datetime().nullable(),
  /** Wrong tries left for the outstanding code. */
  attemptsLeft: z.number().int().nonnegative(),
  /** When a new code may be asked for; null: now. */
  resendAt: z.iso.datetime().nullable(),
  /** Too many wrong codes: nothing is sent or checked before this time. */
  lockedUntil: z.iso.datetime().nullable(),
});
export type RecipientVerification = z.infer<typeof RecipientVerification>;

/** A place that asks for nothing: what an older answer without `verification` means. */
export const NO_VERIFICATION: RecipientVerification = {
  required: false,
  verified: false,
  maskedEmail: null,
  maskedPhone: null,
  codeOutstanding: false,
  codeExpiresAt: null,
  attemptsLeft: 0,
  resendAt: null,
  lockedUntil: null,
};

const EpakParams = z.object({ ePakId: z.uuid() });

export const sendVerificationCode = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/verification/code',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    "Sends a one-time code to the caller, for their place in the step under way, by mail (or by text with channel sms, when they have a phone on record; -6 otherwise). Valid ten minutes; a new one a minute after the last at the earliest (-198, data.resendAfter). -28 when nothing waits for the caller, -6 when their place asks for no verification or is verified already, -217 while too many wrong codes hold it locked (data.retryAfter).",
  params: EpakParams,
  body: z.object({ channel: VerificationChannel.default('email') }),
  response: z.object({
    channel: VerificationChannel,
    /** The masked address or phone the code went to. */
    sentTo: z.string(),
    expiresIn: z.number().int().positive(),
    resendAfter: z.number().int().positive(),
    verification: RecipientVerification,
  }),
});

export const confirmVerificationCode = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/verification',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    "Confirms the code sent to the caller's place: right, the place is verified and may sign or delegate. Wrong: -138 (data.attemptsLeft); the fifth wrong try voids the code (-217); repeated wrong codes lock verification for a while that doubles each time (-217, data.retryAfter). -196 when no code is outstanding or it has expired.",
  params: EpakParams,
  body: z.object({ code: z.string().trim().regex(/^\d{6}$/, 'six digits') }),
  response: z.object({ verified: z.literal(true), verification: RecipientVerification }),
});
