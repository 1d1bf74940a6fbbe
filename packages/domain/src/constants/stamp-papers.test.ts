import { describe, it, expect } from 'vitest';
import { INDIAN_STATES, INDIAN_STATE_CODES, IndianStateCode, STAMP_DENOMINATIONS, StampDenomination, findIndianState } from './stamp-papers';

describe('INDIAN_STATES', () => {
  it('has 37 entries with unique codes and names', () => {
    expect(INDIAN_STATES).toHaveLength(37);
    expect(new Set(INDIAN_STATE_CODES).size).toBe(37);
    expect(new Set(INDIAN_STATES.map((s) => s.name)).size).toBe(37);
  });

  it('uses two upper-case letters for every code', () => {
    for (const state of INDIAN_STATES) {
      expect(state.code).toMatch(/^[A-Z]{2}$/);
      expect(state.name.length).toBeGreaterThan(0);
    }
  });

  it('contains known entries', () => {
    expect(findIndianState('AN')?.name).toBe('Andaman and Nicobar Islands');
    expect(findIndianState('ap')?.name).toBe('Andhra Pradesh');
    expect(findIndianState('MH')?.name).toBe('Maharashtra');
    expect(findIndianState('DN')?.name).toBe('Dadra and Nagar Haveli');
    expect(findIndianState('DD')?.name).toBe('Daman and Diu');
    expect(findIndianState('LA')?.name).toBe('Ladakh');
    expect(findIndianState('XX')).toBeUndefined();
  });

  it('validates codes with the schema', () => {
    expect(IndianStateCode.safeParse('KA').success).toBe(true);
    expect(IndianStateCode.safeParse('ZZ').success).toBe(false);
  });
});

describe('STAMP_DENOMINATIONS', () => {
  it('lists the spec denominations in ascending order', () => {
    expect(STAMP_DENOMINATIONS).toEqual([10, 20, 50, 100, 150, 500, 1000, 5000, 10000, 15000, 20000, 25000]);
    expect([...STAMP_DENOMINATIONS].sort((a, b) => a - b)).toEqual([...STAMP_DENOMINATIONS]);
  });

  it('accepts only listed denominations', () => {
    expect(StampDenomination.safeParse(500).success).toBe(true);
    expect(StampDenomination.safeParse(200).success).toBe(false);
    expect(StampDenomination.safeParse('500').success).toBe(false);
  });
});
