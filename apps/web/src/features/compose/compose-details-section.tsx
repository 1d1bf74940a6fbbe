import {
  Card,
  Checkbox,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_MAX,
  SUBJECT_MAX,
} from './compose-draft';
import { SigningPolicyPicker } from './signing-policy-picker';
import type { ComposeFormState } from './use-compose-form';

/** The details: subject, message, signing policy, dates and view enforcement. */
export function ComposeDetailsSection({ compose }: { readonly compose: ComposeFormState }) {
  const { t } = useTranslation();
  const { form, viewEnforce } = compose;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="compose-details-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="compose-details-heading">
          {t('compose.details.heading')}
        </Title>
        <TextInput
          label={t('compose.details.subject')}
          required
          maxLength={SUBJECT_MAX}
          {...form.getInputProps('subject')}
          onChange={(event) => compose.setField('subject', event.currentTarget.value)}
        />
        <Textarea
          label={t('compose.details.message')}
          rows={3}
          resize="vertical"
          maxLength={MESSAGE_MAX}
          {...form.getInputProps('message')}
        />
        <SigningPolicyPicker value={form.values.signingPolicy} onChange={compose.setSigningPolicy} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label={t('compose.details.expiresOn')}
            {...form.getInputProps('expiresOn')}
            onChange={(event) => compose.setField('expiresOn', event.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label={t('compose.details.notificationStartDate')}
            {...form.getInputProps('notificationStartDate')}
            onChange={(event) => compose.setField('notificationStartDate', event.currentTarget.value)}
          />
        </SimpleGrid>
        {viewEnforce?.shown && (
          <Checkbox
            label={t('compose.details.viewEnforced')}
            description={t('compose.details.viewEnforcedHint')}
            {...form.getInputProps('viewEnforced', { type: 'checkbox' })}
            // Untouched (null), the box shows the tenant's starting choice.
            checked={form.values.viewEnforced ?? viewEnforce.initial}
          />
        )}
      </Stack>
    </Card>
  );
}
