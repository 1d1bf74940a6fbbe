import { useForm } from '@mantine/form';
import {
  listWorkflows,
  listWorkflowStates,
  SigningPolicy,
  signerVerificationChoice,
  viewEnforceChoice,
  type DocumentSummary,
  type DocumentTemplate,
  type EpakDetail,
} from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useTenantConfiguration } from '../../api/tenant-queries';
import { useSession } from '../../api/session-store';
import { useRevealRefusal } from '../../ui/use-reveal-refusal';
import { checkCompose, emptyCompose, MAX_EPAK_DOCUMENTS, type ComposeDraft, type ComposeErrors } from './compose-draft';
import { composeErrorsByPath } from './compose-error-paths';
import { composeStepActions } from './compose-step-actions';
import { type Message, messageText, workflowQueryKeys } from '../workflows';
import { useSaveDraft } from './use-save-draft';
import { useTemplateChoice } from './use-template-choice';

/**
 * The compose form's state and what changes it: the draft, the chosen documents and template,
 * the errors (the first one scrolled into view at each refusal), the templates asked about before
 * they replace typed recipients, and saving. The sections render it; none keeps state of its own
 * but for the refusal of an address being added. @mantine/form holds the draft and the refusals
 * its fields show, by path (`steps.0.recipients.1.email`), so moving or removing a step takes its
 * refusals along; compose-draft.ts keeps the rules, run at save.
 *
 * `onRefused` hears every refusal (the flow brings the documents step back for a documents one);
 * `onSaved` gets the draft once the server has created it.
 */
export function useComposeForm({ onRefused, onSaved }: { readonly onRefused: (errors: ComposeErrors) => void; readonly onSaved: (saved: EpakDetail) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const [initialValues] = useState<ComposeDraft>(emptyCompose);
  const form = useForm<ComposeDraft>({
    mode: 'controlled',
    initialValues,
    // A change clears only the refusals it answers, named with it: a refused message, say, keeps
    // its refusal until the next save.
    clearInputErrorOnChange: false,
  });
  const [documents, setDocuments] = useState<DocumentSummary[]>([]);
  // The docTemplates tab's choice: its document goes first, its tags come bound to the recipients.
  const [docTemplate, setDocTemplate] = useState<DocumentTemplate | null>(null);
  // A refusal no field can show, above the button.
  const [formError, setFormError] = useState<Message | undefined>(undefined);
  const { formRef, reveal } = useRevealRefusal();
  const refuse = (errors: ComposeErrors) => {
    // Mantine's inputs show an error as given, so each is translated as it is placed.
    const byPath = composeErrorsByPath(form.getValues(), errors);
    form.setErrors(Object.fromEntries(Object.entries(byPath).map(([path, message]) => [path, messageText(t, message)])));
    setFormError(errors.form);
    onRefused(errors);
    reveal();
  };

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
  // The tenant's signer verification mode (spec §9): a per-signer choice (DefaultSelective*), or a
  // note of what the tenant decided (ON, OFF); null until the configuration is known.
  const verification = configuration.data ? { mode: configuration.data.verificationMode ?? 'OFF', ...signerVerificationChoice(configuration.data.verificationMode) } : null;

  const save = useSaveDraft(refuse, onSaved);

  // No rules are given to useForm: checkCompose is them, and it also adds an address still being typed.
  const onSubmit = form.onSubmit((values) => {
    const checked = checkCompose({
      ...values,
      documentIds: documents.map((document) => document.documentId),
      ...(docTemplate ? { docTemplateId: docTemplate.docTemplateId } : {}),
    });
    form.setValues(checked.draft);
    if (!checked.ok) return refuse(checked.errors);
    form.clearErrors();
    setFormError(undefined);
    save.mutate({ draft: checked.draft, body: checked.body });
  });

  /** The documents step's own check, before the steps are shown: a document, and not too many. */
  const checkDocuments = (): boolean => {
    const count = documents.length + (docTemplate ? 1 : 0);
    if (count === 0) refuse({ documents: { key: 'compose.errors.documentsRequired' } });
    else if (count > MAX_EPAK_DOCUMENTS) refuse({ documents: { key: 'compose.errors.documentsInvalid', values: { count: MAX_EPAK_DOCUMENTS } } });
    else {
      form.clearFieldError('documentIds');
      return true;
    }
    return false;
  };

  /** Sets a field whose refusal the change answers (the subject, a date), and clears that refusal. */
  const setField = (path: 'subject' | 'expiresOn' | 'notificationStartDate', value: string) => {
    form.setFieldValue(path, value);
    form.clearFieldError(path);
  };

  const setSigningPolicy = (value: string) => {
    const parsed = SigningPolicy.safeParse(value);
    if (parsed.success) form.setFieldValue('signingPolicy', parsed.data);
  };

  const toggleDocument = (document: DocumentSummary, chosen: boolean) => {
    setDocuments((current) =>
      chosen
        ? current.some((other) => other.documentId === document.documentId)
          ? current
          : [...current, document]
        : current.filter((other) => other.documentId !== document.documentId),
    );
    form.clearFieldError('documentIds');
  };

  const choice = useTemplateChoice({ form, workflows: templates.data?.workflows, setDocTemplate, setFormError });

  return {
    form,
    formRef,
    formError,
    documents,
    setDocuments,
    docTemplate,
    setDocTemplate,
    states,
    templates,
    viewEnforce,
    verification,
    save,
    onSubmit,
    checkDocuments,
    setField,
    setSigningPolicy,
    toggleDocument,
    ...composeStepActions(form),
    ...choice,
  };
}

export type ComposeFormState = ReturnType<typeof useComposeForm>;
