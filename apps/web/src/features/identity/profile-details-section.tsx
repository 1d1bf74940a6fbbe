import { Alert, Button, Card, Group, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { LANGUAGES, type UserInfo } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { useProfileForm, type Editable } from './use-profile-form';

/** The person's own details: name, contact, organisation, time zone and language. */
export function ProfileDetailsSection({ profile }: { readonly profile: UserInfo }) {
  const { t } = useTranslation();
  const { form, zones, result, save, onSubmit } = useProfileForm(profile);

  const field = (name: keyof Editable, extra: { required?: boolean; autoComplete?: string; type?: string; maxLength?: number } = {}) => (
    <TextInput label={t(`profile.fields.${name}`)} {...form.getInputProps(name)} maxLength={extra.maxLength ?? 100} {...extra} />
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="profile-details-heading">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="profile-details-heading">
            {t('profile.detailsHeading')}
          </Title>
          {result === 'saved' && (
            <Alert color="teal" variant="light" role="status">
              {t('profile.saved')}
            </Alert>
          )}
          {(result === 'failed' || result === 'unreachable') && (
            <Alert color="red" variant="light" role="alert">
              {t(result === 'failed' ? 'profile.saveFailed' : 'common.unreachable')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            {field('title', { autoComplete: 'honorific-prefix' })}
            {field('firstName', { required: true, autoComplete: 'given-name' })}
            {field('middleName', { autoComplete: 'additional-name' })}
            {field('lastName', { required: true, autoComplete: 'family-name' })}
            {field('phone', { type: 'tel', autoComplete: 'tel', maxLength: 20 })}
            {field('company', { autoComplete: 'organization', maxLength: 200 })}
            {field('department', { maxLength: 200 })}
            <NativeSelect
              label={t('profile.fields.timeZone')}
              {...form.getInputProps('timeZone')}
              data={[{ value: '', label: t('profile.notSet') }, ...zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))]}
            />
            <NativeSelect
              label={t('profile.fields.locale')}
              // Only 'en', 'hi' or none is sent, which the server does not refuse: no refusal to show here.
              {...form.getInputProps('locale', { withError: false })}
              data={[{ value: '', label: t('profile.notSet') }, ...LANGUAGES.map((language) => ({ value: language.code, label: language.nativeName }))]}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
