import { Alert, Badge, Button, Card, EmptyState, Group, Loader, Modal, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { can, deleteWorkflow, listWorkflows, listWorkflowStates, type WorkflowStep, type WorkflowTemplate } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { RequireRoute, useResourceActor } from '../../api/access';
import { PencilIcon, PlusIcon, RouteIcon, TrashIcon } from '../../ui/icons';
import { STATE_TYPE_COLORS } from './state-type-colors';
import { WorkflowFormDrawer } from './workflow-form';
import { formatDate } from '../../ui/dates';
import { stepLabel } from '../../ui/step-label';
import { workflowQueryKeys } from './queries';

/**
 * /workflows: the tenant's workflow templates (spec sections 2 and 7). Everyone who may open the
 * page may use and create templates; changing or deleting one is for its owner or an admin, as the
 * server enforces (403), so those buttons are shown only to them.
 */
export function WorkflowsPage() {
  return (
    <RequireRoute route="workflows">
      <Workflows />
    </RequireRoute>
  );
}

type Notice = { readonly kind: 'saved' | 'deleted'; readonly name: string };

function Workflows() {
  const { t } = useTranslation();
  const session = useSession();
  const tenantUuid = session?.tenantUuid;
  const listKey = workflowQueryKeys.list(tenantUuid);
  const list = useQuery({ queryKey: listKey, queryFn: ({ signal }) => callApi(listWorkflows, undefined, { signal }) });
  // The catalogue the form picks steps from; read with the page so the form opens ready.
  const states = useQuery({
    queryKey: workflowQueryKeys.states(tenantUuid),
    queryFn: ({ signal }) => callApi(listWorkflowStates, undefined, { signal }),
  });
  const [form, setForm] = useState<{ serial: number; template: WorkflowTemplate | null; opened: boolean }>({
    serial: 0,
    template: null,
    opened: false,
  });
  const [deleting, setDeleting] = useState<WorkflowTemplate | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  useDocumentTitle(`${t('workflows.title')} · Pakt`);

  const actor = useResourceActor();
  const mayChange = (template: WorkflowTemplate) => actor !== null && can(actor, 'workflowTemplate.change', { tenantId: actor.tenantId, ownerId: template.ownerId });
  const openForm = (template: WorkflowTemplate | null) => {
    setNotice(null);
    setForm((current) => ({ serial: current.serial + 1, template, opened: true }));
  };

  let body;
  if (list.isPending) body = <Loader size="sm" aria-label={t('workflows.loading')} />;
  else if (list.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('workflows.loadFailed')}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('workflows.retry')}
        </Button>
      </Alert>
    );
  } else if (list.data.workflows.length === 0) {
    body = (
      <Card withBorder padding="xl">
        <EmptyState
          icon={<RouteIcon size={28} />}
          variant="light"
          title={t('workflows.empty.title')}
          description={t('workflows.empty.text')}
        >
          <EmptyState.Actions>
            <Button leftSection={<PlusIcon size={16} />} onClick={() => openForm(null)}>
              {t('workflows.empty.action')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Card>
    );
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('workflows.count', { count: list.data.workflows.length })}
        </Text>
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('workflows.title')}>
          {list.data.workflows.map((template) => (
            <WorkflowCard
              key={template.workflowId}
              template={template}
              mayChange={mayChange(template)}
              onEdit={() => openForm(template)}
              onDelete={() => (setNotice(null), setDeleting(template))}
            />
          ))}
        </Stack>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} maw={620}>
          <Title order={1} fz={{ base: 28, sm: 34 }}>
            {t('workflows.title')}
          </Title>
          <Text c="dimmed">{t('workflows.intro')}</Text>
        </Stack>
        {list.isSuccess && list.data.workflows.length > 0 && (
          <Button leftSection={<PlusIcon size={16} />} onClick={() => openForm(null)}>
            {t('workflows.new')}
          </Button>
        )}
      </Group>
      {notice && (
        <Alert color="teal" variant="light" role="status" withCloseButton closeButtonLabel={t('workflows.dismiss')} onClose={() => setNotice(null)}>
          {t(notice.kind === 'saved' ? 'workflows.saved' : 'workflows.deleted', { name: notice.name })}
        </Alert>
      )}
      {body}
      <WorkflowFormDrawer
        formKey={form.serial}
        opened={form.opened}
        template={form.template}
        states={states}
        listKey={listKey}
        onClose={() => setForm((current) => ({ ...current, opened: false }))}
        onSaved={(saved) => {
          setForm((current) => ({ ...current, opened: false }));
          setNotice({ kind: 'saved', name: saved.name });
        }}
      />
      <DeleteDialog
        template={deleting}
        listKey={listKey}
        onClose={() => setDeleting(null)}
        onDeleted={(gone) => {
          setDeleting(null);
          setNotice({ kind: 'deleted', name: gone.name });
        }}
      />
    </Stack>
  );
}

function StepSequence({ steps }: { readonly steps: readonly WorkflowStep[] }) {
  const { t } = useTranslation();
  return (
    <Group component="ol" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('workflows.list.steps')}>
      {steps.map((step, index) => {
        const type = t(`workflowStateTypes.${step.type}`);
        const name = stepLabel(t, step);
        const count = step.recipients.length;
        return (
          <Group component="li" key={step.order} gap={6} wrap="nowrap" maw="100%">
            {index > 0 && (
              <Text component="span" c="dimmed" size="sm" aria-hidden>
                →
              </Text>
            )}
            <Badge variant="light" color={STATE_TYPE_COLORS[step.type]} tt="none" title={type} aria-hidden maw="100%">
              {t('workflows.list.stepBadge', { name, count })}
            </Badge>
            <VisuallyHidden>{t('workflows.list.stepDescription', { order: step.order, name, type, count })}</VisuallyHidden>
          </Group>
        );
      })}
    </Group>
  );
}

function WorkflowCard({
  template,
  mayChange,
  onEdit,
  onDelete,
}: {
  readonly template: WorkflowTemplate;
  readonly mayChange: boolean;
  readonly onEdit: () => void;
  readonly onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const modified = formatDate(template.modifiedOn, i18n.language);
  return (
    <Card withBorder padding="md" component="li" aria-label={template.name}>
      <Stack gap="xs">
        <Stack gap={2}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
              {template.name}
            </Title>
            <Badge variant="outline" color="gray" tt="none">
              <VisuallyHidden>{t('workflows.list.policy')}: </VisuallyHidden>
              {template.signingPolicy}
            </Badge>
          </Group>
          {template.description && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
              {template.description}
            </Text>
          )}
        </Stack>
        <StepSequence steps={template.steps} />
        <Group justify="space-between" align="center" gap="xs">
          <Text size="xs" c="dimmed">
            {[
              template.ownerName ? t('workflows.list.owner', { name: template.ownerName }) : null,
              t('workflows.list.modified', { date: modified }),
              t('workflows.list.signers', { count: template.signerCount }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          {mayChange && (
            <Group gap="xs" wrap="nowrap">
              <Button
                variant="light"
                size="xs"
                leftSection={<PencilIcon size={14} />}
                onClick={onEdit}
                aria-label={t('workflows.list.editAria', { name: template.name })}
              >
                {t('workflows.list.edit')}
              </Button>
              <Button
                variant="light"
                color="red"
                size="xs"
                leftSection={<TrashIcon size={14} />}
                onClick={onDelete}
                aria-label={t('workflows.list.deleteAria', { name: template.name })}
              >
                {t('workflows.list.delete')}
              </Button>
            </Group>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function deleteFailure(error: unknown): ParseKeys {
  if (error instanceof ApiError && error.httpStatus === 0) return 'common.unreachable';
  return 'workflows.delete.failed';
}

function DeleteDialog({
  template,
  listKey,
  onClose,
  onDeleted,
}: {
  readonly template: WorkflowTemplate | null;
  readonly listKey: readonly unknown[];
  readonly onClose: () => void;
  readonly onDeleted: (template: WorkflowTemplate) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Kept while the dialog closes, so its text does not go blank during the transition.
  const [shown, setShown] = useState<WorkflowTemplate | null>(template);
  if (template && template !== shown) setShown(template);

  const remove = useMutation({
    mutationFn: (target: WorkflowTemplate) => callApi(deleteWorkflow, { params: { workflowId: target.workflowId } }),
    onSuccess: (_, target) => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      onDeleted(target);
    },
    onError: (error, target) => {
      // Someone else deleted it first: it is gone either way.
      if (error instanceof ApiError && error.httpStatus === 404) {
        void queryClient.invalidateQueries({ queryKey: listKey });
        onDeleted(target);
      }
    },
  });

  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  return (
    <Modal opened={template !== null} onClose={close} title={t('workflows.delete.title', { name: shown?.name ?? '' })} centered>
      <Stack gap="md">
        <Text size="sm">{t('workflows.delete.text')}</Text>
        {remove.isError && !(remove.error instanceof ApiError && remove.error.httpStatus === 404) && (
          <Alert color="red" variant="light" role="alert">
            {t(deleteFailure(remove.error))}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            {t('workflows.delete.cancel')}
          </Button>
          <Button color="red" onClick={() => shown && remove.mutate(shown)} loading={remove.isPending} data-autofocus>
            {t('workflows.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
