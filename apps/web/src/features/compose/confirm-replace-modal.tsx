import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Asked before a template replaces what the person typed: keep what is there, or replace it. */
export function ConfirmReplaceModal({
  opened,
  title,
  body,
  confirm,
  onKeep,
  onConfirm,
}: {
  readonly opened: boolean;
  readonly title: string;
  readonly body: string;
  readonly confirm: string;
  readonly onKeep: () => void;
  readonly onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onKeep} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{body}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onKeep}>
            {t('compose.workflow.switchKeep')}
          </Button>
          <Button color="red" onClick={onConfirm}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
