import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A dialog's test id on its content (the element with role="dialog"), where a browser test finds it visible. */
export const dialogTestId = (testId: string) => ({ content: { 'data-testid': testId } });

/**
 * A question before an action that cannot be undone from here (removing a recipient, archiving,
 * taking a delegation back, mailing someone): what will happen, then Cancel or the action named.
 * The refusal, if the server says no, stays in the dialog beside the question.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  danger = false,
  pending,
  error,
  testId,
  onCancel,
  onConfirm,
}: {
  readonly opened: boolean;
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  readonly pending: boolean;
  readonly error: string | null;
  readonly testId: string;
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered attributes={dialogTestId(testId)}>
      <Stack gap="sm">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        {error && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dialog-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            {t('epakManage.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={pending} data-testid={`${testId}-confirm`}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
