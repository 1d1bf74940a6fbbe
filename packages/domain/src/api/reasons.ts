import { z } from 'zod';
import { defineEndpoint } from './contract';

/**
 * Signing reasons of a tenant (issue 8; spec §7 "PUT and POST /msbapi/v1/reasons", §9 "default
 * reason id 1"). The signing ceremony offers the enabled ones, the default first, plus the
 * signer's own words; the chosen text goes into the signature. Every tenant starts with four
 * built-in reasons (the first is the default); admins add, edit, disable, reorder them and choose
 * the default when the tenant's showEditReasons setting is on (§2 "edit reasons"). Reasons are
 * never deleted: a disabled one stays in the list for admins and leaves the ceremony.
 */

/** Signing reasons are one short line in the signature dictionary and on the page. */
export const SIGN_REASON_MAX_LENGTH = 200;

/** The built-in reasons every tenant starts with; the web app shows them in the reader's language. */
export const BUILT_IN_REASON_KEYS = ['approve', 'agree', 'author', 'witness'] as const;
export const BuiltInReasonKey = z.enum(BUILT_IN_REASON_KEYS);
export type BuiltInReasonKey = z.infer<typeof BuiltInReasonKey>;

export const SigningReason = z.object({
  reasonId: z.uuid(),
  /**
   * Set while a built-in reason keeps its original words: the web app shows its translation
   * (the English `text` is the stored words). Editing the text makes it the tenant's own (null).
   */
  key: BuiltInReasonKey.nullable(),
  text: z.string(),
  /** 1-based place in the list. */
  position: z.number().int().positive(),
  enabled: z.boolean(),
  /** The tenant's default reason, listed first in the ceremony (spec §9 "default reason id 1"). */
  isDefault: z.boolean(),
});
export type SigningReason = z.infer<typeof SigningReason>;

/** A reason's words: not blank, at most SIGN_REASON_MAX_LENGTH, unique in the tenant whatever the case. */
export const ReasonText = z.string().trim().min(1).max(SIGN_REASON_MAX_LENGTH);

export const listReasons = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/reasons',
  access: 'tenant',
  action: 'epak.act',
  summary: "The tenant's signing reasons in their order, disabled ones included (marked); signing-link sessions get the enabled ones in the ePak's viewer.",
  response: z.object({ reasons: z.array(SigningReason) }),
});

export const createReason = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/reasons',
  access: 'tenant',
  action: 'reason.manage',
  summary: 'Admin: adds a reason at the end of the list, enabled (-6 blank, too long or already in the list).',
  body: z.object({ text: ReasonText }),
  response: SigningReason,
});

export const updateReason = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/reasons',
  access: 'tenant',
  action: 'reason.manage',
  summary:
    'Admin: changes one reason: its words, enabled, its place (1-based; the others close up) or makes it the default (which enables it). The default cannot be disabled (-6).',
  body: z.object({
    reasonId: z.uuid(),
    text: ReasonText.optional(),
    enabled: z.boolean().optional(),
    position: z.number().int().positive().max(10_000).optional(),
    isDefault: z.literal(true).optional(),
  }),
  response: z.object({ reasons: z.array(SigningReason) }),
});
