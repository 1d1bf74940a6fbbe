import { ActionIcon, Badge, Button, Card, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { createReason, listReasons, ResponseCode, SIGN_REASON_MAX_LENGTH, type SigningReason, updateReason } from '@pakt/domain';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { reasonLabel } from '../../ui/reason-label';
import { CheckIcon, PencilIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { adminAuditQueryKeys, reasonQueryKeys } from './queries';
import { detailOf, DoneAlert, MoveButtons, OrderedList, OrderedListHeader, PositionBadge, ProblemAlert } from './ordered-list-parts';

/** PUT /msbapi/v1/reasons: one reason, one change at a time from this screen. */
type UpdateBody = { reasonId: string; text?: string; enabled?: boolean; position?: number; isDefault?: true };

type Notice =
  | { readonly kind: 'created' | 'updated' | 'enabled' | 'disabled' | 'madeDefault'; readonly text: string }
  | { readonly kind: 'moved'; readonly text: string; readonly position: number }
  | { readonly kind: 'problem'; readonly problem: ReasonProblem };

export type ReasonProblem =
  | { readonly key: 'reasonsAdmin.errors.taken'; readonly onText: true }
  | { readonly key: 'reasonsAdmin.errors.gone'; readonly gone: true }
  | { readonly key: 'common.unreachable' }
  | { readonly key: 'reasonsAdmin.errors.failed'; readonly detail?: string };

/**
 * A refusal in the screen's words. The server answers -6 with the issue on `text` for words
 * already in the list (or blank, too long, which the form stops first); 404 means the reason is
 * no longer the tenant's, so the list is asked again.
 */
export function reasonProblem(error: unknown): ReasonProblem {
  if (!(error instanceof ApiError)) return { key: 'reasonsAdmin.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.some((issue) => /(^|\.)text$/.test(issue.path))) {
    return { key: 'reasonsAdmin.errors.taken', onText: true };
  }
  if (error.httpStatus === 404) return { key: 'reasonsAdmin.errors.gone', gone: true };
  return { key: 'reasonsAdmin.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** After a change: the list (the ceremony's too, next time an ePak is opened) and the audit log it was recorded in. */
function afterReasonChange(queryClient: QueryClient, tenant: string | null | undefined): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reasonQueryKeys.list(tenant) }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}

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

/** Adds a reason (reason null) or changes one's words; a built-in reason's new words are the tenant's own. */
function ReasonFormModal({
  opened,
  reason,
  onClose,
  onDone,
}: {
  readonly opened: boolean;
  readonly reason: SigningReason | null;
  readonly onClose: () => void;
  readonly onDone: (notice: { readonly kind: 'created' | 'updated'; readonly text: string }) => void;
}) {
  const { t } = useTranslation();
  const tenantUuid = useCurrentTenant()?.tenantUuid;
  const queryClient = useQueryClient();
  // A built-in reason is edited from the words the admin sees (its translation).
  const [text, setText] = useState(reason ? reasonLabel(t, reason) : '');
  const [textError, setTextError] = useState<'reasonsAdmin.errors.required' | 'reasonsAdmin.errors.taken' | null>(null);
  const [problem, setProblem] = useState<ReasonProblem | null>(null);

  const save = useMutation({
    mutationFn: async (words: string) => {
      if (!reason) return callApi(createReason, { body: { text: words } });
      const answer = await callApi(updateReason, { body: { reasonId: reason.reasonId, text: words } });
      return answer.reasons.find((candidate) => candidate.reasonId === reason.reasonId) ?? { ...reason, text: words };
    },
    onSuccess: async (saved) => {
      onDone({ kind: reason ? 'updated' : 'created', text: reasonLabel(t, saved) });
      await afterReasonChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      const refusal = reasonProblem(error);
      if ('onText' in refusal) setTextError(refusal.key);
      else setProblem(refusal);
      if ('gone' in refusal) await afterReasonChange(queryClient, tenantUuid);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const trimmed = text.trim();
    if (!trimmed) {
      setTextError('reasonsAdmin.errors.required');
      return;
    }
    // Unchanged words of a built-in reason would make it the tenant's own for nothing.
    if (reason && trimmed === reasonLabel(t, reason)) {
      onClose();
      return;
    }
    save.mutate(trimmed);
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !save.isPending && onClose()}
      title={reason ? t('reasonsAdmin.form.editTitle') : t('reasonsAdmin.form.createTitle')}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert message={t(problem.key)} detail={detailOf(problem)} />}
          <TextInput
            label={t('reasonsAdmin.form.text')}
            placeholder={t('reasonsAdmin.form.placeholder')}
            value={text}
            maxLength={SIGN_REASON_MAX_LENGTH}
            required
            error={textError ? t(textError) : undefined}
            description={reason?.key ? t('reasonsAdmin.form.builtInNote') : t('reasonsAdmin.form.hint', { max: SIGN_REASON_MAX_LENGTH })}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setTextError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('reasonsAdmin.form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {reason ? t('reasonsAdmin.form.save') : t('reasonsAdmin.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
