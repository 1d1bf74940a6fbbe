import { ActionIcon, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { listWorkflows, listWorkflowStates, reorderWorkflowState, type WorkflowStateDefinition, type WorkflowTemplate } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { STATE_TYPE_COLORS, workflowQueryKeys } from '../workflows';
import { PencilIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { stepLabel } from '../../ui/step-label';
import { detailOf, DoneAlert, MoveButtons, OrderedList, OrderedListHeader, PositionBadge, ProblemAlert } from './ordered-list-parts';
import { afterStateChange, type StateProblem, stateProblem } from './use-workflow-state-form';
import { StateFormModal } from './workflow-state-form-dialog';

type Notice =
  | { readonly kind: 'created' | 'updated'; readonly name: string }
  | { readonly kind: 'moved'; readonly name: string; readonly order: number }
  | { readonly kind: 'problem'; readonly problem: StateProblem };

/** How many templates use each state: renaming one renames it in all of them, so the admin is told. */
export function templatesPerState(templates: readonly Pick<WorkflowTemplate, 'steps'>[]): ReadonlyMap<string, number> {
  const uses = new Map<string, number>();
  for (const template of templates) {
    for (const stateId of new Set(template.steps.map((step) => step.workflowStateId))) uses.set(stateId, (uses.get(stateId) ?? 0) + 1);
  }
  return uses;
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
      setNotice({ kind: 'moved', name: stepLabel(t, state), order: moved?.order ?? state.order });
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
  const name = stepLabel(t, state);
  return (
    <Card component="li" withBorder padding="sm" data-testid="workflow-state" aria-label={name}>
      <Group justify="space-between" align="center" gap="sm" wrap="nowrap">
        <Group gap="sm" align="flex-start" wrap="nowrap" miw={0}>
          <PositionBadge position={state.order} label={t('workflowStatesAdmin.position', { order: state.order })} />
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {name}
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
            upLabel={t('workflowStatesAdmin.moveUp', { name })}
            downLabel={t('workflowStatesAdmin.moveDown', { name })}
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
            aria-label={t('workflowStatesAdmin.editLabel', { name })}
            onClick={onEdit}
            visibleFrom="sm"
          >
            {t('workflowStatesAdmin.edit')}
          </Button>
          <ActionIcon variant="light" size="lg" aria-label={t('workflowStatesAdmin.editLabel', { name })} onClick={onEdit} hiddenFrom="sm">
            <PencilIcon size={16} />
          </ActionIcon>
        </Group>
      </Group>
    </Card>
  );
}
