import { ActionIcon, Badge, Button, Card, Group, Stack, Switch, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { listReasons, type SigningReason, updateReason } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { reasonLabel } from '../../ui/reason-label';
import { CheckIcon, PencilIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { reasonQueryKeys } from './queries';
import { detailOf, DoneAlert, MoveButtons, OrderedList, OrderedListHeader, PositionBadge, ProblemAlert } from './ordered-list-parts';
import { ReasonFormModal } from './reason-form-dialog';
import { afterReasonChange, type ReasonProblem, reasonProblem } from './use-reason-form';

/** PUT /msbapi/v1/reasons: one reason, one change at a time from this screen. */
type UpdateBody = { reasonId: string; text?: string; enabled?: boolean; position?: number; isDefault?: true };

type Notice =
  | { readonly kind: 'created' | 'updated' | 'enabled' | 'disabled' | 'madeDefault'; readonly text: string }
  | { readonly kind: 'moved'; readonly text: string; readonly position: number }
  | { readonly kind: 'problem'; readonly problem: ReasonProblem };

/**
 * /admin?section=reasons, the admin sub-item "edit reasons" (spec section 2, shown while the
 * tenant's showEditReasons setting is on): the signing reasons the ceremony offers. Admins add
 * reasons, change their words, turn them off and on, put them in order and choose the default,
 * which the ceremony lists first. Nothing is deleted: ePaks signed with a reason keep its words,
 * and the contract has no such call.
 */
export function ReasonsSection() {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const tenantUuid = tenant?.tenantUuid;
  const queryClient = useQueryClient();
  const reasons = useQuery({
    queryKey: reasonQueryKeys.list(tenantUuid),
    queryFn: ({ signal }) => callApi(listReasons, undefined, { signal }),
  });
  const [form, setForm] = useState<{ serial: number; reason: SigningReason | null; opened: boolean }>({ serial: 0, reason: null, opened: false });
  const [notice, setNotice] = useState<Notice | null>(null);
  useDocumentTitle(`${t('reasonsAdmin.title')} · Pakt`);

  const change = useMutation({
    mutationFn: ({ body }: { reason: SigningReason; body: UpdateBody; done: Notice['kind'] }) => callApi(updateReason, { body }),
    onMutate: () => setNotice(null),
    onSuccess: async (answer, { reason, done }) => {
      // The answer is the whole list as it now is: shown at once, then confirmed.
      queryClient.setQueryData(reasonQueryKeys.list(tenantUuid), answer);
      const now = answer.reasons.find((candidate) => candidate.reasonId === reason.reasonId) ?? reason;
      const text = reasonLabel(t, now);
      setNotice(done === 'moved' ? { kind: 'moved', text, position: now.position } : ({ kind: done, text } as Notice));
      await afterReasonChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      setNotice({ kind: 'problem', problem: reasonProblem(error) });
      await afterReasonChange(queryClient, tenantUuid);
    },
  });
  const pendingFor = (reason: SigningReason) => (change.isPending && change.variables?.reason.reasonId === reason.reasonId ? change.variables.done : null);

  const openForm = (reason: SigningReason | null) => {
    setNotice(null);
    setForm((current) => ({ serial: current.serial + 1, reason, opened: true }));
  };

  const list = reasons.data?.reasons ?? [];
  const body = queryPlaceholder(reasons, { loading: t('reasonsAdmin.loading'), loadFailed: t('reasonsAdmin.loadFailed'), retry: t('reasonsAdmin.retry') }, { centred: true }) ?? (
    <OrderedList
      count={t('reasonsAdmin.count', { count: list.length, enabled: list.filter((reason) => reason.enabled).length })}
      label={t('reasonsAdmin.listLabel')}
    >
      {list.map((reason, index) => (
        <ReasonRow
          key={reason.reasonId}
          reason={reason}
          first={index === 0}
          last={index === list.length - 1}
          busy={change.isPending}
          pending={pendingFor(reason)}
          onMove={(by) => change.mutate({ reason, body: { reasonId: reason.reasonId, position: reason.position + by }, done: 'moved' })}
          onEnable={(enabled) => change.mutate({ reason, body: { reasonId: reason.reasonId, enabled }, done: enabled ? 'enabled' : 'disabled' })}
          onMakeDefault={() => change.mutate({ reason, body: { reasonId: reason.reasonId, isDefault: true }, done: 'madeDefault' })}
          onEdit={() => openForm(reason)}
        />
      ))}
    </OrderedList>
  );

  return (
    <Stack gap="lg">
      <OrderedListHeader
        title={t('reasonsAdmin.title')}
        intro={t('reasonsAdmin.intro', { tenant: tenant?.tenantName ?? '' })}
        addLabel={t('reasonsAdmin.add')}
        onAdd={reasons.isSuccess ? () => openForm(null) : undefined}
      />
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {body}
      <ReasonFormModal
        key={form.serial}
        opened={form.opened}
        reason={form.reason}
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
    return <ProblemAlert message={t(notice.problem.key)} detail={detailOf(notice.problem)} closeLabel={t('reasonsAdmin.dismiss')} onClose={onClose} />;
  }
  return (
    <DoneAlert
      message={
        notice.kind === 'moved'
          ? t('reasonsAdmin.done.moved', { text: notice.text, position: notice.position })
          : t(`reasonsAdmin.done.${notice.kind}`, { text: notice.text })
      }
      closeLabel={t('reasonsAdmin.dismiss')}
      onClose={onClose}
    />
  );
}

function ReasonRow({
  reason,
  first,
  last,
  busy,
  pending,
  onMove,
  onEnable,
  onMakeDefault,
  onEdit,
}: {
  readonly reason: SigningReason;
  readonly first: boolean;
  readonly last: boolean;
  readonly busy: boolean;
  /** What is being done to this reason right now, if anything. */
  readonly pending: Notice['kind'] | null;
  readonly onMove: (by: -1 | 1) => void;
  readonly onEnable: (enabled: boolean) => void;
  readonly onMakeDefault: () => void;
  readonly onEdit: () => void;
}) {
  const { t } = useTranslation();
  const text = reasonLabel(t, reason);
  return (
    <Card component="li" withBorder padding="sm" data-testid="reason" aria-label={text} style={reason.enabled ? undefined : { opacity: 0.75 }}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
          <Group gap="sm" align="flex-start" wrap="nowrap" miw={0}>
            <PositionBadge position={reason.position} label={t('reasonsAdmin.position', { position: reason.position })} />
            <Stack gap={4} miw={0}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }} c={reason.enabled ? undefined : 'dimmed'}>
                {text}
              </Text>
              <Group gap={6}>
                {reason.isDefault && (
                  <Badge variant="light" color="teal" tt="none" data-testid="reason-default">
                    {t('reasonsAdmin.default')}
                  </Badge>
                )}
                {!reason.enabled && (
                  <Badge variant="light" color="gray" tt="none" data-testid="reason-disabled">
                    {t('reasonsAdmin.disabled')}
                  </Badge>
                )}
                {reason.key && (
                  <Badge variant="outline" color="gray" tt="none">
                    {t('reasonsAdmin.builtIn')}
                  </Badge>
                )}
              </Group>
            </Stack>
          </Group>
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            <MoveButtons
              upLabel={t('reasonsAdmin.moveUp', { text })}
              downLabel={t('reasonsAdmin.moveDown', { text })}
              first={first}
              last={last}
              busy={busy}
              onMove={onMove}
            />
            <ActionIcon variant="light" size="lg" aria-label={t('reasonsAdmin.editLabel', { text })} onClick={onEdit} disabled={busy}>
              <PencilIcon size={16} />
            </ActionIcon>
          </Group>
        </Group>
        <Group justify="space-between" gap="sm" pl={{ base: 0, xs: 42 }}>
          <Switch
            size="sm"
            label={t('reasonsAdmin.enabled')}
            checked={reason.enabled}
            // The default stays enabled: the ceremony lists it first (make another the default first).
            disabled={busy || reason.isDefault}
            aria-label={t('reasonsAdmin.enabledLabel', { text })}
            onChange={(event) => onEnable(event.currentTarget.checked)}
          />
          {!reason.isDefault && (
            <Button
              variant="subtle"
              size="xs"
              leftSection={<CheckIcon size={14} />}
              aria-label={t('reasonsAdmin.makeDefaultLabel', { text })}
              disabled={busy}
              loading={pending === 'madeDefault'}
              onClick={onMakeDefault}
            >
              {t('reasonsAdmin.makeDefault')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
