import { profileQueryKey } from '../../api/profile';

/** Query keys of sign-in and registration: answers about one invitation or one sign-in challenge. */
export const identityQueryKeys = {
  invitation: (inviteCode: string) => ['invitation', inviteCode] as const,
  /** Whether a second-factor challenge still lives, and how many tries are left. */
  otpChallenge: (otpId: string) => ['otp-challenge', otpId] as const,
  /** How many of one's own recovery codes are unused: under the profile, forgotten with it. */
  recoveryCodes: [...profileQueryKey, 'recovery-codes'] as const,
};
