import { describe, expect, it } from 'vitest';
import { formatUtcTimestamp } from './timestamps';

describe('formatUtcTimestamp', () => {
  it('prints spec §9 yyyy-MM-dd HH:mm:ss in UTC, padded, whatever the machine’s zone', () => {
    expect(formatUtcTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02 03:04:05 UTC');
    expect(formatUtcTimestamp(new Date('2026-12-31T23:59:59+05:30'))).toBe('2026-12-31 18:29:59 UTC');
  });
});
