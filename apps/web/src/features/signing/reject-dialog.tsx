import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The server keeps a comment of up to 2,000 characters (rejectEpak's body). */
const COMMENT_MAX_LENGTH = 2000;

/**
 * Rejecting ends the ePak for everyone, so it is confirmed here and needs a comment that tells the
 * sender why (the server refuses one without).
 */
export function RejectDialog({
  opened,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  readonly opened: boolean;
  readonly pending: boolean;
  readonly error: string | null;
  readonly onCancel: () => void;
  readonly onConfirm: (comment: string) => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (opened) setMissing(false);
  }, [opened]);

  const confirm = () => {
    const text = comment.trim();
    if (!text) return setMissing(true);
    onConfirm(text);
  };

  return (
    <Modal opened={opened} onClose={onCancel} title={t('signing.reject.title')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('signing.reject.intro')}</Text>
        <Textarea
          label={t('signing.reject.comment')}
          required
          rows={4}
          maxLength={COMMENT_MAX_LENGTH}
          value={comment}
          error={missing ? t('signing.reject.commentRequired') : undefined}
          data-autofocus
          onChange={(event) => {
            setComment(event.currentTarget.value);
            if (event.currentTarget.value.trim()) setMissing(false);
          }}
        />
        {error && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            {t('signing.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={pending}>
            {t('signing.reject.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
