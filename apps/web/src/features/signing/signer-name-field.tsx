import { TextInput } from '@mantine/core';
import { SIGNER_NAME_MAX_LENGTH } from '@pakt/domain';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

export interface SignerNameFieldProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error: string | null;
  readonly inputRef?: Ref<HTMLInputElement>;
  readonly autoFocus?: boolean;
}

/** "Your full name", for a signer the ePak knows only by address (issue 22). */
export function SignerNameField({ value, onChange, error, inputRef, autoFocus }: SignerNameFieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      ref={inputRef}
      label={t('signing.name.label')}
      description={t('signing.name.hint')}
      required
      autoComplete="name"
      maxLength={SIGNER_NAME_MAX_LENGTH}
      value={value}
      error={error}
      data-testid="signer-name"
      data-autofocus={autoFocus || undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
