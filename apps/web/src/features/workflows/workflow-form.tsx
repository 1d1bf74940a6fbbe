import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  createWorkflow,
  ResponseCode,
  SigningPolicy,
  updateWorkflow,
  type WorkflowStateDefinition,
  type WorkflowStateType,
  type WorkflowTemplate,
  type WorkflowTemplateInput,
} from '@pakt/domain';
import { useMutation, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { FormError } from '../../ui/form-error';
import { ArrowDownIcon, ArrowUpIcon, MailIcon, PlusIcon, TagIcon, TrashIcon, XIcon } from '../../ui/icons';
import {
  addPending,
  checkDraft,
  DESCRIPTION_MAX,
  draftOf,
  emptyDraft,
  emptyStep,
  MAX_WORKFLOW_STEPS,
  moveStep,
  NAME_MAX,
  placeIssues,
  PLACEHOLDER_MAX,
  recipientText,
  type DraftErrors,
  type Message,
  type RecipientKind,
  type StepDraft,
  type StepErrors,
  type WorkflowDraft,
} from './workflow-draft';
import { messageText, signingPolicyData } from './form-text';

/** Colours that tell the four kinds of step apart at a glance (the text always names the type too). */
export const STATE_TYPE_COLORS: Record<WorkflowStateType, string> = {
  REVIEW: 'blue',
  SIGN: 'teal',
  EMAIL: 'grape',
  INPERSONSIGN: 'orange',
};


export interface WorkflowFormProps {
  readonly opened: boolean;
  /** A new value starts a fresh form (the drawer keeps its last content while it slides away). */
  readonly formKey: number;
  /** The template being changed; null creates a new one. */
  readonly template: WorkflowTemplate | null;
  readonly states: UseQueryResult<{ states: WorkflowStateDefinition[] }>;
  /** The query key of the list, refreshed after a save. */
  readonly listKey: readonly unknown[];
  readonly onClose: () => void;
  readonly onSaved: (saved: WorkflowTemplate) => void;
}

/** Create or change a workflow template, in a drawer from the side (the whole width of a phone). */
export function WorkflowFormDrawer({ opened, formKey, template, states, listKey, onClose, onSaved }: WorkflowFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Drawer
      opened={opened}
      onClose={() => !busy && onClose()}
      position="right"
      // Mantine caps a drawer at the viewport's width, so on a phone it fills the screen.
      size="lg"
      title={t(template ? 'workflows.form.editTitle' : 'workflows.form.createTitle')}
      // A long form is easy to lose to a stray click beside it; Escape and the close button remain.
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': t('workflows.form.close') }}
    >
      {states.isPending ? (
        <Loader size="sm" aria-label={t('workflows.form.loadingStates')} />
      ) : states.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('workflows.form.statesFailed')}>
          <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void states.refetch()} loading={states.isFetching}>
            {t('workflows.retry')}
          </Button>
        </Alert>
      ) : (
        <WorkflowForm
          key={formKey}
          template={template}
          states={states.data.states}
          listKey={listKey}
          onCancel={onClose}
          onSaved={onSaved}
          onBusy={setBusy}
        />
      )}
    </Drawer>
  );
}

interface Submission {
  readonly draft: WorkflowDraft;
  readonly body: WorkflowTemplateInput;
}

function WorkflowForm({
  template,
  states,
  listKey,
  onCancel,
  onSaved,
  onBusy,
}: {
  readonly template: WorkflowTemplate | null;
  readonly states: readonly WorkflowStateDefinition[];
  readonly listKey: readonly unknown[];
  readonly onCancel: () => void;
  readonly onSaved: (saved: WorkflowTemplate) => void;
  readonly onBusy: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<WorkflowDraft>(() => (template ? draftOf(template) : emptyDraft()));
  const [errors, setErrors] = useState<DraftErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // Counts refusals, so each one brings its first problem into view, even if it is the same as before.
  const [refusals, setRefusals] = useState(0);
  const refuse = (next: DraftErrors) => {
    setErrors(next);
    setRefusals((count) => count + 1);
  };

  useEffect(() => {
    if (refusals === 0) return;
    // The drawer scrolls: a refusal at the name or a recipient may be out of sight after pressing Save.
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"], [role="alert"]');
    if (!first) return;
    // Centred rather than merely reached, so the field's label is not left under the drawer's header.
    first.scrollIntoView?.({ block: 'center' });
    if (first.matches('input, select, textarea')) first.focus({ preventScroll: true });
  }, [refusals]);

  const save = useMutation({
    mutationFn: ({ body }: Submission) =>
      template ? callApi(updateWorkflow, { params: { workflowId: template.workflowId }, body }) : callApi(createWorkflow, { body }),
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      onSaved(saved);
    },
    onError: (error, { draft: sent }) => {
      if (!(error instanceof ApiError)) return refuse({ form: { key: 'workflows.errors.saveFailed' } });
      if (error.code === ResponseCode.WORKFLOW_TEMPLATE_ALREADY_EXISTS.code) return refuse({ name: { key: 'workflows.errors.nameTaken' } });
      if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const placed = placeIssues(sent, error.issues);
        return refuse(placed.unplaced > 0 ? { ...placed.errors, form: { key: 'workflows.errors.invalid' } } : placed.errors);
      }
      if (error.httpStatus === 0) return refuse({ form: { key: 'common.unreachable' } });
      if (error.httpStatus === 404) {
        // Deleted by someone else meanwhile: the list should stop offering it.
        void queryClient.invalidateQueries({ queryKey: listKey });
        return refuse({ form: { key: 'workflows.errors.notFound' } });
      }
      refuse({ form: { key: 'workflows.errors.saveFailed' } });
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    setDraft(checked.draft);
    if (!checked.ok) return refuse(checked.errors);
    setErrors({});
    save.mutate({ draft: checked.draft, body: checked.body });
  };

  const setStep = (step: StepDraft, clear: readonly (keyof StepErrors)[]) => {
    setDraft((current) => ({ ...current, steps: current.steps.map((existing) => (existing.key === step.key ? step : existing)) }));
    if (clear.length > 0) setErrors((current) => clearStepErrors(current, step.key, clear));
  };

  const policyData = signingPolicyData(t);
  const message = (value: Message | undefined) => messageText(t, value);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={t(template ? 'workflows.form.editTitle' : 'workflows.form.createTitle')}>
      <Stack gap="md">
        <TextInput
          label={t('workflows.form.name')}
          required
          maxLength={NAME_MAX}
          value={draft.name}
          error={message(errors.name)}
          data-autofocus
          onChange={(event) => {
            const name = event.currentTarget.value;
            setDraft((current) => ({ ...current, name }));
            setErrors(({ name: _dropped, ...rest }) => rest);
          }}
        />
        <Textarea
          label={t('workflows.form.description')}
          rows={3}
          resize="vertical"
          maxLength={DESCRIPTION_MAX}
          value={draft.description}
          error={message(errors.description)}
          onChange={(event) => {
            const description = event.currentTarget.value;
            setDraft((current) => ({ ...current, description }));
          }}
        />
        <NativeSelect
          label={t('workflows.form.signingPolicy')}
          description={t('workflows.form.signingPolicyHint')}
          data={policyData}
          value={draft.signingPolicy}
          onChange={(event) => {
            const parsed = SigningPolicy.safeParse(event.currentTarget.value);
            if (parsed.success) setDraft((current) => ({ ...current, signingPolicy: parsed.data }));
          }}
        />

        <Stack gap="sm" component="section" aria-labelledby="workflow-steps-heading">
          <Stack gap={2}>
            <Title order={3} size="h5" id="workflow-steps-heading">
              {t('workflows.form.stepsHeading')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('workflows.form.stepsHint')}
            </Text>
          </Stack>
          {errors.steps && (
            <Text size="sm" c="red" role="alert">
              {message(errors.steps)}
            </Text>
          )}
          {draft.steps.map((step, index) => (
            <StepEditor
              key={step.key}
              step={step}
              index={index}
              count={draft.steps.length}
              states={states}
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
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<PlusIcon size={16} />}
              disabled={draft.steps.length >= MAX_WORKFLOW_STEPS}
              onClick={() => {
                setDraft((current) => ({ ...current, steps: [...current.steps, emptyStep()] }));
                setErrors(({ steps: _dropped, ...rest }) => rest);
              }}
            >
              {t('workflows.form.addStep')}
            </Button>
            {draft.steps.length >= MAX_WORKFLOW_STEPS && (
              <Text size="sm" c="dimmed">
                {t('workflows.form.maxSteps', { count: MAX_WORKFLOW_STEPS })}
              </Text>
            )}
          </Group>
        </Stack>

        <FormError message={errors.form?.key} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={save.isPending}>
            {t('workflows.form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t(template ? 'workflows.form.save' : 'workflows.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function clearStepErrors(errors: DraftErrors, stepKey: string, which: readonly (keyof StepErrors)[] | 'all'): DraftErrors {
  const current = errors.step?.[stepKey];
  if (!current) return errors;
  const step = { ...errors.step };
  if (which === 'all') delete step[stepKey];
  else step[stepKey] = Object.fromEntries(Object.entries(current).filter(([key]) => !which.includes(key as keyof StepErrors)));
  return { ...errors, step };
}

function StepEditor({
  step,
  index,
  count,
  states,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  readonly step: StepDraft;
  readonly index: number;
  readonly count: number;
  readonly states: readonly WorkflowStateDefinition[];
  readonly errors: StepErrors | undefined;
  readonly onChange: (step: StepDraft, clear: readonly (keyof StepErrors)[]) => void;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const number = index + 1;
  const selected = states.find((state) => state.workflowStateId === step.workflowStateId);
  const typeLabel = (type: WorkflowStateType) => t(`workflowStateTypes.${type}`);
  const message = (value: Message | undefined) => messageText(t, value);

  const stateData = [
    { value: '', label: t('workflows.form.chooseState'), disabled: true },
    ...states.map((state) => {
      const type = typeLabel(state.type);
      // "Review (Review)" says nothing twice: the type is added only when the name differs from it.
      const label = state.name.trim().toLowerCase() === type.toLowerCase() ? state.name : t('workflows.form.stateOption', { name: state.name, type });
      return { value: state.workflowStateId, label };
    }),
    // A state removed from the catalogue since the template was made: shown, so the select does not lie.
    ...(step.workflowStateId && !selected ? [{ value: step.workflowStateId, label: t('workflows.form.removedState') }] : []),
  ];

  // A refusal of the recipient being added; the form's own check on save arrives in `errors`.
  const [pendingError, setPendingError] = useState<Message | null>(null);
  const shownPendingError = pendingError ?? errors?.pending;

  const addRecipient = () => {
    const added = addPending(step);
    if ('error' in added) return setPendingError(added.error);
    setPendingError(null);
    onChange(added.step, ['recipients', 'pending']);
  };

  const onPendingKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds the recipient rather than submitting the whole form.
    event.preventDefault();
    addRecipient();
  };

  const kindLabels: Record<RecipientKind, string> = { user: t('workflows.form.kind.user'), placeholder: t('workflows.form.kind.placeholder') };

  return (
    <Card withBorder padding="md" role="group" aria-labelledby={headingId} data-testid="workflow-step">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Title order={4} size="h6" id={headingId}>
              {t('workflows.form.step', { number })}
            </Title>
            {selected && (
              <Badge variant="light" color={STATE_TYPE_COLORS[selected.type]} tt="none">
                {typeLabel(selected.type)}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="subtle" color="gray" aria-label={t('workflows.form.moveUp', { number })} disabled={index === 0} onClick={() => onMove(-1)}>
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('workflows.form.moveDown', { number })}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
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
          error={message(errors?.state)}
          onChange={(event) => onChange({ ...step, workflowStateId: event.currentTarget.value }, ['state'])}
        />

        <Stack gap={6}>
          <Text size="sm" fw={500} id={`${headingId}-recipients`}>
            {t('workflows.form.recipients')}
          </Text>
          {step.recipients.length === 0 ? (
            <Text size="sm" c={errors?.recipients ? 'red' : 'dimmed'} role={errors?.recipients ? 'alert' : undefined}>
              {errors?.recipients ? message(errors.recipients) : t('workflows.form.noRecipients')}
            </Text>
          ) : (
            <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={`${headingId}-recipients`}>
              {step.recipients.map((entry) => {
                const error = errors?.recipient?.[entry.key];
                const text = recipientText(entry.recipient);
                return (
                  <Paper
                    component="li"
                    key={entry.key}
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
                          {entry.recipient.type === 'user' ? <MailIcon size={16} /> : <TagIcon size={16} />}
                        </Text>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {text}
                        </Text>
                        {entry.recipient.type === 'placeholder' && (
                          <Badge size="xs" variant="outline" color="gray" tt="none" style={{ flexShrink: 0 }}>
                            {t('workflows.form.kind.placeholder')}
                          </Badge>
                        )}
                      </Group>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="sm"
                        aria-label={t('workflows.form.removeRecipient', { name: text })}
                        onClick={() =>
                          onChange({ ...step, recipients: step.recipients.filter((other) => other.key !== entry.key) }, [])
                        }
                      >
                        <XIcon size={14} />
                      </ActionIcon>
                    </Group>
                    {error && (
                      <Text size="xs" c="red" mt={4}>
                        {message(error)}
                      </Text>
                    )}
                  </Paper>
                );
              })}
            </Stack>
          )}
        </Stack>

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
              onChange({ ...step, pendingKind: value === 'placeholder' ? 'placeholder' : 'user' }, ['pending']);
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
            value={step.pendingText}
            error={shownPendingError ? message(shownPendingError) : undefined}
            onKeyDown={onPendingKey}
            onChange={(event) => {
              setPendingError(null);
              onChange({ ...step, pendingText: event.currentTarget.value }, ['pending']);
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
      </Stack>
    </Card>
  );
}
