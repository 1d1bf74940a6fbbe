import { Alert, List, Text } from '@mantine/core';
import type { ForgeryWarning } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { AlertTriangleIcon } from '../../ui/icons';

/**
 * The known forgery classes this file shows. They come right under the verdict, in red, because
 * a shadow or wrapping attack can leave every signature "intact": the verdict alone would mislead.
 */
export function ForgeryWarnings({ warnings }: { readonly warnings: readonly ForgeryWarning[] }) {
  const { t } = useTranslation();
  if (warnings.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="filled"
      role="alert"
      icon={<AlertTriangleIcon size={22} />}
      title={t('verify.warnings.heading')}
      data-testid="verify-warnings"
    >
      <Text size="sm" mb="xs">
        {t('verify.warnings.intro')}
      </Text>
      <List size="sm" spacing={6} c="white">
        {warnings.map((warning, index) => (
          <List.Item key={index} data-kind={warning.kind}>
            <Text component="span" size="sm" fw={700}>
              {t(`verify.warnings.kind.${warning.kind}`)}
            </Text>
            {warning.signature && (
              <Text component="span" size="sm">
                {` (${t('verify.warnings.signature', { name: warning.signature })})`}
              </Text>
            )}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {warning.detail}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
