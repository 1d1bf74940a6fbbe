import { describe, expect, it } from 'vitest';
import { expiryState, namesWithMore } from './epak-format';

const NOW = Date.parse('2025-01-15T12:00:00.000Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

describe('expiry', () => {
  it('is flagged for an ePak under way: past, within 7 days, or later', () => {
    expect(expiryState({ status: 'InProgress', expiredOn: at(NOW - 1) }, NOW)).toBe('past');
    expect(expiryState({ status: 'InProgress', expiredOn: at(NOW + 7 * DAY) }, NOW)).toBe('soon');
    expect(expiryState({ status: 'InProgress', expiredOn: at(NOW + 8 * DAY) }, NOW)).toBe('later');
    expect(expiryState({ status: 'InProgress', expiredOn: null }, NOW)).toBe('none');
  });

  it('no longer matters once the ePak has ended', () => {
    expect(expiryState({ status: 'Completed', expiredOn: at(NOW - DAY) }, NOW)).toBe('later');
  });
});

describe('names with more', () => {
  it('shows the first two and counts the rest', () => {
    expect(namesWithMore(['Asha', 'Ravi', 'Meera', 'Kavya'])).toEqual({ names: 'Asha, Ravi', more: 2 });
    expect(namesWithMore(['Asha'])).toEqual({ names: 'Asha', more: 0 });
    expect(namesWithMore([])).toEqual({ names: '', more: 0 });
  });
});
