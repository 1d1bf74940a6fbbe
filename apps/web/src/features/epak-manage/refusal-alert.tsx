import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { manageErrorMessage } from './manage-errors';

/**
 * A dialog's refused save, in words; when the ePak changed underneath (-306, `stale`), the way to
 * load it again. The test ids name the dialog: `manage-<name>-stale`, `manage-<name>-reload`, or
 * `manage-dialog-error` for any other refusal.
 */
export function RefusalAlert({
  error,
  stale,
  name,
  reloadLabel,
  onReload,
  reloading,
}: {
  readonly error: unknown;
  readonly stale: boolean;
  readonly name: string;
  readonly reloadLabel: string;
  readonly onReload: () => void;
  readonly reloading: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Alert color={stale ? 'orange' : 'red'} variant="light" role="alert" p="xs" data-testid={stale ? `manage-${name}-stale` : 'manage-dialog-error'}>
      <Stack gap="xs">
        <Text size="sm">{manageErrorMessage(t, error)}</Text>
        {stale && (
          <Button size="xs" variant="light" color="orange" w="fit-content" onClick={onReload} loading={reloading} data-testid={`manage-${name}-reload`}>
            {reloadLabel}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
