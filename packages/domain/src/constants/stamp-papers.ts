import { z } from 'zod';

// Face values (INR) a stamp paper can carry (spec §9).
export const STAMP_DENOMINATIONS = [10, 20, 50, 100, 150, 500, 1000, 5000, 10000, 15000, 20000, 25000] as const;
export const StampDenomination = z.literal(STAMP_DENOMINATIONS);
export type StampDenomination = z.infer<typeof StampDenomination>;

// The spec asks for 37 entries. That is today's 28 states + 8 union territories (36),
// with the 2020-merged "Dadra and Nagar Haveli and Daman and Diu" kept as its two former
// entries (DN, DD): stamp duty was issued separately for each, and GST state codes still
// carry both, so existing stamp papers keep a valid state. Codes are the GST/vehicle-
// registration abbreviations (CG, OD, TS, UK), not ISO 3166-2 (CT, OR, TG, UT).
export const INDIAN_STATES = [
  { code: 'AN', name: 'Andaman and Nicobar Islands' },
  { code: 'AP', name: 'Andhra Pradesh' },
  { code: 'AR', name: 'Arunachal Pradesh' },
  { code: 'AS', name: 'Assam' },
  { code: 'BR', name: 'Bihar' },
  { code: 'CH', name: 'Chandigarh' },
  { code: 'CG', name: 'Chhattisgarh' },
  { code: 'DN', name: 'Dadra and Nagar Haveli' },
  { code: 'DD', name: 'Daman and Diu' },
  { code: 'DL', name: 'Delhi' },
  { code: 'GA', name: 'Goa' },
  { code: 'GJ', name: 'Gujarat' },
  { code: 'HR', name: 'Haryana' },
  { code: 'HP', name: 'Himachal Pradesh' },
  { code: 'JK', name: 'Jammu and Kashmir' },
  { code: 'JH', name: 'Jharkhand' },
  { code: 'KA', name: 'Karnataka' },
  { code: 'KL', name: 'Kerala' },
  { code: 'LA', name: 'Ladakh' },
  { code: 'LD', name: 'Lakshadweep' },
  { code: 'MP', name: 'Madhya Pradesh' },
  { code: 'MH', name: 'Maharashtra' },
  { code: 'MN', name: 'Manipur' },
  { code: 'ML', name: 'Meghalaya' },
  { code: 'MZ', name: 'Mizoram' },
  { code: 'NL', name: 'Nagaland' },
  { code: 'OD', name: 'Odisha' },
  { code: 'PY', name: 'Puducherry' },
  { code: 'PB', name: 'Punjab' },
  { code: 'RJ', name: 'Rajasthan' },
  { code: 'SK', name: 'Sikkim' },
  { code: 'TN', name: 'Tamil Nadu' },
  { code: 'TS', name: 'Telangana' },
  { code: 'TR', name: 'Tripura' },
  { code: 'UP', name: 'Uttar Pradesh' },
  { code: 'UK', name: 'Uttarakhand' },
  { code: 'WB', name: 'West Bengal' },
] as const;

export type IndianStateEntry = (typeof INDIAN_STATES)[number];

// z.enum needs a non-empty tuple type; map() loses it, so the cast restores it.
export const INDIAN_STATE_CODES = INDIAN_STATES.map((s) => s.code) as unknown as readonly [
  IndianStateEntry['code'],
  ...IndianStateEntry['code'][],
];
export const IndianStateCode = z.enum(INDIAN_STATE_CODES);
export type IndianStateCode = z.infer<typeof IndianStateCode>;

export const IndianState = z.object({
  code: IndianStateCode,
  name: z.string().min(1),
});
export type IndianState = z.infer<typeof IndianState>;

const STATE_BY_CODE: ReadonlyMap<string, IndianStateEntry> = new Map(INDIAN_STATES.map((s) => [s.code, s]));

export function findIndianState(code: string): IndianStateEntry | undefined {
  return STATE_BY_CODE.get(code.toUpperCase());
}
