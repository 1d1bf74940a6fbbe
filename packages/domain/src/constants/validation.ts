import { z } from 'zod';
import { GROUP_NAME_LENGTH } from './ui';

// Dot-separated local part (no leading, trailing or doubled dots), then at least two
// domain labels of up to 63 chars each, the last starting with a letter.
// No flags: a /g regex keeps state between test() calls.
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export const EmailAddress = z.string().trim().max(254).regex(EMAIL_PATTERN);
export type EmailAddress = z.infer<typeof EmailAddress>;

// Optional 1-2 digit country prefix (with optional '+'), then 3-3-4 digits. Groups may be
// separated by a space, dot or hyphen, and the first group may be parenthesised.
export const CONTACT_NUMBER_PATTERN = /^(?:\+?\d{1,2}[ .-]?)?(?:\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}$/;

// Some tenants configure an exact digit count instead of the 3-3-4 shape.
export function exactDigitsPattern(digitCount: number): RegExp {
  if (!Number.isInteger(digitCount) || digitCount < 1) {
    throw new RangeError(`digitCount must be a positive integer, got ${digitCount}`);
  }
  return new RegExp(`^\\d{${digitCount}}$`);
}

// Accepts the 3-3-4 shape, or also a plain number of the configured length when given.
export function createContactNumberSchema(exactDigitCount?: number) {
  const exact = exactDigitCount === undefined ? undefined : exactDigitsPattern(exactDigitCount);
  return z
    .string()
    .trim()
    .refine((value) => CONTACT_NUMBER_PATTERN.test(value) || (exact?.test(value) ?? false), {
      message: 'Invalid contact number',
    });
}
export const ContactNumber = createContactNumberSchema();
export type ContactNumber = z.infer<typeof ContactNumber>;

export const GroupName = z.string().trim().min(1).max(GROUP_NAME_LENGTH);
export type GroupName = z.infer<typeof GroupName>;

// Field error codes returned for bulk-compose CSV rows (spec §5).
export const BULK_COMPOSE_CSV_FIELD_ERRORS = {
  email: -1,
  firstName: -2,
  lastName: -3,
  phone: -4,
  countryCode: -5,
} as const;
export type BulkComposeCsvField = keyof typeof BULK_COMPOSE_CSV_FIELD_ERRORS;
