import { NativeSelect, Stack, TextInput } from '@mantine/core';
import { SIGN_REASON_MAX_LENGTH, type SigningReason } from '@pakt/domain';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { reasonLabel } from '../../ui/reason-label';

/**
 * Why the person signs: one of the tenant's reasons (GET /v1/reasons, edited by admins; the
 * ceremony gets the enabled ones, the default first, in the ePak's viewer) or their own words.
 * The chosen text goes into the signature (`reason`) and into the signer's reason fields. The
 * tenant's default (spec §9, default reason id 1) is chosen to start with (issue 22); the reason
 * stays optional, so "No reason" can still be picked. It is asked once per ceremony: the same
 * reason goes with every document's sign request.
 */
export const OTHER_REASON = 'other';

export interface ReasonState {
  /** '' for none, OTHER_REASON for own words, else a reason's choice value (reasonChoice). */
  readonly choice: string;
  readonly other: string;
}

export const NO_REASON: ReasonState = { choice: '', other: '' };

/** The tenant's default reason chosen (the one marked default, which the server sends first), or none when it offers none. */
export function defaultReason(reasons: readonly SigningReason[]): ReasonState {
  const chosen = reasons.find((reason) => reason.isDefault) ?? reasons[0];
  return chosen ? { choice: reasonChoice(chosen), other: '' } : NO_REASON;
}

/** The option value of a reason: a built-in one's key (stable across tenants), else its id. */
export const reasonChoice = (reason: Pick<SigningReason, 'key' | 'reasonId'>): string => reason.key ?? reason.reasonId;

/** The reason's text as it is sent, or undefined when none is given (the reason is optional). */
export function reasonText(t: TFunction, reason: ReasonState, reasons: readonly SigningReason[]): string | undefined {
  if (reason.choice === '') return undefined;
  let text: string;
  if (reason.choice === OTHER_REASON) text = reason.other.trim();
  else {
    const chosen = reasons.find((candidate) => reasonChoice(candidate) === reason.choice);
    // A reason an admin turned off meanwhile is no longer offered: nothing is sent for it.
    if (!chosen) return undefined;
    text = reasonLabel(t, chosen);
  }
  return text === '' ? undefined : text.slice(0, SIGN_REASON_MAX_LENGTH);
}

export function ReasonPicker({
  value,
  onChange,
  reasons,
  id,
}: {
  readonly value: ReasonState;
  readonly onChange: (next: ReasonState) => void;
  /** The tenant's enabled reasons, the default first (viewer.reasons). */
  readonly reasons: readonly SigningReason[];
  readonly id?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <NativeSelect
        id={id}
        label={t('signing.reasons.label')}
        description={t('signing.reasons.hint')}
        value={value.choice}
        data={[
          { value: '', label: t('signing.reasons.none') },
          ...reasons.map((reason) => ({ value: reasonChoice(reason), label: reasonLabel(t, reason) })),
          { value: OTHER_REASON, label: t('signing.reasons.other') },
        ]}
        onChange={(event) => onChange({ ...value, choice: event.currentTarget.value })}
      />
      {value.choice === OTHER_REASON && (
        <TextInput
          label={t('signing.reasons.ownWords')}
          value={value.other}
          maxLength={SIGN_REASON_MAX_LENGTH}
          onChange={(event) => onChange({ ...value, other: event.currentTarget.value })}
        />
      )}
    </Stack>
  );
}
