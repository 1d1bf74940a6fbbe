import {
  ActionIcon,
  Alert,
  Autocomplete,
  Badge,
  Button,
  Card,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  composeFromDocumentTemplate,
  createEpak,
  DIGITAL_SIGNING_POLICIES,
  
  
  getEpak,
  listDocuments,
  listWorkflows,
  listWorkflowStates,
  ResponseCode,
  
  SIGNING_POLICIES,
  SigningPolicy,
  
  uploadDocument,
  viewEnforceChoice,
  type DocumentSummary,
  type DocumentTemplate,
  type EpakDetail,
  type EpakInput,
  type WorkflowStateDefinition,
  fullName,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, callApi } from '../../api/client';
import { useDirectorySearch, useTenantConfiguration } from '../../api/tenant-queries';
import { useSession } from '../../api/session-store';
import { RequireRoute } from '../../api/access';
import { TagEditor } from '../tag-editor';
import { LetterheadTemplates } from '../letterheads';
import { DocumentTemplatesTab, SaveAsTemplate } from '../document-templates';
import { FormError } from '../../ui/form-error';
import { StartEpakButton } from './start-epak-button';
import { ArrowDownIcon, ArrowUpIcon, CheckIcon, MailIcon, PlusIcon, TrashIcon, XIcon } from '../../ui/icons';
import {
  addAddresses,
  checkCompose,
  emptyCompose,
  emptyComposeStep,
  errorAtAddress,
  MESSAGE_MAX,
  placeComposeIssues,
  stepsFromDocumentTemplate,
  stepsFromTemplate,
  SUBJECT_MAX,
  type ComposeDraft,
  type ComposeErrors,
  type ComposeStep,
} from './compose-draft';
import { moveStep, MAX_WORKFLOW_STEPS, type Message, type StepErrors, STATE_TYPE_COLORS, workflowQueryKeys } from '../workflows';
import { formatDateTime } from '../../ui/dates';
import { composeQueryKeys } from './queries';

/**
 * /compose (spec sections 2, 5 and 9): documents, a workflow and the details of a new ePak, saved
 * as a draft. /compose?ePakId=… shows a saved draft; placing tags and starting come next.
 */
export function ComposePage() {
  return (
    <RequireRoute route="compose">
      <Compose />
    </RequireRoute>
  );
}

const ELECTRONIC_POLICIES = SIGNING_POLICIES.filter((policy) => !(DIGITAL_SIGNING_POLICIES as readonly string[]).includes(policy));

/** One query for the ePak shown, shared by the heading and the view (same key, one request). */
function useEpak(ePakId: string | null) {
  const session = useSession();
  return useQuery({
    queryKey: composeQueryKeys.epak(session?.tenantUuid, ePakId ?? ''),
    queryFn: ({ signal }) => callApi(getEpak, { params: { ePakId: ePakId ?? '' } }, { signal, failures: 'caller' }),
    enabled: ePakId !== null,
    retry: (failures, error) => !(error instanceof ApiError && (error.httpStatus === 404 || error.httpStatus === 400)) && failures < 2,
  });
}

function Compose() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const ePakId = params.get('ePakId');
  useDocumentTitle(`${t('compose.title')} · Pakt`);
  // Once sent, the page no longer speaks of a draft.
  const shown = useEpak(ePakId).data;
  const sent = shown !== undefined && shown.status !== 'Draft';
  const heading = ePakId ? (sent ? 'compose.sent' : 'compose.draft') : null;
  return (
    <Stack gap="lg">
      <Stack gap={4} maw={720}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t(heading ? `${heading}.title` : 'compose.title')}
        </Title>
        <Text c="dimmed">{t(heading ? `${heading}.intro` : 'compose.intro')}</Text>
      </Stack>
      {ePakId ? <DraftView ePakId={ePakId} /> : <ComposeForm />}
    </Stack>
  );
}

const message = (t: (key: ParseKeys, values?: Record<string, unknown>) => string, value: Message | undefined) =>
  value ? t(value.key, value.values) : undefined;

function ComposeForm() {
  const { t } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const navigate = useNavigate();
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

  const save = useMutation({
    mutationFn: ({ draft: sent, body }: { draft: ComposeDraft; body: EpakInput }) =>
      sent.docTemplateId
        ? callApi(composeFromDocumentTemplate, { params: { docTemplateId: sent.docTemplateId }, body }, { failures: 'caller' })
        : callApi(createEpak, { body }, { failures: 'caller' }),
    onSuccess: (saved) => void navigate(`/compose?ePakId=${saved.ePakId}`),
    onError: (error, { draft: sent }) => {
      if (!(error instanceof ApiError)) return refuse({ form: { key: 'compose.errors.saveFailed' } });
      if (error.httpStatus === 0) return refuse({ form: { key: 'common.unreachable' } });
      const email = typeof error.data?.['email'] === 'string' ? error.data['email'] : undefined;
      const personal: Partial<Record<number, ParseKeys>> = {
        [ResponseCode.USER_DISABLED.code]: 'compose.errors.recipientDisabled',
        [ResponseCode.INVITATION_CANCELLED.code]: 'RESPONSE_MSG_USER_INVITATION_CANCELLED',
        [ResponseCode.USER_DOES_NOT_EXIST.code]: 'compose.errors.newUsersNotInvited',
      };
      const key = personal[error.code];
      if (key) {
        const placed = email ? errorAtAddress(sent, email, { key }) : { errors: {}, found: false };
        const form: Message = { key: error.code === ResponseCode.USER_DISABLED.code ? 'USER_DISABLED_CONTACT_ADMIN' : key };
        return refuse(placed.found ? placed.errors : { form });
      }
      if (error.code === ResponseCode.DOCUMENT_ALREADY_ADDED.code) return refuse({ documents: { key: 'compose.errors.documentTwice' } });
      if (sent.docTemplateId && error.issues?.some((issue) => /^nobody at place/.test(issue.message))) {
        return refuse({ form: { key: 'docTemplates.errors.placesMissing' } });
      }
      // The template's tags checked again for this ePak (a policy that signs once, say).
      if (sent.docTemplateId && Array.isArray(error.data?.['problems'])) return refuse({ form: { key: 'docTemplates.errors.tagsRefused' } });
      if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const placed = placeComposeIssues(sent, error.issues);
        return refuse(placed.unplaced > 0 ? { ...placed.errors, form: { key: 'workflows.errors.invalid' } } : placed.errors);
      }
      refuse({ form: { key: 'compose.errors.saveFailed' } });
    },
  });

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

  const policyData = [
    { group: t('workflows.form.policyGroups.electronic'), items: ELECTRONIC_POLICIES.map((policy) => ({ value: policy, label: policy })) },
    { group: t('workflows.form.policyGroups.digital'), items: DIGITAL_SIGNING_POLICIES.map((policy) => ({ value: policy, label: policy })) },
  ];

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={t('compose.title')}>
      <Stack gap="lg">
        <Card withBorder padding="md" component="section" aria-labelledby="compose-documents-heading">
          <Stack gap="sm">
            <Title order={2} size="h4" id="compose-documents-heading">
              {t('compose.documents.heading')}
            </Title>
            <Tabs defaultValue="uploader" keepMounted={false}>
              <Tabs.List mb="sm">
                <Tabs.Tab value="docTemplates">{t('docTemplates.tab')}</Tabs.Tab>
                <Tabs.Tab value="uploader">{t('compose.tabs.uploader')}</Tabs.Tab>
                <Tabs.Tab value="drafts">{t('compose.tabs.drafts')}</Tabs.Tab>
                <Tabs.Tab value="letterheadTemplates">{t('letterheads.tab')}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="docTemplates">
                <DocumentTemplatesTab chosenId={docTemplate?.docTemplateId ?? null} onChoose={requestDocTemplate} />
              </Tabs.Panel>
              <Tabs.Panel value="uploader">
                <Uploader onUploaded={(document) => toggleDocument(document, true)} />
              </Tabs.Panel>
              <Tabs.Panel value="drafts">
                <DraftDocuments chosen={documents} onToggle={toggleDocument} />
              </Tabs.Panel>
              {/* The tenant's letterheads; one is put on the document with a letterhead tag once the draft is saved. */}
              <Tabs.Panel value="letterheadTemplates">
                <Stack gap="xs">
                  <Text size="sm">{t('letterheads.composeIntro')}</Text>
                  <LetterheadTemplates />
                </Stack>
              </Tabs.Panel>
            </Tabs>
            <ChosenDocuments
              documents={documents}
              template={docTemplate}
              onClearTemplate={() => setDocTemplate(null)}
              error={message(t, errors.documents)}
              onChange={setDocuments}
            />
            <Modal opened={pendingDocTemplate !== null} onClose={() => setPendingDocTemplate(null)} title={t('docTemplates.switchTitle')} centered>
              <Stack gap="md">
                <Text size="sm">{t('docTemplates.switchBody')}</Text>
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={() => setPendingDocTemplate(null)}>
                    {t('compose.workflow.switchKeep')}
                  </Button>
                  <Button
                    color="red"
                    onClick={() => {
                      if (pendingDocTemplate) chooseDocTemplate(pendingDocTemplate);
                      setPendingDocTemplate(null);
                    }}
                  >
                    {t('docTemplates.switchConfirm')}
                  </Button>
                </Group>
              </Stack>
            </Modal>
          </Stack>
        </Card>

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
                  value={draft.workflowId}
                  onChange={(event) => requestTemplate(event.currentTarget.value)}
                />
                <Modal
                  opened={pendingTemplate !== null}
                  onClose={() => setPendingTemplate(null)}
                  title={t('compose.workflow.switchTitle')}
                  centered
                >
                  <Stack gap="md">
                    <Text size="sm">{t('compose.workflow.switchBody')}</Text>
                    <Group justify="flex-end" gap="sm">
                      <Button variant="default" onClick={() => setPendingTemplate(null)}>
                        {t('compose.workflow.switchKeep')}
                      </Button>
                      <Button
                        color="red"
                        onClick={() => {
                          chooseTemplate(pendingTemplate ?? '');
                          setPendingTemplate(null);
                        }}
                      >
                        {t('compose.workflow.switchConfirm')}
                      </Button>
                    </Group>
                  </Stack>
                </Modal>
                {errors.steps && (
                  <Text size="sm" c="red" role="alert">
                    {message(t, errors.steps)}
                  </Text>
                )}
                {draft.steps.map((step, index) => (
                  <ComposeStepEditor
                    key={step.key}
                    step={step}
                    index={index}
                    count={draft.steps.length}
                    states={states.data.states}
                    errors={errors.step?.[step.key]}
                    onChange={setStep}
                    onMove={(by) =>
                      setDraft((current) => ({ ...current, steps: moveStep(current.steps, current.steps.findIndex((other) => other.key === step.key), by) }))
                    }
                    onRemove={() => {
                      setDraft((current) => ({ ...current, steps: current.steps.filter((other) => other.key !== step.key) }));
                      setErrors((current) => clearStepErrors(current, step.key, 'all'));
                    }}
                  />
                ))}
                <Group>
                  <Button
                    variant="light"
                    leftSection={<PlusIcon size={16} />}
                    disabled={draft.steps.length >= MAX_WORKFLOW_STEPS}
                    onClick={() => {
                      setDraft((current) => ({ ...current, steps: [...current.steps, emptyComposeStep()] }));
                      setErrors(({ steps: _dropped, ...rest }) => rest);
                    }}
                  >
                    {t('workflows.form.addStep')}
                  </Button>
                </Group>
              </>
            )}
          </Stack>
        </Card>

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
              error={message(t, errors.subject)}
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
              error={message(t, errors.message)}
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
                error={message(t, errors.expiresOn)}
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
                error={message(t, errors.notificationStartDate)}
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

        <FormError message={errors.form?.key} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('compose.saveDraft')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function clearStepErrors(errors: ComposeErrors, stepKey: string, which: readonly (keyof StepErrors)[] | 'all' | 'recipient'): ComposeErrors {
  const current = errors.step?.[stepKey];
  if (!current) return errors;
  const step = { ...errors.step };
  if (which === 'all') delete step[stepKey];
  else if (which === 'recipient') step[stepKey] = Object.fromEntries(Object.entries(current).filter(([key]) => key !== 'recipient'));
  else step[stepKey] = Object.fromEntries(Object.entries(current).filter(([key]) => !which.includes(key as keyof StepErrors)));
  return { ...errors, step };
}

type UploadItem =
  | { readonly key: number; readonly name: string; readonly status: 'waiting' | 'uploading' }
  | { readonly key: number; readonly name: string; readonly status: 'done'; readonly pages: number }
  | { readonly key: number; readonly name: string; readonly status: 'refused'; readonly reason: ParseKeys; readonly detail?: string };

/** A refusal's headline; the server's own message says which rule the file broke. */
function uploadRefusal(error: unknown): { reason: ParseKeys; detail?: string } {
  if (!(error instanceof ApiError)) return { reason: 'compose.upload.failed' };
  if (error.httpStatus === 0) return { reason: 'common.unreachable' };
  const reasons: Partial<Record<number, ParseKeys>> = {
    [ResponseCode.INVALID_DOCUMENT.code]: 'compose.upload.invalid',
    [ResponseCode.INVALID_CHARACTER_IN_FILENAME.code]: 'compose.upload.badName',
    [ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED.code]: 'compose.upload.badFormat',
    [ResponseCode.DOCUMENT_CONVERSION_FAILED.code]: 'compose.upload.conversion',
  };
  return { reason: reasons[error.code] ?? 'compose.upload.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** Several files picked at once go up one after the other, each with its own line of progress. */
function Uploader({ onUploaded }: { readonly onUploaded: (document: DocumentSummary) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useSession();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [busy, setBusy] = useState(false);
  const resetPicker = useRef<() => void>(null);
  const serial = useRef(0);

  const update = (key: number, next: UploadItem) => setItems((current) => current.map((item) => (item.key === key ? next : item)));

  const onPick = async (files: File[]) => {
    resetPicker.current?.();
    if (files.length === 0) return;
    const queued = files.map((file) => ({ file, item: { key: ++serial.current, name: file.name, status: 'waiting' as const } }));
    setItems((current) => [...current, ...queued.map((entry) => entry.item)]);
    setBusy(true);
    for (const { file, item } of queued) {
      update(item.key, { ...item, status: 'uploading' });
      try {
        const document = await callApi(uploadDocument, { files: { file } }, { failures: 'caller' });
        update(item.key, { key: item.key, name: document.name, status: 'done', pages: document.pageCount });
        onUploaded(document);
      } catch (error) {
        update(item.key, { key: item.key, name: item.name, status: 'refused', ...uploadRefusal(error) });
      }
    }
    setBusy(false);
    void queryClient.invalidateQueries({ queryKey: composeQueryKeys.allDocuments(session?.tenantUuid) });
  };

  const [dragOver, setDragOver] = useState(false);
  return (
    <Stack gap="sm">
      <Group
        gap="sm"
        p="sm"
        data-testid="upload-drop-zone"
        data-drag-over={dragOver || undefined}
        style={{
          border: `2px dashed ${dragOver ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-4)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          background: dragOver ? 'var(--mantine-color-blue-0)' : undefined,
        }}
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragOver(true);
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragOver(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragOver(false);
          if (!busy) void onPick([...event.dataTransfer.files]);
        }}
      >
        <FileButton onChange={(files) => void onPick(files)} multiple resetRef={resetPicker}>
          {(props) => (
            <Button {...props} leftSection={<PlusIcon size={16} />} loading={busy}>
              {t('compose.upload.choose')}
            </Button>
          )}
        </FileButton>
        <Text size="sm" c="dimmed">
          {t('compose.upload.hint')} {t('compose.upload.drop')}
        </Text>
      </Group>
      {items.length > 0 && (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.upload.list')}>
          {items.map((item) => (
            <Paper component="li" key={item.key} withBorder px="sm" py={6} radius="sm">
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {item.name}
                </Text>
                {item.status === 'waiting' && (
                  <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
                    {t('compose.upload.waiting')}
                  </Badge>
                )}
                {item.status === 'uploading' && (
                  <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                    <Loader size="xs" />
                    <Text size="xs" c="dimmed">
                      {t('compose.upload.uploading')}
                    </Text>
                  </Group>
                )}
                {item.status === 'done' && (
                  <Badge variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />} style={{ flexShrink: 0 }}>
                    {t('compose.upload.done', { count: item.pages })}
                  </Badge>
                )}
                {item.status === 'refused' && (
                  <Badge variant="light" color="red" tt="none" style={{ flexShrink: 0 }}>
                    {t('compose.upload.refused')}
                  </Badge>
                )}
              </Group>
              {item.status === 'refused' && (
                <Text size="xs" c="red" mt={4} role="alert">
                  {t(item.reason)}
                  {item.detail ? ` ${item.detail}` : ''}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The person's documents already on the server, newest first, to pick with checkboxes. */
function DraftDocuments({
  chosen,
  onToggle,
}: {
  readonly chosen: readonly DocumentSummary[];
  readonly onToggle: (document: DocumentSummary, chosen: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: composeQueryKeys.documents(session?.tenantUuid, page),
    queryFn: ({ signal }) => callApi(listDocuments, { query: { page } }, { signal }),
  });
  if (list.isPending) return <Loader size="sm" aria-label={t('compose.drafts.loading')} />;
  if (list.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('compose.drafts.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('workflows.retry')}
        </Button>
      </Alert>
    );
  }
  if (list.data.documents.length === 0) return <Text size="sm" c="dimmed">{t('compose.drafts.empty')}</Text>;
  const pages = Math.max(1, Math.ceil(list.data.total / list.data.pageSize));
  return (
    <Stack gap="sm">
      <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('compose.tabs.drafts')}>
        {list.data.documents.map((document) => (
          <Paper component="li" key={document.documentId} withBorder px="sm" py={8} radius="sm">
            <Checkbox
              label={document.name}
              description={`${t('compose.documents.pages', { count: document.pageCount })} · ${formatDateTime(document.createdOn, i18n.language)}`}
              checked={chosen.some((other) => other.documentId === document.documentId)}
              onChange={(event) => onToggle(document, event.currentTarget.checked)}
              styles={{ label: { overflowWrap: 'anywhere' } }}
            />
          </Paper>
        ))}
      </Stack>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label={t('compose.drafts.pages')} />}
    </Stack>
  );
}

/** The chosen documents in the order the ePak will show them. */
function ChosenDocuments({
  documents,
  template,
  onClearTemplate,
  error,
  onChange,
}: {
  readonly documents: readonly DocumentSummary[];
  /** A document template's document, first in the ePak, with its tags. */
  readonly template: DocumentTemplate | null;
  readonly onClearTemplate: () => void;
  readonly error: string | undefined;
  readonly onChange: (documents: DocumentSummary[]) => void;
}) {
  const { t } = useTranslation();
  const offset = template ? 1 : 0;
  return (
    <Stack gap={6} data-invalid={error ? true : undefined}>
      <Text size="sm" fw={500} id="compose-chosen-heading">
        {t('compose.documents.chosen', { count: documents.length + offset })}
      </Text>
      {template && (
        <Paper withBorder px="sm" py={6} radius="sm" aria-label={t('docTemplates.chosen', { name: template.name })} data-testid="compose-template-document">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Stack gap={0} miw={0}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                1. {template.documentName}
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('docTemplates.chosenDetail', {
                  name: template.name,
                  pages: t('compose.documents.pages', { count: template.pageCount }),
                  fields: t('docTemplates.fields', { count: template.tags.length }),
                })}
              </Text>
            </Stack>
            <ActionIcon variant="subtle" color="red" aria-label={t('docTemplates.clear', { name: template.name })} onClick={onClearTemplate}>
              <XIcon size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      )}
      {documents.length === 0 && template ? null : documents.length === 0 ? (
        <Text size="sm" c={error ? 'red' : 'dimmed'} role={error ? 'alert' : undefined}>
          {error ?? t('compose.documents.none')}
        </Text>
      ) : (
        <Stack component="ol" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="compose-chosen-heading">
          {documents.map((document, index) => (
            <Paper component="li" key={document.documentId} withBorder px="sm" py={6} radius="sm" aria-label={document.name}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Stack gap={0} miw={0}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {index + 1 + offset}. {document.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('compose.documents.pages', { count: document.pageCount })}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    disabled={index === 0}
                    aria-label={t('compose.documents.moveUp', { name: document.name })}
                    onClick={() => onChange(moveStep(documents, index, -1))}
                  >
                    <ArrowUpIcon size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    disabled={index === documents.length - 1}
                    aria-label={t('compose.documents.moveDown', { name: document.name })}
                    onClick={() => onChange(moveStep(documents, index, 1))}
                  >
                    <ArrowDownIcon size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('compose.documents.remove', { name: document.name })}
                    onClick={() => onChange(documents.filter((other) => other.documentId !== document.documentId))}
                  >
                    <XIcon size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * An address field with suggestions from the tenant's directory once DIRECTORY_SEARCH_MIN_LENGTH
 * characters are typed, asked DIRECTORY_SEARCH_DEBOUNCE_MS after the last keystroke.
 */
function AddressInput({
  label,
  value,
  error,
  onChange,
  onPick,
  onEnter,
  rightSection,
  required,
}: {
  readonly label: string;
  readonly value: string;
  readonly error: string | undefined;
  readonly onChange: (value: string) => void;
  readonly onPick: (email: string) => void;
  readonly onEnter?: () => void;
  readonly rightSection?: ReactNode;
  readonly required?: boolean;
}) {
  const { t } = useTranslation();
  // A list of addresses (a;b) is not a name to look up.
  const directory = useDirectorySearch(value, { accepts: (text) => !text.includes(';') });
  const users = directory.users;
  // Autocomplete writes the chosen option's label into the field right after onOptionSubmit; the
  // pick has been handled by then, so that write is skipped.
  const picked = useRef(false);
  const data = users.map((user) => ({
    value: user.email,
    label: [fullName(user), user.email].filter(Boolean).join(' · '),
  }));
  return (
    <Autocomplete
      label={label}
      required={required}
      placeholder={t('workflows.form.emailExample')}
      inputMode="email"
      autoComplete="off"
      value={value}
      data={data}
      filter={({ options }) => options}
      // Suggestions are a convenience: when the directory cannot answer, a full address still works.
      description={directory.failed ? t('compose.workflow.directoryFailed') : undefined}
      error={error}
      onChange={(text) => {
        if (picked.current) {
          picked.current = false;
          return;
        }
        onChange(text);
      }}
      onOptionSubmit={(email) => {
        picked.current = true;
        queueMicrotask(() => (picked.current = false));
        onPick(email);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || !onEnter) return;
        event.preventDefault();
        onEnter();
      }}
      rightSectionWidth={rightSection ? 88 : undefined}
      rightSectionPointerEvents="all"
      rightSection={rightSection}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function ComposeStepEditor({
  step,
  index,
  count,
  states,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  readonly step: ComposeStep;
  readonly index: number;
  readonly count: number;
  readonly states: readonly WorkflowStateDefinition[];
  readonly errors: StepErrors | undefined;
  readonly onChange: (step: ComposeStep, clear: readonly (keyof StepErrors)[] | 'recipient') => void;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const number = index + 1;
  const selected = states.find((state) => state.workflowStateId === step.workflowStateId);
  const [pendingError, setPendingError] = useState<Message | null>(null);
  const shownPendingError = pendingError ?? errors?.pending;

  const stateData = [
    { value: '', label: t('workflows.form.chooseState'), disabled: true },
    ...states.map((state) => {
      const type = t(`workflowStateTypes.${state.type}`);
      const label = state.name.trim().toLowerCase() === type.toLowerCase() ? state.name : t('workflows.form.stateOption', { name: state.name, type });
      return { value: state.workflowStateId, label };
    }),
    ...(step.workflowStateId && !selected ? [{ value: step.workflowStateId, label: t('workflows.form.removedState') }] : []),
  ];

  const add = (text: string) => {
    const added = addAddresses(step, text);
    setPendingError(added.error ?? null);
    onChange(added.step, added.error ? [] : ['recipients', 'pending']);
  };

  const onPendingChange = (text: string) => {
    // Several addresses pasted (or a semicolon typed) are added at once.
    if (text.includes(';')) return add(text);
    setPendingError(null);
    onChange({ ...step, pendingText: text }, ['pending']);
  };

  return (
    <Card withBorder padding="sm" role="group" aria-labelledby={headingId} data-testid="compose-step">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Title order={3} size="h6" id={headingId}>
              {t('workflows.form.step', { number })}
            </Title>
            {selected && (
              <Badge variant="light" color={STATE_TYPE_COLORS[selected.type]} tt="none">
                {t(`workflowStateTypes.${selected.type}`)}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="subtle" color="gray" aria-label={t('workflows.form.moveUp', { number })} disabled={index === 0} onClick={() => onMove(-1)}>
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="gray" aria-label={t('workflows.form.moveDown', { number })} disabled={index === count - 1} onClick={() => onMove(1)}>
              <ArrowDownIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('workflows.form.removeStep', { number })} onClick={onRemove}>
              <TrashIcon size={18} />
            </ActionIcon>
          </Group>
        </Group>

        <NativeSelect
          label={t('workflows.form.state')}
          required
          data={stateData}
          value={step.workflowStateId}
          error={message(t, errors?.state)}
          onChange={(event) => onChange({ ...step, workflowStateId: event.currentTarget.value }, ['state'])}
        />

        <Stack gap={6}>
          <Text size="sm" fw={500} id={`${headingId}-recipients`}>
            {t('workflows.form.recipients')}
          </Text>
          {step.recipients.length === 0 ? (
            <Text size="sm" c={errors?.recipients ? 'red' : 'dimmed'} role={errors?.recipients ? 'alert' : undefined}>
              {errors?.recipients ? message(t, errors.recipients) : t('compose.workflow.noRecipients')}
            </Text>
          ) : (
            <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`${headingId}-recipients`}>
              {step.recipients.map((recipient) => {
                const error = errors?.recipient?.[recipient.key];
                const remove = () => onChange({ ...step, recipients: step.recipients.filter((other) => other.key !== recipient.key) }, 'recipient');
                if (recipient.label !== undefined) {
                  // A template's placeholder: an address to fill in, labelled with the placeholder's name.
                  return (
                    <li key={recipient.key} data-invalid={error ? true : undefined}>
                      <AddressInput
                        label={recipient.label}
                        required
                        value={recipient.email}
                        error={message(t, error)}
                        onChange={(email) =>
                          onChange({ ...step, recipients: step.recipients.map((other) => (other.key === recipient.key ? { ...other, email } : other)) }, 'recipient')
                        }
                        onPick={(email) =>
                          onChange({ ...step, recipients: step.recipients.map((other) => (other.key === recipient.key ? { ...other, email } : other)) }, 'recipient')
                        }
                      />
                    </li>
                  );
                }
                return (
                  <Paper
                    component="li"
                    key={recipient.key}
                    withBorder
                    px="sm"
                    py={6}
                    radius="sm"
                    data-invalid={error ? true : undefined}
                    style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
                  >
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <Group gap={8} wrap="nowrap" miw={0}>
                        <Text c="dimmed" component="span" display="flex" aria-hidden>
                          <MailIcon size={16} />
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {recipient.email}
                        </Text>
                      </Group>
                      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('workflows.form.removeRecipient', { name: recipient.email })} onClick={remove}>
                        <XIcon size={14} />
                      </ActionIcon>
                    </Group>
                    {error && (
                      <Text size="xs" c="red" mt={4}>
                        {message(t, error)}
                      </Text>
                    )}
                  </Paper>
                );
              })}
            </Stack>
          )}
        </Stack>

        <AddressInput
          label={t('compose.workflow.addRecipient', { number })}
          value={step.pendingText}
          error={message(t, shownPendingError ?? undefined)}
          onChange={onPendingChange}
          onPick={(email) => add(email)}
          onEnter={() => add(step.pendingText)}
          rightSection={
            <Button size="compact-sm" variant="light" onClick={() => add(step.pendingText)} aria-label={t('workflows.form.addRecipientTo', { number })}>
              {t('workflows.form.add')}
            </Button>
          }
        />
        <Text size="xs" c="dimmed" mt={-6}>
          {t('compose.workflow.pasteHint')}
        </Text>
      </Stack>
    </Card>
  );
}

/** A saved draft, as the server keeps it. */
function DraftView({ ePakId }: { readonly ePakId: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  // The server sends what is saved: fields still only in the editor would silently be left out.
  const [unsaved, setUnsaved] = useState(false);
  const epak = useEpak(ePakId);
  if (epak.isPending) return <Loader size="sm" aria-label={t('compose.draft.loading')} />;
  if (epak.isError) {
    const missing = epak.error instanceof ApiError && (epak.error.httpStatus === 404 || epak.error.httpStatus === 400);
    return (
      <Alert color="red" variant="light" role="alert" title={t(missing ? 'compose.draft.notFound' : 'compose.draft.loadFailed')}>
        {!missing && (
          <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void epak.refetch()} loading={epak.isFetching}>
            {t('workflows.retry')}
          </Button>
        )}
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <DraftSummary epak={epak.data} />
      {/* Tags are placed while the ePak is a draft; the server refuses them afterwards. */}
      {epak.data.status === 'Draft' && <TagEditor epak={epak.data} onUnsavedChange={setUnsaved} />}
      <StartEpakButton
        epak={epak.data}
        unsavedFields={unsaved}
        onStarted={(started) => queryClient.setQueryData(composeQueryKeys.epak(session?.tenantUuid, ePakId), started)}
      />
      <SaveAsTemplate epak={epak.data} unsavedFields={unsaved} />
    </Stack>
  );
}

function DraftSummary({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      {epak.status === 'Draft' && (
        <Alert color="blue" variant="light" role="status" title={t('compose.draft.saved')}>
          {t('compose.draft.tagsNext')}
        </Alert>
      )}
      <Card withBorder padding="md" component="section" aria-label={t('compose.draft.summary')}>
        <Stack gap="sm">
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {epak.subject}
            </Title>
            <Badge variant="light" color="gray" tt="none">
              {t(`compose.status.${epak.status}`)}
            </Badge>
            <Badge variant="outline" color="gray" tt="none">
              {epak.signingPolicy}
            </Badge>
          </Group>
          {epak.message && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {epak.message}
            </Text>
          )}
          <Text size="sm">{t('workflows.list.signers', { count: epak.signerCount })}</Text>

          <Title order={3} size="h5">
            {t('compose.documents.heading')}
          </Title>
          <Stack component="ol" gap={4} m={0} pl="lg" aria-label={t('compose.documents.heading')}>
            {epak.documents.map((document) => (
              <li key={document.documentId}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {document.name} · {t('compose.documents.pages', { count: document.pageCount })}
                </Text>
              </li>
            ))}
          </Stack>

          <Title order={3} size="h5">
            {t('workflows.form.stepsHeading')}
          </Title>
          <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('workflows.form.stepsHeading')}>
            {epak.steps.map((step) => (
              <Paper component="li" key={step.order} withBorder px="sm" py={8} radius="sm" aria-label={t('workflows.form.step', { number: step.order })}>
                <Group gap="xs" mb={4} wrap="wrap">
                  <Text size="sm" fw={600}>
                    {t('workflows.form.step', { number: step.order })}
                  </Text>
                  <Badge variant="light" color={STATE_TYPE_COLORS[step.type]} tt="none">
                    {step.name}
                  </Badge>
                </Group>
                <Stack component="ul" gap={2} m={0} pl="md">
                  {step.recipients.map((recipient) => (
                    <li key={recipient.recipientId}>
                      <Group gap="xs" wrap="wrap">
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {recipient.email}
                        </Text>
                        {/* Once sent, where each person stands (spec §4 signer statuses). */}
                        {epak.status !== 'Draft' && (
                          <Badge size="sm" variant="light" color={recipient.status === 'Pending' ? (epak.currentStep === step.order ? 'blue' : 'gray') : 'teal'} tt="none">
                            {t(`compose.recipientStatus.${recipient.status}`)}
                          </Badge>
                        )}
                      </Group>
                    </li>
                  ))}
                </Stack>
              </Paper>
            ))}
          </Stack>
        </Stack>
      </Card>
    </Stack>
  );
}
