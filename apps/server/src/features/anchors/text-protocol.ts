import { z } from 'zod';
import type { SandboxFailure } from '../documents';

/** What text-child.mjs is asked to do. */
export interface TextJob {
  /** The PDF on disk. */
  input: string;
  maxPages: number;
  /** Work time after which it stops at the next page. */
  deadlineMs: number;
  maxItems: number;
  maxChars: number;
  /** Also read the drawn lines (each page's operator list: slower, and it decodes images). */
  lines: boolean;
}

const finite = z.number().finite();

/**
 * One piece of text as pdf.js gives it: the string, its text-space-to-user-space matrix (font size
 * included: [a, b, c, d, e, f], the baseline starting at (e, f)), its advance along the baseline
 * and its height, in user-space units.
 */
export const TextPiece = z.tuple([z.string().max(2000), finite, finite, finite, finite, finite, finite, finite, finite]);
export type TextPiece = z.infer<typeof TextPiece>;

/** A thin painted path's bounding box in user space: [x0, y0, x1, y1]. */
export const DrawnRule = z.tuple([finite, finite, finite, finite]);

export const PageText = z.object({
  items: z.array(TextPiece),
  rules: z.array(DrawnRule).max(2000),
});
export type PageText = z.infer<typeof PageText>;

/**
 * The child's answer, checked like any untrusted input: it read a stranger's file and could have
 * been led astray.
 */
export const TextResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    pageCount: z.number().int().nonnegative(),
    pages: z.array(PageText),
    truncated: z.enum(['pages', 'time', 'size']).nullable(),
  }),
  z.object({ ok: z.literal(false), reason: z.enum(['invalid', 'password', 'tooManyPages', 'tooLarge', 'unsupported']), message: z.string().max(500) }),
]);
export type TextResult = z.infer<typeof TextResult>;
export type TextExtraction = Extract<TextResult, { ok: true }>;

// The failure half is the sandbox's own, so a kill for time or memory reads the same.
export type { SandboxFailure };
