import { NativeSelect, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { signingPolicyData } from './form-text';
import type { WorkflowFormState } from './use-workflow-form';
import { DESCRIPTION_MAX, NAME_MAX } from './workflow-draft';

/** The template's name, description and signing policy: fields of the form itself, not a box of their own. */
export function WorkflowDetailsSection({ workflow }: { readonly workflow: WorkflowFormState }) {
  const { t } = useTranslation();
  const { form } = workflow;
  return (
    <>
      <TextInput
        label={t('workflows.form.name')}
        required
        maxLength={NAME_MAX}
        {...form.getInputProps('name')}
        data-autofocus
        onChange={(event) => workflow.setName(event.currentTarget.value)}
      />
      <Textarea
        label={t('workflows.form.description')}
        rows={3}
        resize="vertical"
        maxLength={DESCRIPTION_MAX}
        {...form.getInputProps('description')}
      />
      <NativeSelect
        label={t('workflows.form.signingPolicy')}
        description={t('workflows.form.signingPolicyHint')}
        data={signingPolicyData(t)}
        {...form.getInputProps('signingPolicy')}
        onChange={(event) => workflow.setSigningPolicy(event.currentTarget.value)}
      />
    </>
  );
}
