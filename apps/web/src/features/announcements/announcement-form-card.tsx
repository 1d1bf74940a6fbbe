import { Alert, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { Announcement } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { type AnnouncementScope, useAnnouncementForm } from './use-announcement-form';

/** The server's limit (AnnouncementInput.text). */
const TEXT_MAX_LENGTH = 1000;

export function AnnouncementForm({
  scope,
  editing,
  onDone,
  onCancel,
  onGone,
}: {
  readonly scope: AnnouncementScope;
  readonly editing: Announcement | null;
  readonly onDone: () => void;
  readonly onCancel: () => void;
  readonly onGone: () => void;
}) {
  const { t } = useTranslation();
  const { form, refusal, saved, save, change, onSubmit } = useAnnouncementForm({ scope, editing, onDone, onGone });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="announcement-form-heading">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="announcement-form-heading">
            {editing ? t('announcements.form.editTitle') : t('announcements.form.createTitle')}
          </Title>
          {refusal && (
            <Alert color="red" variant="light" role="alert">
              {t(refusal.message)}
              {refusal.detail && (
                <Text size="xs" mt={4}>
                  {refusal.detail}
                </Text>
              )}
            </Alert>
          )}
          {saved && (
            <Alert color="teal" variant="light" role="status" p="xs">
              {t(saved)}
            </Alert>
          )}
          <Textarea
            label={t('announcements.form.text')}
            description={t('announcements.form.textHint')}
            required
            rows={4}
            maxLength={TEXT_MAX_LENGTH}
            {...form.getInputProps('text')}
            onChange={(event) => change('text', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('announcements.form.start')}
            required
            {...form.getInputProps('start')}
            onChange={(event) => change('start', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('announcements.form.end')}
            required
            {...form.getInputProps('end')}
            onChange={(event) => change('end', event.currentTarget.value)}
          />
          <Text size="xs" c="dimmed">
            {t('announcements.form.timeZoneHint', { zone })}
          </Text>
          <Group gap="sm">
            <Button type="submit" loading={save.isPending}>
              {editing ? t('announcements.form.save') : t('announcements.form.create')}
            </Button>
            {editing && (
              <Button variant="default" onClick={onCancel} disabled={save.isPending}>
                {t('announcements.form.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
