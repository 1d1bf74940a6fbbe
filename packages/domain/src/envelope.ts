import { z } from 'zod';

/**
 * Every response body is `{ code, data, message? }` (spec section 7, DESIGN section 2).
 * `code` is a catalogue code: 1 on success.
 */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    data,
    message: z.string().optional(),
  });
}

export const ErrorEnvelope = z.object({
  code: z.number().int(),
  /** Usually null; some refusals carry what the client needs next (e.g. -200's otpId). */
  data: z.record(z.string(), z.unknown()).nullable(),
  message: z.string(),
  /** Field-level problems of an invalid request, so forms can point at the field. */
  issues: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export type Envelope<T> = { code: number; data: T; message?: string };
