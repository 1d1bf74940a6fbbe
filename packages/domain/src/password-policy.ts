import { z } from 'zod';

/**
 * A tenant's password rules (spec section 5: "The password rules come from a per-tenant password
 * configuration"). Checked by the server and shown by the forms, from this one definition.
 */
export const PasswordConfig = z.object({
  minLength: z.number().int().min(8).max(128),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireDigit: z.boolean(),
  requireSpecial: z.boolean(),
  /** How many previous passwords may not be reused (0: no history). */
  historyCount: z.number().int().min(0).max(24),
  /** Days until a password expires and must be changed (0: never). */
  expiryDays: z.number().int().min(0).max(3650),
  /** Wrong passwords in a row before the account locks (-14). */
  maxFailedAttempts: z.number().int().min(1).max(100),
  lockoutMinutes: z.number().int().min(1).max(24 * 60),
});
export type PasswordConfig = z.infer<typeof PasswordConfig>;

export const DEFAULT_PASSWORD_CONFIG: PasswordConfig = {
  minLength: 10,
  requireUppercase: true,
  requireLowercase: true,
  requireDigit: true,
  requireSpecial: false,
  historyCount: 3,
  expiryDays: 0,
  maxFailedAttempts: 5,
  lockoutMinutes: 15,
};

export type PasswordRule = 'minLength' | 'maxLength' | 'uppercase' | 'lowercase' | 'digit' | 'special';

/** Longer inputs are refused before hashing: argon2 on megabytes is a denial of service. */
export const PASSWORD_MAX_LENGTH = 256;

/** The rules a password breaks, in a stable order; empty when it is acceptable. */
export function passwordProblems(password: string, config: PasswordConfig): PasswordRule[] {
  const problems: PasswordRule[] = [];
  if ([...password].length < config.minLength) problems.push('minLength');
  if (password.length > PASSWORD_MAX_LENGTH) problems.push('maxLength');
  if (config.requireUppercase && !/\p{Lu}/u.test(password)) problems.push('uppercase');
  if (config.requireLowercase && !/\p{Ll}/u.test(password)) problems.push('lowercase');
  if (config.requireDigit && !/\p{Nd}/u.test(password)) problems.push('digit');
  if (config.requireSpecial && !/[^\p{L}\p{Nd}]/u.test(password)) problems.push('special');
  return problems;
}
