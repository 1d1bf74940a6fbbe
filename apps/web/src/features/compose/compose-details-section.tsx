import {
  Card,
  Checkbox,
  NativeSelect,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  SigningPolicy,
} from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import {
  MESSAGE_MAX,
  SUBJECT_MAX,
} from './compose-draft';
import type { ComposeFormState } from './use-compose-form';
import { messageText, signingPolicyData } from '../workflows';

/** The details: subject, message, signing policy, dates and view enforcement. */
export function ComposeDetailsSection({ form }: { readonly form: ComposeFormState }) {
  const { t } = useTranslation();
  const { draft, setDraft, errors, setErrors, viewEnforce } = form;
  const policyData = signingPolicyData(t);
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
          value={draft.subject}
          error={messageText(t, errors.subject)}
          onChange={(event) => {
            const subject = event.currentTarget.value;
            setDraft((current) => ({ ...current, subject }));
            setErrors(({ subject: _dropped, ...rest }) => rest);
          }}
        />
        <Textarea
          label={t('compose.details.message')}
          rows={3}
          resize="vertical"
          maxLength={MESSAGE_MAX}
          value={draft.message}
          error={messageText(t, errors.message)}
          onChange={(event) => {
            const text = event.currentTarget.value;
            setDraft((current) => ({ ...current, message: text }));
          }}
        />
        <NativeSelect
          label={t('workflows.form.signingPolicy')}
          data={policyData}
          value={draft.signingPolicy}
          onChange={(event) => {
            const parsed = SigningPolicy.safeParse(event.currentTarget.value);
            if (parsed.success) setDraft((current) => ({ ...current, signingPolicy: parsed.data }));
          }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label={t('compose.details.expiresOn')}
            value={draft.expiresOn}
            error={messageText(t, errors.expiresOn)}
            onChange={(event) => {
              const expiresOn = event.currentTarget.value;
              setDraft((current) => ({ ...current, expiresOn }));
              setErrors(({ expiresOn: _dropped, ...rest }) => rest);
            }}
          />
          <TextInput
            type="datetime-local"
            label={t('compose.details.notificationStartDate')}
            value={draft.notificationStartDate}
            error={messageText(t, errors.notificationStartDate)}
            onChange={(event) => {
              const notificationStartDate = event.currentTarget.value;
              setDraft((current) => ({ ...current, notificationStartDate }));
              setErrors(({ notificationStartDate: _dropped, ...rest }) => rest);
            }}
          />
        </SimpleGrid>
        {viewEnforce?.shown && (
          <Checkbox
            label={t('compose.details.viewEnforced')}
            description={t('compose.details.viewEnforcedHint')}
            checked={draft.viewEnforced ?? viewEnforce.initial}
            onChange={(event) => {
              const viewEnforced = event.currentTarget.checked;
              setDraft((current) => ({ ...current, viewEnforced }));
            }}
          />
        )}
      </Stack>
    </Card>
  );
}
