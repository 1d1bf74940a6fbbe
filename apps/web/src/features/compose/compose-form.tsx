import {
  Button,
  Group,
  Stack,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../ui/form-error';
import { ComposeDetailsSection } from './compose-details-section';
import { ComposeDocumentsSection } from './compose-documents-section';
import { ComposeWorkflowSection } from './compose-workflow-section';
import { useComposeForm } from './use-compose-form';

/** A new ePak: its documents, its workflow and its details, saved as a draft. */
export function ComposeForm() {
  const { t } = useTranslation();
  const compose = useComposeForm();
  return (
    <form ref={compose.formRef} onSubmit={compose.onSubmit} noValidate aria-label={t('compose.title')}>
      <Stack gap="lg">
        <ComposeDocumentsSection compose={compose} />
        <ComposeWorkflowSection compose={compose} />
        <ComposeDetailsSection compose={compose} />
        <FormError message={compose.formError?.key} />
        <Group justify="flex-end">
          <Button type="submit" loading={compose.save.isPending}>
            {t('compose.saveDraft')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
