import { Alert, Button, Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMailDelivered } from '../../api/public-queries';
import { PersonNameFields } from '../../ui/person-name-fields';
import { type CreatedTenant, useCreateTenantForm } from './use-create-tenant-form';

export function CreateTenantForm({ onCreated }: { readonly onCreated: (invite: CreatedTenant) => void }) {
  const { t } = useTranslation();
  // Without a mail server the invitation only reaches the outbox: the hint says so.
  const mailDelivered = useMailDelivered();
  const { form, submitted, message, create, setAdmin, onSubmit } = useCreateTenantForm(onCreated);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="create-tenant-heading">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="create-tenant-heading">
            {t('root.create.title')}
          </Title>
          {message && (
            <Alert color="red" variant="light" role="alert">
              {t(message)}
            </Alert>
          )}
          <TextInput label={t('root.create.tenantName')} required maxLength={100} {...form.getInputProps('tenantName')} />
          <Stack gap={2} mt="xs">
            <Text fw={600}>{t('root.create.adminHeading')}</Text>
            <Text size="sm" c="dimmed">
              {t(mailDelivered ? 'root.create.adminHint' : 'root.create.adminHintOutbox')}
            </Text>
          </Stack>
          <TextInput
            label={t('common.email')}
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            {...form.getInputProps('admin.email')}
          />
          <PersonNameFields value={form.values.admin} onChange={setAdmin} showErrors={submitted} />
          <Button type="submit" loading={create.isPending} mt="xs">
            {t('root.create.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
