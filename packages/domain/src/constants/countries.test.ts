import { describe, it, expect } from 'vitest';
import { COUNTRIES, COUNTRY_ALPHA2_CODES, COUNTRY_NUMERIC_CODES, Country, CountryAlpha2, findCountryByAlpha2 } from './countries';

describe('COUNTRIES', () => {
  it('has exactly 249 entries', () => {
    expect(COUNTRIES).toHaveLength(249);
  });

  it('has unique alpha-2 and numeric codes', () => {
    expect(new Set(COUNTRY_ALPHA2_CODES).size).toBe(249);
    expect(new Set(COUNTRY_NUMERIC_CODES).size).toBe(249);
  });

  it('uses well-formed codes and non-empty names', () => {
    for (const country of COUNTRIES) {
      expect(country.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(country.numeric).toMatch(/^\d{3}$/);
      expect(Country.safeParse(country).success).toBe(true);
    }
  });

  it('contains known countries', () => {
    expect(findCountryByAlpha2('IN')).toEqual({ alpha2: 'IN', numeric: '356', name: 'India' });
    expect(findCountryByAlpha2('us')?.numeric).toBe('840');
    expect(findCountryByAlpha2('GB')?.numeric).toBe('826');
    expect(findCountryByAlpha2('AF')?.numeric).toBe('004');
    expect(findCountryByAlpha2('SS')?.numeric).toBe('728');
    expect(findCountryByAlpha2('ZZ')).toBeUndefined();
  });

  it('validates alpha-2 codes with the schema', () => {
    expect(CountryAlpha2.safeParse('DE').success).toBe(true);
    expect(CountryAlpha2.safeParse('XX').success).toBe(false);
    expect(CountryAlpha2.safeParse('de').success).toBe(false);
  });
});
