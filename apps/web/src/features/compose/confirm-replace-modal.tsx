import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Asked before something the person made is replaced or deleted: keep it, or go ahead. */
export function ConfirmReplaceModal({
  opened,
  title,
  body,
  confirm,
  keep,
  busy = false,
  onKeep,
  onConfirm,
}: {
  readonly opened: boolean;
  readonly title: string;
  readonly body: string;
  readonly confirm: string;
  /** The button that changes nothing; "Keep my steps" unless told. */
  readonly keep?: string;
  readonly busy?: boolean;
  readonly onKeep: () => void;
  readonly onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onKeep} title={title} centered>
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {body}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onKeep}>
            {keep ?? t('compose.workflow.switchKeep')}
          </Button>
          <Button color="red" loading={busy} onClick={onConfirm}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
