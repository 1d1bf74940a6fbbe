import { Alert, Badge, Button, Center, Code, Group, Loader, Stack, Text } from '@mantine/core';
import type { ActivityEntry, EpakActivity } from '@pakt/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { SidePanel } from '../../ui/side-panel';
import { manageErrorMessage } from './manage-errors';

/** Actions the log names that have words of their own; a new kind shows by its name. */
const KNOWN_ACTIONS = [
  'composed', 'started', 'viewed', 'reviewed', 'signed', 'documentSigned', 'rejected', 'stopped', 'expired', 'completed', 'delegated',
  'delegationCancelled', 'reminded', 'signerRemoved', 'attached', 'edited', 'archived', 'deleted', 'linkShown', 'linkResent', 'recipientReplaced',
  'verificationCodeSent', 'signerVerified', 'verificationFailed',
] as const;
type KnownAction = (typeof KNOWN_ACTIONS)[number];
const isKnown = (action: string): action is KnownAction => (KNOWN_ACTIONS as readonly string[]).includes(action);

/** The first entries shown; the rest on request (a long ePak's log runs to hundreds). */
const FIRST_SHOWN = 20;

/**
 * The ePak's activity, newest first, with whether its hash chain verifies: the server recomputes
 * every entry's hash and checks every link at each read (getEpakActivity's chainValid), so a
 * broken chain here means an entry was changed, removed or reordered after it was written.
 */
export function ActivityPanel({ activity }: { readonly activity: UseQueryResult<EpakActivity> }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  if (activity.isPending) {
    return (
      <SidePanel title={t('epakManage.activity.heading')} intro={t('epakManage.activity.intro')} testId="manage-activity">
        <Center py="sm">
          <Loader size="sm" aria-label={t('epakManage.loading')} />
        </Center>
      </SidePanel>
    );
  }
  if (activity.isError) {
    return (
      <SidePanel title={t('epakManage.activity.heading')} intro={t('epakManage.activity.intro')} testId="manage-activity">
        <Alert color="red" variant="light" role="alert" p="xs">
          {manageErrorMessage(t, activity.error)}
        </Alert>
      </SidePanel>
    );
  }
  const { entries, chainValid } = activity.data;
  const newestFirst = [...entries].reverse();
  const shown = all ? newestFirst : newestFirst.slice(0, FIRST_SHOWN);
  return (
    <SidePanel title={t('epakManage.activity.heading')} intro={t('epakManage.activity.intro')} testId="manage-activity">
      <Alert
        color={chainValid ? 'teal' : 'red'}
        variant="light"
        p="xs"
        role={chainValid ? 'status' : 'alert'}
        title={t(chainValid ? 'epakManage.activity.chainValid' : 'epakManage.activity.chainBroken')}
        data-testid="manage-chain-status"
        data-valid={String(chainValid)}
      >
        <Text size="xs">{t(chainValid ? 'epakManage.activity.chainValidHint' : 'epakManage.activity.chainBrokenHint', { count: entries.length })}</Text>
      </Alert>
      <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
        {shown.map((entry) => (
          <ActivityRow key={entry.seq} entry={entry} />
        ))}
      </Stack>
      {!all && newestFirst.length > FIRST_SHOWN && (
        <Button size="xs" variant="subtle" w="fit-content" onClick={() => setAll(true)} data-testid="manage-activity-more">
          {t('epakManage.activity.showAll', { count: newestFirst.length })}
        </Button>
      )}
    </SidePanel>
  );
}

function ActivityRow({ entry }: { readonly entry: ActivityEntry }) {
  const { t, i18n } = useTranslation();
  const action = isKnown(entry.action) ? t(`epakManage.activity.actions.${entry.action}`) : entry.action;
  const who = entry.actor ? entry.actor.name || entry.actor.email : t('epakManage.activity.system');
  const said = entry.details.comment ?? entry.details.reason;
  return (
    <Stack component="li" gap={2} data-testid="manage-activity-entry" data-action={entry.action} pb={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <b>{who}</b> · {action}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.at, i18n.language)}
        </Text>
      </Group>
      {said && (
        <Text size="xs" fs="italic" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {t('epakManage.timeline.comment', { comment: said })}
        </Text>
      )}
      <Group gap={6} wrap="wrap">
        {entry.details.status && (
          <Badge size="xs" variant="light" color="gray" tt="none">
            {t(`compose.status.${entry.details.status}`)}
          </Badge>
        )}
        {entry.ip && (
          <Text size="xs" c="dimmed">
            {t('epakManage.activity.ip', { ip: entry.ip })}
          </Text>
        )}
        {entry.hash && (
          <Code fz={10} title={entry.hash} style={{ overflowWrap: 'anywhere' }}>
            #{entry.seq} {entry.hash.slice(0, 12)}…
          </Code>
        )}
      </Group>
    </Stack>
  );
}
