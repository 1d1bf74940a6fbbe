import { Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface PersonName {
  readonly firstName: string;
  readonly middleName?: string;
  readonly lastName: string;
}

/** First and last name are required by the contract; blank after trimming counts as missing. */
export function nameProblems(name: PersonName): { firstName?: true; lastName?: true } {
  return {
    ...(name.firstName.trim() ? {} : { firstName: true as const }),
    ...(name.lastName.trim() ? {} : { lastName: true as const }),
  };
}

/** First, optional middle and last name, one under the other: the forms are narrow cards. */
export function PersonNameFields<T extends PersonName>({
  value,
  onChange,
  showErrors,
  withMiddleName = false,
}: {
  readonly value: T;
  readonly onChange: (value: T) => void;
  readonly showErrors: boolean;
  readonly withMiddleName?: boolean;
}) {
  const { t } = useTranslation();
  const problems = showErrors ? nameProblems(value) : {};
  return (
    <Stack gap="md">
      <TextInput
        label={t('common.firstName')}
        autoComplete="given-name"
        required
        maxLength={100}
        value={value.firstName}
        error={problems.firstName && t('common.required')}
        onChange={(event) => onChange({ ...value, firstName: event.currentTarget.value })}
      />
      {withMiddleName && (
        <TextInput
          label={t('common.middleName')}
          autoComplete="additional-name"
          maxLength={100}
          value={value.middleName ?? ''}
          onChange={(event) => onChange({ ...value, middleName: event.currentTarget.value })}
        />
      )}
      <TextInput
        label={t('common.lastName')}
        autoComplete="family-name"
        required
        maxLength={100}
        value={value.lastName}
        error={problems.lastName && t('common.required')}
        onChange={(event) => onChange({ ...value, lastName: event.currentTarget.value })}
      />
    </Stack>
  );
}
