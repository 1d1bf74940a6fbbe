import {
  listWorkflows,
  listWorkflowStates,
  viewEnforceChoice,
  type DocumentSummary,
  type DocumentTemplate,
} from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useTenantConfiguration } from '../../api/tenant-queries';
import { useSession } from '../../api/session-store';
import { checkCompose, emptyCompose, emptyComposeStep, stepsFromDocumentTemplate, stepsFromTemplate, SUBJECT_MAX, type ComposeDraft, type ComposeErrors, type ComposeStep, clearStepErrors } from './compose-draft';
import { type StepErrors, workflowQueryKeys } from '../workflows';
import { useSaveDraft } from './use-save-draft';

/**
 * The compose form's state and what changes it: the draft, the chosen documents and template,
 * the errors (the first one scrolled into view at each refusal), the templates asked about before
 * they replace typed recipients, and saving. The sections render it; none keeps state of its own.
 */
export function useComposeForm() {
  const { t } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const [draft, setDraft] = useState<ComposeDraft>(emptyCompose);
  const [documents, setDocuments] = useState<DocumentSummary[]>([]);
  // The docTemplates tab's choice: its document goes first, its tags come bound to the recipients.
  const [docTemplate, setDocTemplate] = useState<DocumentTemplate | null>(null);
  const [errors, setErrors] = useState<ComposeErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  const refuse = (next: ComposeErrors) => {
    setErrors(next);
    setRefusals((count) => count + 1);
  };

  useEffect(() => {
    if (refusals === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"], [role="alert"]');
    if (!first) return;
    first.scrollIntoView?.({ block: 'center' });
    if (first.matches('input, select, textarea')) first.focus({ preventScroll: true });
  }, [refusals]);

  const states = useQuery({
    queryKey: workflowQueryKeys.states(tenantUuid),
    queryFn: ({ signal }) => callApi(listWorkflowStates, undefined, { signal }),
  });
  const templates = useQuery({
    queryKey: workflowQueryKeys.list(tenantUuid),
    queryFn: ({ signal }) => callApi(listWorkflows, undefined, { signal }),
  });

  // The tenant's view-enforce option (spec §9): whether the choice is offered, and its start.
  // Hidden, the choice is the tenant's and the server applies it; nothing is sent for it.
  const configuration = useTenantConfiguration();
  const viewEnforce = configuration.data ? viewEnforceChoice(configuration.data.viewEnforceOption) : configuration.isError ? viewEnforceChoice() : null;

  const save = useSaveDraft(refuse);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCompose({
      ...draft,
      documentIds: documents.map((document) => document.documentId),
      ...(docTemplate ? { docTemplateId: docTemplate.docTemplateId } : {}),
    });
    setDraft(checked.draft);
    if (!checked.ok) return refuse(checked.errors);
    setErrors({});
    save.mutate({ draft: checked.draft, body: checked.body });
  };

  const setStep = (step: ComposeStep, clear: readonly (keyof StepErrors)[] | 'recipient') => {
    setDraft((current) => ({ ...current, steps: current.steps.map((existing) => (existing.key === step.key ? step : existing)) }));
    setErrors((current) => clearStepErrors(current, step.key, clear));
  };

  // Switching templates replaces the steps; recipients typed so far would be lost silently.
  const [pendingTemplate, setPendingTemplate] = useState<string | null>(null);
  const hasRecipients = draft.steps.some((step) => step.recipients.length > 0 || step.pendingText.trim() !== '');
  const requestTemplate = (workflowId: string) => {
    if (workflowId === draft.workflowId) return;
    if (hasRecipients) setPendingTemplate(workflowId);
    else chooseTemplate(workflowId);
  };

  const chooseTemplate = (workflowId: string) => {
    const template = templates.data?.workflows.find((candidate) => candidate.workflowId === workflowId);
    setErrors(({ step: _step, steps: _steps, ...rest }) => rest);
    setDraft((current) =>
      template
        ? { ...current, workflowId, signingPolicy: template.signingPolicy, steps: stepsFromTemplate(template) }
        : { ...current, workflowId: '', steps: [emptyComposeStep()] },
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
    setErrors(({ step: _step, steps: _steps, documents: _documents, form: _form, ...rest }) => rest);
    setDraft((current) => ({
      ...current,
      workflowId: template.workflowId ?? '',
      signingPolicy: template.signingPolicy,
      steps: stepsFromDocumentTemplate(template, (step, place) => t('docTemplates.place', { step, place })),
      subject: current.subject.trim() ? current.subject : template.name.slice(0, SUBJECT_MAX),
    }));
  };

  const toggleDocument = (document: DocumentSummary, chosen: boolean) => {
    setDocuments((current) =>
      chosen
        ? current.some((other) => other.documentId === document.documentId)
          ? current
          : [...current, document]
        : current.filter((other) => other.documentId !== document.documentId),
    );
    setErrors(({ documents: _dropped, ...rest }) => rest);
  };

  return {
    formRef,
    draft,
    setDraft,
    documents,
    setDocuments,
    docTemplate,
    setDocTemplate,
    errors,
    setErrors,
    states,
    templates,
    viewEnforce,
    save,
    onSubmit,
    setStep,
    pendingTemplate,
    setPendingTemplate,
    requestTemplate,
    chooseTemplate,
    pendingDocTemplate,
    setPendingDocTemplate,
    requestDocTemplate,
    chooseDocTemplate,
    toggleDocument,
  };
}

export type ComposeFormState = ReturnType<typeof useComposeForm>;
