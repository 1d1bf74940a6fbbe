import { ExistingSignature, ForgeryWarning, VerifiedRevision } from '@pakt/domain';
import { z } from 'zod';

/**
 * What the verifier's child answers on stdout, one JSON line. The parent checks it like any other
 * untrusted input: the child read a stranger's file and could have been led astray.
 */
export const VerifyJob = z.object({ input: z.string() });
export type VerifyJob = z.infer<typeof VerifyJob>;

export const AnalysisResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    certificationLevel: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
    signatures: z.array(
      ExistingSignature.extend({
        subject: z.string().nullable(),
        issuer: z.string().nullable(),
        certificate: z.string().max(64_000).nullable(),
        revision: z.number().int().positive().nullable(),
      }),
    ).max(500),
    revisions: z.array(VerifiedRevision).max(10_000),
    warnings: z.array(ForgeryWarning).max(10_000),
  }),
  z.object({ ok: z.literal(false), reason: z.enum(['invalid', 'password', 'tooManyPages', 'tooLarge', 'unsupported']), message: z.string().max(500) }),
]);
export type AnalysisResult = z.infer<typeof AnalysisResult>;
