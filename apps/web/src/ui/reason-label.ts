import type { SigningReason } from '@pakt/domain';
import type { TFunction } from 'i18next';

/** A reason's words as shown: a built-in one in the reader's language, the tenant's own as typed. */
export function reasonLabel(t: TFunction, reason: Pick<SigningReason, 'key' | 'text'>): string {
  return reason.key ? t(`signing.reasons.${reason.key}`) : reason.text;
}
