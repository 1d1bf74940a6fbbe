import type { UseFormReturnType } from '@mantine/form';
import type { DocumentTemplate, WorkflowTemplate } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../workflows';
import { emptyComposeStep, stepsFromDocumentTemplate, stepsFromTemplate, SUBJECT_MAX, type ComposeDraft } from './compose-draft';
import { withoutErrorsAt } from './compose-error-paths';

export interface TemplateChoiceOptions {
  readonly form: UseFormReturnType<ComposeDraft>;
  /** The tenant's workflow templates, once loaded. */
  readonly workflows: readonly WorkflowTemplate[] | undefined;
  readonly setDocTemplate: (template: DocumentTemplate | null) => void;
  readonly setFormError: (error: Message | undefined) => void;
}

/**
 * Choosing a workflow template or a document template for the compose form: either replaces the
 * steps, so it is asked first when recipients have been entered.
 */
export function useTemplateChoice({ form, workflows, setDocTemplate, setFormError }: TemplateChoiceOptions) {
  const { t } = useTranslation();
  const draft = form.values;

  // Switching templates replaces the steps; recipients typed so far would be lost silently.
  const [pendingTemplate, setPendingTemplate] = useState<string | null>(null);
  const hasRecipients = draft.steps.some((step) => step.recipients.length > 0 || step.pendingText.trim() !== '');
  const requestTemplate = (workflowId: string) => {
    if (workflowId === draft.workflowId) return;
    if (hasRecipients) setPendingTemplate(workflowId);
    else chooseTemplate(workflowId);
  };

  const chooseTemplate = (workflowId: string) => {
    const template = workflows?.find((candidate) => candidate.workflowId === workflowId);
    form.setErrors((current) => withoutErrorsAt(current, 'steps'));
    form.setValues(
      template
        ? { workflowId, signingPolicy: template.signingPolicy, steps: stepsFromTemplate(template) }
        : { workflowId: '', steps: [emptyComposeStep()] },
    );
  };

  // A document template fills the document, its tags and the steps at once; recipients typed so
  // far would be replaced, so that is asked first, as for a workflow template.
  const [pendingDocTemplate, setPendingDocTemplate] = useState<DocumentTemplate | null>(null);
  const requestDocTemplate = (template: DocumentTemplate) => {
    if (hasRecipients) setPendingDocTemplate(template);
    else chooseDocTemplate(template);
  };
  const chooseDocTemplate = (template: DocumentTemplate) => {
    setDocTemplate(template);
    form.setErrors((current) => withoutErrorsAt(withoutErrorsAt(current, 'steps'), 'documentIds'));
    setFormError(undefined);
    const { subject } = form.getValues();
    form.setValues({
      workflowId: template.workflowId ?? '',
      signingPolicy: template.signingPolicy,
      steps: stepsFromDocumentTemplate(template, (step, place) => t('docTemplates.place', { step, place })),
      subject: subject.trim() ? subject : template.name.slice(0, SUBJECT_MAX),
    });
  };

  return {
    pendingTemplate,
    setPendingTemplate,
    requestTemplate,
    chooseTemplate,
    pendingDocTemplate,
    setPendingDocTemplate,
    requestDocTemplate,
    chooseDocTemplate,
  };
}
