import { describe, it, expect } from 'vitest';
import {
  CONTACT_NUMBER_PATTERN,
  ContactNumber,
  EMAIL_PATTERN,
  EmailAddress,
  GroupName,
  createContactNumberSchema,
  exactDigitsPattern,
} from './validation';

describe('EMAIL_PATTERN', () => {
  it.each([
    'user@example.com',
    'first.last@example.co.in',
    'user+tag@sub.domain.org',
    "o'brien@example.ie",
    'a_b-c@my-host.io',
    'USER@EXAMPLE.COM',
  ])('accepts %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
    expect(EmailAddress.safeParse(email).success).toBe(true);
  });

  it.each([
    '',
    'plainaddress',
    '@example.com',
    'user@',
    'user@localhost',
    'user@@example.com',
    'user name@example.com',
    '.user@example.com',
    'user.@example.com',
    'us..er@example.com',
    'user@-example.com',
    'user@example-.com',
    'user@example..com',
    'user@example.123',
  ])('rejects %j', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(false);
    expect(EmailAddress.safeParse(email).success).toBe(false);
  });

  it('trims surrounding whitespace in the schema', () => {
    expect(EmailAddress.parse('  user@example.com ')).toBe('user@example.com');
  });
});

describe('CONTACT_NUMBER_PATTERN', () => {
  it.each(['5551234567', '555-123-4567', '555.123.4567', '555 123 4567', '(555) 123-4567', '1 555 123 4567', '+1-555-123-4567', '+91 987 654 3210', '91-987-654-3210'])(
    'accepts %s',
    (phone) => {
      expect(CONTACT_NUMBER_PATTERN.test(phone)).toBe(true);
      expect(ContactNumber.safeParse(phone).success).toBe(true);
    },
  );

  it.each(['', '12345', '555-1234', '555-123-456', '123 555 123 4567', '+123 555 123 4567', 'abc-def-ghij', '555-123-45678', '555_123_4567'])(
    'rejects %j',
    (phone) => {
      expect(CONTACT_NUMBER_PATTERN.test(phone)).toBe(false);
      expect(ContactNumber.safeParse(phone).success).toBe(false);
    },
  );
});

describe('exact digit count', () => {
  it('builds an anchored pattern', () => {
    const pattern = exactDigitsPattern(8);
    expect(pattern.test('12345678')).toBe(true);
    expect(pattern.test('1234567')).toBe(false);
    expect(pattern.test('123456789')).toBe(false);
  });

  it('rejects non-positive or fractional counts', () => {
    expect(() => exactDigitsPattern(0)).toThrow(RangeError);
    expect(() => exactDigitsPattern(2.5)).toThrow(RangeError);
  });

  it('lets the contact schema accept either shape', () => {
    const schema = createContactNumberSchema(8);
    expect(schema.safeParse('12345678').success).toBe(true);
    expect(schema.safeParse('555-123-4567').success).toBe(true);
    expect(schema.safeParse('1234567').success).toBe(false);
  });
});

describe('GroupName', () => {
  it('allows up to 15 characters', () => {
    expect(GroupName.safeParse('a'.repeat(15)).success).toBe(true);
    expect(GroupName.safeParse('a'.repeat(16)).success).toBe(false);
    expect(GroupName.safeParse('   ').success).toBe(false);
  });
});
