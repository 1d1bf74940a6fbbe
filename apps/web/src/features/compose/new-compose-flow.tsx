import { Stack, Text } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../ui/form-error';
import { ComposeDetailsSection } from './compose-details-section';
import { ComposeDocumentsSection } from './compose-documents-section';
import { StepFooter } from './compose-step-footer';
import { ComposeStepper } from './compose-stepper';
import { ComposeWorkflowSection } from './compose-workflow-section';
import { useComposeForm } from './use-compose-form';

/**
 * A new ePak's first two steps: its documents, then its steps, recipients and details. Leaving
 * the second with everything in order creates the draft (`onCreated` takes it on to its fields);
 * until then nothing is on the server, so the later steps cannot be opened yet. Each step is the
 * form its refusals are placed in (Enter in a field goes on, as the button does).
 */
export function NewComposeFlow({ onCreated }: { readonly onCreated: (saved: EpakDetail) => void }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const compose = useComposeForm({
    // A refusal of the documents (the server's -176 too) is shown where they are chosen.
    onRefused: (errors) => {
      if (errors.documents) setActive(0);
    },
    onSaved: onCreated,
  });
  const toRecipients = () => {
    if (compose.checkDocuments()) setActive(1);
  };
  const formError = <FormError message={compose.formError?.key} />;
  const content =
    active === 0 ? (
      <form
        ref={compose.formRef}
        noValidate
        aria-label={t('compose.title')}
        onSubmit={(event) => {
          event.preventDefault();
          toRecipients();
        }}
      >
        <Stack gap="lg">
          <ComposeDocumentsSection compose={compose} />
          {formError}
          <StepFooter next={{ label: t('compose.flow.nextTo', { step: t('compose.flow.steps.recipients.label') }), submit: true }} />
        </Stack>
      </form>
    ) : (
      <form ref={compose.formRef} onSubmit={compose.onSubmit} noValidate aria-label={t('compose.title')}>
        <Stack gap="lg">
          <ComposeWorkflowSection compose={compose} />
          <ComposeDetailsSection compose={compose} />
          {formError}
          <StepFooter onBack={() => setActive(0)} next={{ label: t('compose.flow.nextTo', { step: t('compose.flow.steps.fields.label') }), submit: true, loading: compose.save.isPending }}>
            <Text size="sm" c="dimmed">
              {t('compose.flow.savedOnNext')}
            </Text>
          </StepFooter>
        </Stack>
      </form>
    );
  return (
    <ComposeStepper
      active={active}
      reachable={(step) => step <= 1}
      onStepClick={(step) => (step === 1 ? toRecipients() : setActive(step))}
      status={compose.save.isPending ? 'saving' : 'new'}
      leaving={compose.save.isPending ? 1 : null}
      content={content}
    />
  );
}
