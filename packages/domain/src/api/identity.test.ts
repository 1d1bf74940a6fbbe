import { describe, expect, it } from 'vitest';
import { formatRecoveryCode, normalizeRecoveryCode, verifyOtp } from './identity';

describe('recovery codes', () => {
  it.each([
    ['abcde-fghij', 'abcdefghij'],
    ['ABCDE-FGHIJ', 'abcdefghij'],
    ['  abcde fghij ', 'abcdefghij'],
    ['abcdefghij', 'abcdefghij'],
    ['a2b3c-4d5e6', 'a2b3c4d5e6'],
  ])('reads %j as typed', (typed, stored) => {
    expect(normalizeRecoveryCode(typed)).toBe(stored);
  });

  it.each(['', '123456', 'abcde-fghi', 'abcde-fghijk', 'abcde-fgh1j', 'abcde_fghij', 'ábcde-fghij'])('refuses %j', (typed) => {
    expect(normalizeRecoveryCode(typed)).toBeNull();
  });

  it('shows a code in two groups of five', () => {
    expect(formatRecoveryCode('abcdefghij')).toBe('abcde-fghij');
  });

  it('lets otp/verify carry an app code or a recovery code, never both or neither', () => {
    const otpId = '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6';
    expect(verifyOtp.body!.safeParse({ otpId, code: '123456' }).success).toBe(true);
    expect(verifyOtp.body!.safeParse({ otpId, recoveryCode: 'abcde-fghij' }).success).toBe(true);
    expect(verifyOtp.body!.safeParse({ otpId, code: '123456', recoveryCode: 'abcde-fghij' }).success).toBe(false);
    expect(verifyOtp.body!.safeParse({ otpId }).success).toBe(false);
    expect(verifyOtp.body!.safeParse({ otpId, recoveryCode: 'not-a-code' }).success).toBe(false);
  });
});
