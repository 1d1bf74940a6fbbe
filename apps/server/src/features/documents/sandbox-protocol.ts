import { PageGeometry, PreconfiguredTag } from '@pakt/domain';
import { z } from 'zod';

/**
 * What the sandbox child answers on stdout, one JSON line. The parent validates it like any
 * other untrusted input: the child parsed a stranger's file and could have been led astray.
 */
export const SandboxFailure = z.object({
  ok: z.literal(false),
  reason: z.enum(['invalid', 'password', 'tooManyPages', 'tooLarge', 'unsupported']),
  message: z.string().max(500),
});
export type SandboxFailure = z.infer<typeof SandboxFailure>;

export const InspectResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    pageCount: z.number().int().positive(),
    pages: z.array(PageGeometry),
    encrypted: z.boolean(),
    formFields: z.array(PreconfiguredTag),
  }),
  SandboxFailure,
]);
export type InspectResult = z.infer<typeof InspectResult>;

export const WriteResult = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), SandboxFailure]);
export type WriteResult = z.infer<typeof WriteResult>;

export type SandboxJob =
  /** wholeFile: the former read of the file into memory whole, for the upload bench's comparison only. */
  | { mode: 'inspect'; input: string; maxPages: number; wholeFile?: boolean }
  | { mode: 'image'; input: string; format: string; output: string }
  | { mode: 'merge'; inputs: string[]; output: string };
