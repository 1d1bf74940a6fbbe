/**
 * What other features may use from auth/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { claimSignInAttempt, clearSignInThrottle, recordFailedSignIn, signInThrottleKey } from './login-throttle';
export { consumeOneTimeToken, issueOneTimeToken, lastIssuedAt } from './one-time-tokens';
export { loadPasswordConfig, loadStrictestPasswordConfig } from './password-config';
export { digestSecret, generateSecret, hashPassword, secretsEqual, verifyPassword } from './secrets';
export { issueSession, revokeSessionFamily, rotateSession } from './sessions';
export type { ClientInfo } from './sessions';
export {
  IN_PERSON_CHALLENGE_PREFIX,
  OTP_RESEND_SECONDS,
  confirmEnrolment,
  countRecoveryCodesLeft,
  describeChallenge,
  disableSecondFactor,
  maskEmail,
  maskPhone,
  openChallenge,
  regenerateRecoveryCodes,
  secondFactorFor,
  sendChallengeCode,
  startEnrolment,
  switchOffAuthenticator,
  verifyChallenge,
  verifyRecoveryCode,
} from './two-factor';
