import { NativeSelect, Stack, TextInput } from '@mantine/core';
import { SIGN_REASON_MAX_LENGTH } from '@pakt/domain';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * Why the person signs: one of the usual reasons or their own words. The spec's reasons list
 * (GET/PUT /v1/reasons, edited by admins) has no endpoint yet, so these are the common ones; the
 * chosen text goes into the signature (`reason`) and into the signer's reason fields.
 */
export const REASON_CHOICES = ['approve', 'agree', 'author', 'witness', 'other'] as const;
export type ReasonChoice = (typeof REASON_CHOICES)[number];

export interface ReasonState {
  readonly choice: ReasonChoice | '';
  readonly other: string;
}

export const NO_REASON: ReasonState = { choice: '', other: '' };

/** The reason's text as it is sent, or undefined when none is given (the reason is optional). */
export function reasonText(t: TFunction, reason: ReasonState): string | undefined {
  if (reason.choice === '') return undefined;
  const text = reason.choice === 'other' ? reason.other.trim() : t(`signing.reasons.${reason.choice}`);
  return text === '' ? undefined : text.slice(0, SIGN_REASON_MAX_LENGTH);
}

export function ReasonPicker({ value, onChange, id }: { readonly value: ReasonState; readonly onChange: (next: ReasonState) => void; readonly id?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <NativeSelect
        id={id}
        label={t('signing.reasons.label')}
        description={t('signing.reasons.hint')}
        value={value.choice}
        data={[{ value: '', label: t('signing.reasons.none') }, ...REASON_CHOICES.map((choice) => ({ value: choice, label: t(`signing.reasons.${choice}`) }))]}
        onChange={(event) => onChange({ ...value, choice: event.currentTarget.value as ReasonState['choice'] })}
      />
      {value.choice === 'other' && (
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
