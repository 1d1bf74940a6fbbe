import { Alert } from '@mantine/core';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The one way a form says why it was refused: a message key, shown as an alert, or nothing. */
export function FormError({ message }: { message: ParseKeys | null | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {t(message)}
    </Alert>
  );
}
