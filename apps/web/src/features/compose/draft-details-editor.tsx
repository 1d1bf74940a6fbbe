import { Card, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX, SUBJECT_MAX } from './compose-draft';
import type { DraftDetailsState } from './use-draft-details';

/** The details a saved draft can still change, each saved by itself shortly after it is typed. */
export function DraftDetailsEditor({ details }: { readonly details: DraftDetailsState }) {
  const { t } = useTranslation();
  const { values, errors, setField } = details;
  const error = (field: keyof typeof errors) => (errors[field] ? t(errors[field]) : undefined);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="compose-draft-details-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="compose-draft-details-heading">
          {t('compose.details.heading')}
        </Title>
        <TextInput
          label={t('compose.details.subject')}
          required
          maxLength={SUBJECT_MAX}
          value={values.subject}
          error={error('subject')}
          onChange={(event) => setField('subject', event.currentTarget.value)}
        />
        <Textarea
          label={t('compose.details.message')}
          rows={3}
          resize="vertical"
          maxLength={MESSAGE_MAX}
          value={values.message}
          error={error('message')}
          onChange={(event) => setField('message', event.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label={t('compose.details.expiresOn')}
            value={values.expiresOn}
            error={error('expiresOn')}
            onChange={(event) => setField('expiresOn', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('compose.details.notificationStartDate')}
            value={values.notificationStartDate}
            error={error('notificationStartDate')}
            onChange={(event) => setField('notificationStartDate', event.currentTarget.value)}
          />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
