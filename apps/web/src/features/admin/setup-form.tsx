import { Button, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../ui/auth-card';
import { FormError } from '../../ui/form-error';
import { NewPasswordFields } from '../../ui/password-fields';
import { PersonNameFields } from '../../ui/person-name-fields';
import { useSetupForm } from './use-setup-form';

/** Creates the root account with the one-time setup link's token, and signs it in. */
export function SetupForm({ token }: { readonly token: string }) {
  const { t } = useTranslation();
  const setupForm = useSetupForm(token);
  const { form } = setupForm;

  return (
    <AuthCard title={t('setup.title')} description={t('setup.intro')} maw={500}>
      <FormError message={setupForm.message} />
      <form onSubmit={setupForm.onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...form.getInputProps('email')}
            onChange={(event) => setupForm.setEmail(event.currentTarget.value)}
          />
          <PersonNameFields value={form.values.name} onChange={setupForm.setName} showErrors={setupForm.submitted} />
          <NewPasswordFields value={form.values.password} onChange={setupForm.setPassword} showErrors={setupForm.submitted} />
          <Button type="submit" size="md" fullWidth loading={setupForm.setup.isPending} mt="xs">
            {t('setup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
