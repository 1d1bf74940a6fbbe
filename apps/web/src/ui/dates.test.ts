import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('dates as the app shows them', () => {
  const at = '2026-11-27T20:55:16Z';
  it('shows a day, and a day with its time, in the reader’s language', () => {
    expect(formatDate(at, 'en')).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(at)));
    expect(formatDateTime(at, 'hi')).toBe(new Intl.DateTimeFormat('hi', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)));
    expect(formatDate(new Date(at), 'en')).toBe(formatDate(at, 'en'));
  });

  it('shows nothing for no date', () => {
    expect(formatDate(null, 'en')).toBe('');
    expect(formatDateTime(undefined, 'en')).toBe('');
  });
});
