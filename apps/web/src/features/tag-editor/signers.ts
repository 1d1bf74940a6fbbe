import { SIGNING_STATE_TYPES, type EpakDetail, displayName, isTagFor } from '@pakt/domain';

/**
 * One person a tag can be for: a recipient of a signing step (SIGN or INPERSONSIGN). The same
 * person at two steps is two signers, since a tag belongs to one step (Tag.wfsOrderId).
 */
export interface SignerOption {
  /** Stable key for lists and selects: `${stepOrder}|${email}`. */
  readonly key: string;
  readonly email: string;
  readonly userId: string;
  readonly name: string;
  readonly stepOrder: number;
  readonly stepName: string;
}

export function signersOf(epak: Pick<EpakDetail, 'steps'>): SignerOption[] {
  return epak.steps
    .filter((step) => (SIGNING_STATE_TYPES as readonly string[]).includes(step.type))
    .flatMap((step) =>
      step.recipients.map((recipient) => ({
        key: `${step.order}|${recipient.email}`,
        email: recipient.email,
        userId: recipient.userId,
        name: displayName(recipient),
        stepOrder: step.order,
        stepName: step.name,
      })),
    );
}

/** The signer a tag is assigned to, if any (matched by step and address). */
export function signerOfTag(signers: readonly SignerOption[], tag: { readonly userEmail?: string; readonly wfsOrderId?: number }): SignerOption | undefined {
  return signers.find((signer) => isTagFor(tag, signer));
}

/** The fields that assign a tag to a signer. */
export function assignTo(signer: SignerOption): { userEmail: string; userUuid: string; wfsOrderId: number } {
  return { userEmail: signer.email, userUuid: signer.userId, wfsOrderId: signer.stepOrder };
}
