import { Button, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { messageText } from './form-text';
import type { WorkflowFormState } from './use-workflow-form';
import { PLACEHOLDER_MAX, type Message, type RecipientKind, type StepDraft } from './workflow-draft';

/** A step's "add recipient" field: an address or a placeholder's name, added with its button or Enter. */
export function WorkflowRecipientInput({
  workflow,
  step,
  index,
}: {
  readonly workflow: WorkflowFormState;
  readonly step: StepDraft;
  readonly index: number;
}) {
  const { t } = useTranslation();
  const number = index + 1;
  const path = `steps.${index}.pendingText` as const;

  // A refusal of the recipient being added; the form's own check on save arrives in the form's errors.
  const [pendingError, setPendingError] = useState<Message | null>(null);
  const shownPendingError = pendingError ? messageText(t, pendingError) : workflow.form.errors[path];

  const addRecipient = () => setPendingError(workflow.addRecipient(index));

  const onPendingKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds the recipient rather than submitting the whole form.
    event.preventDefault();
    addRecipient();
  };

  const kindLabels: Record<RecipientKind, string> = { user: t('workflows.form.kind.user'), placeholder: t('workflows.form.kind.placeholder') };

  return (
    <Stack gap={6}>
      <SegmentedControl
        size="xs"
        fullWidth
        value={step.pendingKind}
        aria-label={t('workflows.form.recipientKind')}
        data={[
          { value: 'user', label: kindLabels.user },
          { value: 'placeholder', label: kindLabels.placeholder },
        ]}
        onChange={(value) => {
          setPendingError(null);
          workflow.setPendingKind(index, value === 'placeholder' ? 'placeholder' : 'user');
        }}
      />
      <TextInput
        label={t(step.pendingKind === 'user' ? 'workflows.form.emailLabel' : 'workflows.form.placeholderLabel')}
        description={step.pendingKind === 'placeholder' ? t('workflows.form.placeholderHint') : undefined}
        placeholder={t(step.pendingKind === 'user' ? 'workflows.form.emailExample' : 'workflows.form.placeholderExample')}
        type={step.pendingKind === 'user' ? 'email' : 'text'}
        inputMode={step.pendingKind === 'user' ? 'email' : 'text'}
        autoComplete="off"
        maxLength={step.pendingKind === 'user' ? 254 : PLACEHOLDER_MAX}
        {...workflow.form.getInputProps(path)}
        error={shownPendingError || undefined}
        onKeyDown={onPendingKey}
        onChange={(event) => {
          setPendingError(null);
          workflow.setPendingText(index, event.currentTarget.value);
        }}
        rightSectionWidth={88}
        rightSectionPointerEvents="all"
        rightSection={
          <Button size="compact-sm" variant="light" onClick={addRecipient} aria-label={t('workflows.form.addRecipientTo', { number })}>
            {t('workflows.form.add')}
          </Button>
        }
      />
    </Stack>
  );
}
