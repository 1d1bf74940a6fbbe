import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../ui/icons';
import { MAX_WORKFLOW_STEPS } from '../workflows';
import { ComposeStepEditor } from './compose-step-editor';
import { ConfirmReplaceModal } from './confirm-replace-modal';
import type { ComposeFormState } from './use-compose-form';

/** The workflow: a template or steps by hand, each with its recipients. */
export function ComposeWorkflowSection({ compose }: { readonly compose: ComposeFormState }) {
  const { t } = useTranslation();
  const { states, templates, form, requestTemplate, pendingTemplate, setPendingTemplate, chooseTemplate } = compose;
  const steps = form.values.steps;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="compose-workflow-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="compose-workflow-heading">
          {t('compose.workflow.heading')}
        </Title>
        {states.isPending || templates.isPending ? (
          <Loader size="sm" aria-label={t('workflows.form.loadingStates')} />
        ) : states.isError || templates.isError ? (
          <Alert color="red" variant="light" role="alert" title={t('compose.workflow.loadFailed')}>
            <Button
              variant="light"
              color="red"
              size="xs"
              mt="xs"
              onClick={() => void Promise.all([states.refetch(), templates.refetch()])}
            >
              {t('workflows.retry')}
            </Button>
          </Alert>
        ) : (
          <>
            <NativeSelect
              label={t('compose.workflow.template')}
              description={t('compose.workflow.templateHint')}
              data={[
                { value: '', label: t('compose.workflow.byHand') },
                ...templates.data.workflows.map((template) => ({ value: template.workflowId, label: template.name })),
              ]}
              {...form.getInputProps('workflowId')}
              onChange={(event) => requestTemplate(event.currentTarget.value)}
            />
            <ConfirmReplaceModal
              opened={pendingTemplate !== null}
              title={t('compose.workflow.switchTitle')}
              body={t('compose.workflow.switchBody')}
              confirm={t('compose.workflow.switchConfirm')}
              onKeep={() => setPendingTemplate(null)}
              onConfirm={() => {
                chooseTemplate(pendingTemplate ?? '');
                setPendingTemplate(null);
              }}
            />
            {form.errors.steps && (
              <Text size="sm" c="red" role="alert">
                {form.errors.steps}
              </Text>
            )}
            {steps.map((step, index) => (
              <ComposeStepEditor key={step.key} compose={compose} step={step} index={index} count={steps.length} states={states.data.states} />
            ))}
            <Group>
              <Button variant="light" leftSection={<PlusIcon size={16} />} disabled={steps.length >= MAX_WORKFLOW_STEPS} onClick={compose.addStep}>
                {t('workflows.form.addStep')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
