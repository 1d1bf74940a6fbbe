import { ActionIcon, Badge, Button, Card, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  createWorkflowState,
  listWorkflows,
  listWorkflowStates,
  reorderWorkflowState,
  ResponseCode,
  updateWorkflowState,
  WORKFLOW_STATE_TYPES,
  type WorkflowStateDefinition,
  type WorkflowStateType,
  type WorkflowTemplate,
} from '@pakt/domain';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { STATE_TYPE_COLORS, workflowQueryKeys } from '../workflows';
import { PencilIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { adminAuditQueryKeys } from './queries';
import { detailOf, DoneAlert, MoveButtons, OrderedList, OrderedListHeader, PositionBadge, ProblemAlert } from './ordered-list-parts';

/** The contract's limits (api/workflows.ts), so nobody types what the server would refuse. */
export const STATE_NAME_MAX = 60;
export const STATE_DESCRIPTION_MAX = 500;

type Notice =
  | { readonly kind: 'created' | 'updated'; readonly name: string }
  | { readonly kind: 'moved'; readonly name: string; readonly order: number }
  | { readonly kind: 'problem'; readonly problem: StateProblem };

export type StateProblem =
  | { readonly key: 'workflowStatesAdmin.errors.nameTaken'; readonly onName: true }
  | { readonly key: 'workflowStatesAdmin.errors.gone'; readonly gone: true }
  | { readonly key: 'common.unreachable' }
  | { readonly key: 'workflowStatesAdmin.errors.failed'; readonly detail?: string };

/** A refusal in the screen's words: a taken name belongs on the name field, a vanished state refreshes the list. */
export function stateProblem(error: unknown): StateProblem {
  if (!(error instanceof ApiError)) return { key: 'workflowStatesAdmin.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  if (error.code === ResponseCode.WORKFLOW_TEMPLATE_ALREADY_EXISTS.code) return { key: 'workflowStatesAdmin.errors.nameTaken', onName: true };
  if (error.httpStatus === 404) return { key: 'workflowStatesAdmin.errors.gone', gone: true };
  return { key: 'workflowStatesAdmin.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** How many templates use each state: renaming one renames it in all of them, so the admin is told. */
export function templatesPerState(templates: readonly Pick<WorkflowTemplate, 'steps'>[]): ReadonlyMap<string, number> {
  const uses = new Map<string, number>();
  for (const template of templates) {
    for (const stateId of new Set(template.steps.map((step) => step.workflowStateId))) uses.set(stateId, (uses.get(stateId) ?? 0) + 1);
  }
  return uses;
}

/**
 * After a change: the catalogue and the templates (which show state names) are asked again by
 * whoever shows them, and so is the audit log the change was recorded in.
 */
function afterStateChange(queryClient: QueryClient, tenant: string | null | undefined): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: workflowQueryKeys.states(tenant) }),
    queryClient.invalidateQueries({ queryKey: workflowQueryKeys.list(tenant) }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}

/**
 * /admin?section=workflowStates, the admin sub-item "edit workflow states" (spec section 2): the
 * tenant's catalogue of named steps that workflow templates are built from (the workflows page
 * only picks from it). Admins add states, rename and describe them, and put them in the order the
 * template form offers them. A state's type never changes, and there is no removing one: templates
 * and ePaks refer to states, and the contract has no such call.
 */
export function WorkflowStatesSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const tenantUuid = tenant?.tenantUuid;
  const queryClient = useQueryClient();
  const states = useQuery({
    queryKey: workflowQueryKeys.states(tenantUuid),
    queryFn: ({ signal }) => callApi(listWorkflowStates, undefined, { signal }),
  });
  // Only to say how widely each state is used; the list stands without it.
  const templates = useQuery({
    queryKey: workflowQueryKeys.list(tenantUuid),
    queryFn: ({ signal }) => callApi(listWorkflows, undefined, { signal, failures: 'caller' }),
  });
  const uses = useMemo(() => (templates.data ? templatesPerState(templates.data.workflows) : null), [templates.data]);
  const [form, setForm] = useState<{ serial: number; state: WorkflowStateDefinition | null; opened: boolean }>({ serial: 0, state: null, opened: false });
  const [notice, setNotice] = useState<Notice | null>(null);
  useDocumentTitle(`${t('workflowStatesAdmin.title')} · Pakt`);

  const move = useMutation({
    mutationFn: ({ state, order }: { state: WorkflowStateDefinition; order: number }) =>
      callApi(reorderWorkflowState, { params: { workflowStateId: state.workflowStateId, workflowStateOrder: order } }),
    onMutate: () => setNotice(null),
    onSuccess: async (answer, { state }) => {
      // The answer is the whole list in its new order: shown at once, then confirmed.
      queryClient.setQueryData(workflowQueryKeys.states(tenantUuid), answer);
      const moved = answer.states.find((candidate) => candidate.workflowStateId === state.workflowStateId);
      setNotice({ kind: 'moved', name: state.name, order: moved?.order ?? state.order });
      await afterStateChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      setNotice({ kind: 'problem', problem: stateProblem(error) });
      await afterStateChange(queryClient, tenantUuid);
    },
  });

  const openForm = (state: WorkflowStateDefinition | null) => {
    setNotice(null);
    setForm((current) => ({ serial: current.serial + 1, state, opened: true }));
  };

  const list = states.data?.states ?? [];
  const body =
    queryPlaceholder(states, { loading: t('workflowStatesAdmin.loading'), loadFailed: t('workflowStatesAdmin.loadFailed'), retry: t('workflowStatesAdmin.retry') }, { centred: true }) ??
    (list.length === 0 ? (
      <Card withBorder padding="lg">
        <Text c="dimmed">{t('workflowStatesAdmin.empty')}</Text>
      </Card>
    ) : (
      <OrderedList count={t('workflowStatesAdmin.count', { count: list.length })} label={t('workflowStatesAdmin.listLabel')}>
        {list.map((state, index) => (
          <StateRow
            key={state.workflowStateId}
            state={state}
            first={index === 0}
            last={index === list.length - 1}
            uses={uses ? (uses.get(state.workflowStateId) ?? 0) : null}
            busy={move.isPending}
            moving={move.isPending && move.variables?.state.workflowStateId === state.workflowStateId ? Math.sign(move.variables.order - state.order) : 0}
            onMove={(by) => move.mutate({ state, order: state.order + by })}
            onEdit={() => openForm(state)}
          />
        ))}
      </OrderedList>
    ));

  return (
    <Stack gap="lg">
      <OrderedListHeader
        title={t('workflowStatesAdmin.title')}
        intro={t('workflowStatesAdmin.intro', { tenant: tenant?.tenantName ?? '' })}
        addLabel={t('workflowStatesAdmin.add')}
        onAdd={states.isSuccess ? () => openForm(null) : undefined}
      />
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {body}
      <StateFormModal
        key={form.serial}
        opened={form.opened}
        state={form.state}
        uses={form.state && uses ? (uses.get(form.state.workflowStateId) ?? 0) : 0}
        onClose={() => setForm((current) => ({ ...current, opened: false }))}
        onDone={(done) => {
          setForm((current) => ({ ...current, opened: false }));
          setNotice(done);
        }}
      />
    </Stack>
  );
}

function NoticeAlert({ notice, onClose }: { readonly notice: Notice | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  if (!notice) return null;
  if (notice.kind === 'problem') {
    return <ProblemAlert message={t(notice.problem.key)} detail={detailOf(notice.problem)} closeLabel={t('workflowStatesAdmin.dismiss')} onClose={onClose} />;
  }
  return (
    <DoneAlert
      message={
        notice.kind === 'moved'
          ? t('workflowStatesAdmin.done.moved', { name: notice.name, order: notice.order })
          : t(`workflowStatesAdmin.done.${notice.kind}`, { name: notice.name })
      }
      closeLabel={t('workflowStatesAdmin.dismiss')}
      onClose={onClose}
    />
  );
}

function StateRow({
  state,
  first,
  last,
  uses,
  busy,
  moving,
  onMove,
  onEdit,
}: {
  readonly state: WorkflowStateDefinition;
  readonly first: boolean;
  readonly last: boolean;
  /** Templates using it; null while unknown. */
  readonly uses: number | null;
  readonly busy: boolean;
  /** The way it is being moved right now: -1 up, 1 down, 0 not. */
  readonly moving: number;
  readonly onMove: (by: -1 | 1) => void;
  readonly onEdit: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card component="li" withBorder padding="sm" data-testid="workflow-state" aria-label={state.name}>
      <Group justify="space-between" align="center" gap="sm" wrap="nowrap">
        <Group gap="sm" align="flex-start" wrap="nowrap" miw={0}>
          <PositionBadge position={state.order} label={t('workflowStatesAdmin.position', { order: state.order })} />
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {state.name}
              </Text>
              <Badge variant="light" color={STATE_TYPE_COLORS[state.type]} tt="none" data-testid="state-type">
                {t(`workflowStateTypes.${state.type}`)}
              </Badge>
            </Group>
            {state.description && (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
                {state.description}
              </Text>
            )}
            {uses !== null && (
              <Text size="xs" c="dimmed" data-testid="state-uses">
                {uses === 0 ? t('workflowStatesAdmin.unused') : t('workflowStatesAdmin.usedBy', { count: uses })}
              </Text>
            )}
          </Stack>
        </Group>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <MoveButtons
            upLabel={t('workflowStatesAdmin.moveUp', { name: state.name })}
            downLabel={t('workflowStatesAdmin.moveDown', { name: state.name })}
            first={first}
            last={last}
            busy={busy}
            moving={moving}
            onMove={onMove}
          />
          <Button
            variant="light"
            size="xs"
            leftSection={<PencilIcon size={14} />}
            aria-label={t('workflowStatesAdmin.editLabel', { name: state.name })}
            onClick={onEdit}
            visibleFrom="sm"
          >
            {t('workflowStatesAdmin.edit')}
          </Button>
          <ActionIcon variant="light" size="lg" aria-label={t('workflowStatesAdmin.editLabel', { name: state.name })} onClick={onEdit} hiddenFrom="sm">
            <PencilIcon size={16} />
          </ActionIcon>
        </Group>
      </Group>
    </Card>
  );
}

/** Adds a state (state null) or renames and describes one; the type is chosen once, when it is added. */
function StateFormModal({
  opened,
  state,
  uses,
  onClose,
  onDone,
}: {
  readonly opened: boolean;
  readonly state: WorkflowStateDefinition | null;
  readonly uses: number;
  readonly onClose: () => void;
  readonly onDone: (notice: Extract<Notice, { kind: 'created' | 'updated' }>) => void;
}) {
  const { t } = useTranslation();
  const tenantUuid = useCurrentTenant()?.tenantUuid;
  const queryClient = useQueryClient();
  const [name, setName] = useState(state?.name ?? '');
  const [type, setType] = useState<WorkflowStateType>(state?.type ?? 'REVIEW');
  const [description, setDescription] = useState(state?.description ?? '');
  const [nameError, setNameError] = useState<'workflowStatesAdmin.errors.nameRequired' | 'workflowStatesAdmin.errors.nameTaken' | null>(null);
  const [problem, setProblem] = useState<StateProblem | null>(null);

  const save = useMutation({
    mutationFn: (input: { name: string; description: string | null }) =>
      state
        ? callApi(updateWorkflowState, { params: { workflowStateId: state.workflowStateId }, body: input })
        : callApi(createWorkflowState, { body: { ...input, type } }),
    onSuccess: async (saved) => {
      onDone({ kind: state ? 'updated' : 'created', name: saved.name });
      await afterStateChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      const refusal = stateProblem(error);
      if ('onName' in refusal) setNameError(refusal.key);
      else setProblem(refusal);
      if ('gone' in refusal) await afterStateChange(queryClient, tenantUuid);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('workflowStatesAdmin.errors.nameRequired');
      return;
    }
    // An emptied description clears it (null); the server keeps names and descriptions trimmed.
    save.mutate({ name: trimmed, description: description.trim() || null });
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !save.isPending && onClose()}
      title={state ? t('workflowStatesAdmin.form.editTitle', { name: state.name }) : t('workflowStatesAdmin.form.createTitle')}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert message={t(problem.key)} detail={detailOf(problem)} />}
          <TextInput
            label={t('workflowStatesAdmin.form.name')}
            placeholder={t('workflowStatesAdmin.form.namePlaceholder')}
            value={name}
            maxLength={STATE_NAME_MAX}
            required
            error={nameError ? t(nameError) : undefined}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            description={state && uses > 0 ? t('workflowStatesAdmin.form.renameNote', { count: uses }) : undefined}
            data-autofocus
          />
          {state ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('workflowStatesAdmin.form.type')}
              </Text>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" color={STATE_TYPE_COLORS[state.type]} tt="none" style={{ flexShrink: 0 }}>
                  {t(`workflowStateTypes.${state.type}`)}
                </Badge>
                <Text size="xs" c="dimmed">
                  {t('workflowStatesAdmin.form.typeFixed')}
                </Text>
              </Group>
            </Stack>
          ) : (
            <Select
              label={t('workflowStatesAdmin.form.type')}
              description={t('workflowStatesAdmin.form.typeHelp')}
              data={WORKFLOW_STATE_TYPES.map((value) => ({ value, label: t(`workflowStateTypes.${value}`) }))}
              value={type}
              allowDeselect={false}
              onChange={(value) => value && setType(value as WorkflowStateType)}
              comboboxProps={{ withinPortal: true }}
              renderOption={({ option }) => (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  <Text size="xs" c="dimmed">
                    {t(`workflowStatesAdmin.typeDescriptions.${option.value as WorkflowStateType}`)}
                  </Text>
                </Stack>
              )}
            />
          )}
          <Textarea
            label={t('workflowStatesAdmin.form.description')}
            placeholder={t('workflowStatesAdmin.form.descriptionPlaceholder')}
            value={description}
            maxLength={STATE_DESCRIPTION_MAX}
            rows={3}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('workflowStatesAdmin.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {state ? t('workflowStatesAdmin.form.save') : t('workflowStatesAdmin.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
