import { Alert, Badge, Button, Card, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { can, listSuperadmins, registerSuperadmin, type Superadmin, type SuperadminStatus, updateSuperadminStatus } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { useMailDelivered } from '../../api/public-queries';
import { useActor, useCan } from '../../api/access';
import { WIDE_LAYOUT_QUERY } from '../inbox';
import { UserPlusIcon } from '../../ui/icons';
import { type SuperadminProblem, superadminProblem, SuperadminInviteForm } from './superadmin-invite';
import { formatDate } from '../../ui/dates';
import { superadminQueryKeys } from './queries';

const STATUS_COLORS: Record<SuperadminStatus, string> = { invited: 'blue', active: 'green', disabled: 'red' };

type Notice = { readonly kind: 'done'; readonly text: string } | { readonly kind: 'problem'; readonly problem: SuperadminProblem };
type Change = { readonly superadmin: Superadmin; readonly status: 'enabled' | 'disabled' };

export const superadminName = (s: Pick<Superadmin, 'firstName' | 'middleName' | 'lastName' | 'email'>) =>
  [s.firstName, s.middleName, s.lastName].filter(Boolean).join(' ').trim() || s.email;

/**
 * The settings tab `superadmins` (spec §6 "list superadmins, register as one and update
 * superadmin status"): the tenant's super admins, inviting another, and disabling or enabling
 * one. Each control is there only when the permissions module allows it, and nothing is offered
 * on one's own account.
 */
export function SuperadminsSection() {
  const { t } = useTranslation();
  // Without a mail server an invitation only reaches the outbox: the texts say so.
  const mailDelivered = useMailDelivered();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const actor = useActor();
  const canList = useCan('superadmin.list');
  const canRegister = useCan('superadmin.register');
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, false, { getInitialValueInEffect: false });
  const [registering, setRegistering] = useState(false);
  const [confirming, setConfirming] = useState<Change | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const listKey = superadminQueryKeys.list(tenant?.tenantUuid);
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => callApi(listSuperadmins, undefined, { signal }),
    enabled: canList,
  });

  const status = useMutation({
    // Refusals are explained here: -11 and -13 travel with a 403 that must not leave the page.
    mutationFn: (change: Change) => callApi(updateSuperadminStatus, { body: { userId: change.superadmin.userId, status: change.status } }, { failures: 'caller' }),
    onMutate: () => setNotice(null),
    onSuccess: (_, change) => setNotice({ kind: 'done', text: t(`superadmins.done.${change.status}`, { name: superadminName(change.superadmin) }) }),
    onError: (error) => setNotice({ kind: 'problem', problem: superadminProblem(error) }),
    onSettled: () => {
      setConfirming(null);
      return queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const mayChange = (superadmin: Superadmin) =>
    actor !== null && !superadmin.isSelf && can(actor, 'superadmin.updateStatus', { targetUserId: superadmin.userId, targetRole: 'super_admin' });

  if (!canList) return null;

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label={t('superadmins.loading')} />
      </Group>
    );
  } else if (list.isError) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('superadmins.loadFailed')}>
        <Button variant="light" color="red" size="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          {t('superadmins.retry')}
        </Button>
      </Alert>
    );
  } else if (list.data.superadmins.length === 0) {
    body = (
      <Card withBorder padding="lg">
        <Text c="dimmed">{t('superadmins.empty')}</Text>
      </Card>
    );
  } else {
    const props = { superadmins: list.data.superadmins, mayChange, busy: status.isPending, onChange: setConfirming };
    body = wide ? <SuperadminTable {...props} /> : <SuperadminCards {...props} />;
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 280px' }}>
          <Title order={2}>{t('superadmins.title')}</Title>
          <Text c="dimmed">{t('superadmins.intro', { tenant: tenant?.tenantName ?? '' })}</Text>
        </Stack>
        {canRegister && (
          <Button leftSection={<UserPlusIcon size={16} />} onClick={() => setRegistering(true)}>
            {t('superadmins.register.open')}
          </Button>
        )}
      </Group>

      {notice && (
        <Alert
          color={notice.kind === 'done' ? 'green' : 'red'}
          variant="light"
          role={notice.kind === 'done' ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setNotice(null)}
          closeButtonLabel={t('superadmins.close')}
        >
          {notice.kind === 'done' ? notice.text : t(notice.problem.key)}
          {notice.kind === 'problem' && notice.problem.detail && (
            <Text size="xs" mt={4}>
              {notice.problem.detail}
            </Text>
          )}
        </Alert>
      )}

      {body}

      <Modal opened={registering} onClose={() => setRegistering(false)} title={t('superadmins.register.title')} centered>
        {registering && (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t(mailDelivered ? 'superadmins.register.intro' : 'superadmins.register.introOutbox', { tenant: tenant?.tenantName ?? '' })}
            </Text>
            <SuperadminInviteForm
              // -13 (a disabled account) travels with a 403 that must not leave the page.
              send={(invitee) => callApi(registerSuperadmin, { body: invitee }, { failures: 'caller' })}
              onSent={(invited) => {
                setRegistering(false);
                setNotice({ kind: 'done', text: t(mailDelivered ? 'superadmins.register.done' : 'superadmins.register.doneOutbox', { email: invited.email }) });
                void queryClient.invalidateQueries({ queryKey: listKey });
              }}
              onCancel={() => setRegistering(false)}
            />
          </Stack>
        )}
      </Modal>

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? t(`superadmins.confirm.${confirming.status}Title`, { name: superadminName(confirming.superadmin) }) : ''}
        centered
      >
        {confirming && (
          <Stack gap="md">
            <Text size="sm">
              {t(`superadmins.confirm.${confirming.status}Body`, {
                name: superadminName(confirming.superadmin),
                email: confirming.superadmin.email,
                tenant: tenant?.tenantName ?? '',
              })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('superadmins.confirm.keep')}
              </Button>
              <Button color={confirming.status === 'disabled' ? 'red' : undefined} loading={status.isPending} onClick={() => status.mutate(confirming)} data-autofocus>
                {t(`superadmins.confirm.${confirming.status}`)}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

interface RowsProps {
  readonly superadmins: readonly Superadmin[];
  readonly mayChange: (superadmin: Superadmin) => boolean;
  readonly busy: boolean;
  readonly onChange: (change: Change) => void;
}

function StatusBadge({ superadmin }: { readonly superadmin: Superadmin }) {
  const { t } = useTranslation();
  return (
    // Beside a long address on a phone the badge keeps its width; the address wraps instead.
    <Badge variant="light" color={STATUS_COLORS[superadmin.status]} tt="none" data-testid="superadmin-status" style={{ flexShrink: 0 }}>
      {t(`superadmins.status.${superadmin.status}`)}
    </Badge>
  );
}

function NameText({ superadmin }: { readonly superadmin: Superadmin }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
      {superadminName(superadmin)}
      {superadmin.isSelf && (
        <Badge ml={6} size="sm" variant="outline" color="gray" tt="none" component="span">
          {t('superadmins.you')}
        </Badge>
      )}
    </Text>
  );
}

function useDates() {
  const { t, i18n } = useTranslation();
  return {
    invited: (s: Superadmin) => formatDate(s.createdOn, i18n.language),
    lastLogin: (s: Superadmin) => (s.lastLoginOn ? formatDate(s.lastLoginOn, i18n.language) : t('superadmins.never')),
    /** The same as a phrase of a card's line. */
    lastLoginPhrase: (s: Superadmin) => (s.lastLoginOn ? t('superadmins.lastLogin', { date: formatDate(s.lastLoginOn, i18n.language) }) : t('superadmins.neverSignedIn')),
  };
}

/** Disable or enable: a disabled one may be enabled, anyone else disabled. */
function StatusButton({ superadmin, mayChange, busy, onChange }: { readonly superadmin: Superadmin } & Omit<RowsProps, 'superadmins'>) {
  const { t } = useTranslation();
  if (!mayChange(superadmin)) return null;
  const next = superadmin.status === 'disabled' ? 'enabled' : 'disabled';
  const name = superadminName(superadmin);
  return (
    <Button
      size="xs"
      variant={next === 'disabled' ? 'light' : 'filled'}
      color={next === 'disabled' ? 'red' : undefined}
      disabled={busy}
      aria-label={t(`superadmins.actions.${next}Label`, { name })}
      onClick={() => onChange({ superadmin, status: next })}
    >
      {t(`superadmins.actions.${next}`)}
    </Button>
  );
}

function SuperadminTable(props: RowsProps) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('superadmins.tableLabel')} data-testid="superadmins-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('superadmins.columns.name')}</Table.Th>
            <Table.Th>{t('superadmins.columns.email')}</Table.Th>
            <Table.Th>{t('superadmins.columns.status')}</Table.Th>
            <Table.Th>{t('superadmins.columns.invitedOn')}</Table.Th>
            <Table.Th>{t('superadmins.columns.lastLogin')}</Table.Th>
            <Table.Th>
              <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{t('superadmins.columns.actions')}</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.superadmins.map((superadmin) => (
            <Table.Tr key={superadmin.userId} data-testid="superadmin-row" aria-label={superadminName(superadmin)}>
              <Table.Td>
                <NameText superadmin={superadmin} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {superadmin.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge superadmin={superadmin} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{dates.invited(superadmin)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{dates.lastLogin(superadmin)}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <StatusButton superadmin={superadmin} {...props} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SuperadminCards(props: RowsProps) {
  const { t } = useTranslation();
  const dates = useDates();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('superadmins.tableLabel')}>
      {props.superadmins.map((superadmin) => (
        <Card key={superadmin.userId} component="li" withBorder padding="sm" data-testid="superadmin-row" aria-label={superadminName(superadmin)}>
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Stack gap={2} miw={0}>
                <NameText superadmin={superadmin} />
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {superadmin.email}
                </Text>
              </Stack>
              <StatusBadge superadmin={superadmin} />
            </Group>
            <Text size="xs" c="dimmed">
              {t('superadmins.invitedOn', { date: dates.invited(superadmin) })} · {dates.lastLoginPhrase(superadmin)}
            </Text>
            {props.mayChange(superadmin) && (
              <Group justify="flex-end">
                <StatusButton superadmin={superadmin} {...props} />
              </Group>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
