import { z } from 'zod';
import { TagType } from '../constants/tags';
import { Rect } from '../tags/geometry';
import { Tag } from '../tags/tag';
import { defineEndpoint } from './contract';

/**
 * Anchor placement (issue 21): tags suggested where a document's own text says they belong, for
 * the custodian to accept or dismiss one by one in the tag editor. Nothing is saved by these
 * calls: an accepted suggestion is placed like any tag and saved with the others.
 *
 * Two ways to look (`find`):
 *
 * - `anchors`: anchor strings written into the document, `{{type:signerN}}` (for example
 *   `{{signature:signer1}}`, `{{calendar:signer2}}`, `{{initials}}`), and the configured strings
 *   the request names (`strings`, a word such as "Signature:"). `type` is a tag type of spec §3
 *   (any case) or one of the aliases sign, date, initials, name; `signerN` is optional. Every
 *   occurrence gets a tag. A configured string found nowhere in the pages read refuses the whole
 *   request with -125 (auto placement string not found), `data.notFound` naming each.
 * - `signatureLines`: runs of underscores (or dots) and drawn lines next to a label: Sign,
 *   Signature, Signed, Signatory, Date (English) or हस्ताक्षर, दिनांक, तिथि, तारीख (Hindi), on the
 *   same line before it, under it or over it; a label with a colon and nothing after it too. A
 *   signature label suggests a signature tag, a date label a calendar tag, each with a confidence
 *   (0.95 for "Signature: ____" down to 0.5 for a bare "Signed:"). The tag stands on the line, as
 *   wide as it within its type's limits. Drawn lines are read after the text of every page, while
 *   time remains.
 *
 * Who a tag is for: `signerN` is the Nth signer of the workflow, counting the recipients of its
 * signing steps (SIGN and INPERSONSIGN) in step order and, within a step, in the order they were
 * added. It is the order of the tag editor's "For" list and of the signer count that -107
 * compares. Review and email steps do not count. On a stored document (no workflow yet) the slot
 * is returned and the tag is for nobody.
 *
 * Geometry is the tag editing model's (tags/geometry.ts): PDF points in the page's visible box,
 * unrotated, origin at its top-left; a tag's size is its type's default as the page shows it.
 * Anchors are found on text of any orientation; the tag's top-left corner is where the anchor's
 * text starts, as the text reads (for text upright on the page: as the page shows it).
 *
 * Text is read from the stored PDF in a bounded child process (pdf.js, eval off): at most
 * ANCHOR_MAX_PAGES pages, ANCHOR_TIME_LIMIT_MS, and a cap on the amount of text; `truncated` says
 * which limit stopped the reading early, and `pagesScanned` how far it got.
 */

/** Pages read for anchors at most; later pages are not searched (`truncated: 'pages'`). */
export const ANCHOR_MAX_PAGES = 500;
/** How long the reading of one document may take before it stops where it is (`truncated: 'time'`). */
export const ANCHOR_TIME_LIMIT_MS = 20_000;
/** Configured strings one request may name. */
export const ANCHOR_STRINGS_MAX = 20;
/** Suggestions one answer carries at most (the first ones in page order). */
export const ANCHOR_SUGGESTIONS_MAX = 500;

export const ANCHOR_FIND_MODES = ['anchors', 'signatureLines'] as const;
export const AnchorFindMode = z.enum(ANCHOR_FIND_MODES);
export type AnchorFindMode = z.infer<typeof AnchorFindMode>;

/** Where a configured string's tag goes, as the page shows it: after the text, under it, or over it. */
export const ANCHOR_PLACEMENTS = ['right', 'below', 'over'] as const;
export const AnchorPlacement = z.enum(ANCHOR_PLACEMENTS);
export type AnchorPlacement = z.infer<typeof AnchorPlacement>;

/** A string to look for, and the tag each occurrence gets. */
export const ConfiguredAnchor = z.object({
  /** Matched without regard to case or to how much white space separates its words. */
  text: z.string().trim().min(1).max(100),
  type: TagType.default('signature'),
  /** 1-based place among the workflow's signers (see above); left out, the tag is for nobody. */
  signer: z.number().int().min(1).max(1000).optional(),
  placement: AnchorPlacement.default('right'),
  /** Moves the tag from where the placement puts it, in points, along the text and down from it. */
  offsetX: z.number().min(-1000).max(1000).default(0),
  offsetY: z.number().min(-1000).max(1000).default(0),
});
export type ConfiguredAnchor = z.infer<typeof ConfiguredAnchor>;

export const FindAnchorsBody = z.object({
  find: AnchorFindMode,
  /** Only with `find: 'anchors'`. */
  strings: z.array(ConfiguredAnchor).max(ANCHOR_STRINGS_MAX).default([]),
});
export type FindAnchorsBody = z.infer<typeof FindAnchorsBody>;

export const ANCHOR_SOURCES = ['anchor', 'configured', 'signatureLine'] as const;
export const AnchorSource = z.enum(ANCHOR_SOURCES);
export type AnchorSource = z.infer<typeof AnchorSource>;

/** What a suggestion is for: a signature, a date, or another field an anchor names. */
export const ANCHOR_KINDS = ['signature', 'date', 'field'] as const;
export const AnchorKind = z.enum(ANCHOR_KINDS);
export type AnchorKind = z.infer<typeof AnchorKind>;

export const AnchorSuggestion = z.object({
  /**
   * The tag as the editor would place it: a fresh uuid, createType new, the type's defaults, and
   * userEmail, userUuid and wfsOrderId when the ePak has the signer the anchor names.
   */
  tag: Tag,
  source: AnchorSource,
  kind: AnchorKind,
  /** 0 to 1: how sure the finder is. An anchor string is 1; a line with a label beside it less. */
  confidence: z.number().min(0).max(1),
  /** The text that was matched (the anchor, the configured string, or the label). */
  text: z.string().max(200),
  /** The signer the anchor names (signerN), or null. */
  signerSlot: z.number().int().positive().nullable(),
  /** Where the matched text (or line) is, in the page frame of the tag. */
  anchorBox: Rect,
});
export type AnchorSuggestion = z.infer<typeof AnchorSuggestion>;

export const AnchorSuggestions = z.object({
  suggestions: z.array(AnchorSuggestion),
  pageCount: z.number().int().nonnegative(),
  pagesScanned: z.number().int().nonnegative(),
  /** Why reading stopped before the last page or before all suggestions were listed, or null. */
  truncated: z.enum(['pages', 'time', 'size', 'suggestions']).nullable(),
  /** Anchor strings found that name no tag type (`{{stamp:signer1}}`), each once. */
  unrecognised: z.array(z.string().max(200)),
  /** Anchors naming a signer the workflow does not have (signerN beyond its signers): left for nobody. */
  unmatchedSlots: z.array(z.number().int().positive()),
});
export type AnchorSuggestions = z.infer<typeof AnchorSuggestions>;

export const findDocumentAnchors = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/documents/:documentId/anchors',
  access: 'tenant',
  action: 'document.manage',
  summary:
    "Tags suggested at a stored document's anchor strings or signature lines (its owner only); nothing is saved. -125 when a configured string is not found.",
  params: z.object({ documentId: z.uuid() }),
  body: FindAnchorsBody,
  response: AnchorSuggestions,
});

export const findEpakDocumentAnchors = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/epaks/:ePakId/documents/:documentId/anchors',
  access: 'tenant',
  action: 'epak.compose',
  summary:
    "Tags suggested at the anchor strings or signature lines of one document of a draft, for the draft's signers (its owner only); nothing is saved. -125 when a configured string is not found.",
  params: z.object({ ePakId: z.uuid(), documentId: z.uuid() }),
  body: FindAnchorsBody,
  response: AnchorSuggestions,
});
