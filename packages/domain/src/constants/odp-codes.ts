import { z } from 'zod';

// Result codes of the ODP (one-time-password PKI) signing service (spec §8).
// They are separate from the platform response codes and may share values with them.
export const ODP_CODES = [
  101, 102, 103, 104, 105, 107, 108, 109, 208, 209, 401, 402, 403, 404, 422, 425, 501, 503, 504, 602, 603, 900, 911,
] as const;
export const OdpCode = z.literal(ODP_CODES);
export type OdpCode = z.infer<typeof OdpCode>;

export const ODP_CODE_MEANINGS = {
  101: 'wrong parameter',
  102: 'missing',
  103: 'wrong data length',
  104: 'unauthorized',
  105: 'unknown client',
  107: 'inappropriate data',
  108: 'incompatible interface',
  109: 'unsupported profile',
  208: 'expired transaction',
  209: 'OTA error',
  401: 'postpone',
  402: 'PIN blocked',
  403: 'card blocked',
  404: 'no key',
  422: 'no certificate',
  425: 'certificate error',
  501: 'revoked',
  503: 'invalid',
  504: 'in process',
  602: 'message problem',
  603: 'message problem',
  900: 'internal error',
  911: 'connection timeout',
} as const satisfies Record<OdpCode, string>;

export function odpCodeMeaning(code: number): string | undefined {
  return OdpCode.safeParse(code).success ? ODP_CODE_MEANINGS[code as OdpCode] : undefined;
}
