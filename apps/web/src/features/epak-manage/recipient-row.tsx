import { Badge, Box, Button, Group, Stack, Text, type MantineColor } from '@mantine/core';
import type { SignerStatus } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import type { ManageAbilities } from './manage-abilities';
import type { TimelineRecipient } from './timeline';

const STATUS_COLOURS: Readonly<Record<SignerStatus, MantineColor>> = {
  Signed: 'teal',
  Reviewed: 'teal',
  Emailed: 'blue',
  Pending: 'yellow',
  DelegatePending: 'yellow',
  Delegated: 'grape',
  Rejected: 'red',
  NotRequired: 'gray',
  Skipped: 'gray',
};

export interface RecipientActions {
  readonly onRemind: (recipient: TimelineRecipient) => void;
  readonly onLink: (recipient: TimelineRecipient) => void;
  readonly onResend: (recipient: TimelineRecipient) => void;
  readonly onRemove: (recipient: TimelineRecipient) => void;
  readonly onReplace: (recipient: TimelineRecipient) => void;
  readonly onRecall: (recipient: TimelineRecipient) => void;
  /** The recipient whose reminder is on its way, and the last reminder's refusal, by recipient. */
  readonly reminding: string | null;
  readonly remindError: { readonly recipientId: string; readonly message: string } | null;
}

/**
 * One recipient in the timeline: who, where they stand and since when, what they said, and the
 * owner's actions on their place, each offered only when the policies and the place allow it.
 */
export function RecipientRow({ recipient, abilities, actions }: { readonly recipient: TimelineRecipient; readonly abilities: ManageAbilities; readonly actions: RecipientActions }) {
  const { t, i18n } = useTranslation();
  const when = (value: string) => formatDateTime(value, i18n.language);
  const facts: string[] = [];
  if (recipient.actedOn) facts.push(t('epakManage.timeline.actedOn', { date: when(recipient.actedOn) }));
  if (recipient.delegatedTo) facts.push(t('epakManage.timeline.delegatedTo', { name: recipient.delegatedTo.name }));
  if (recipient.delegatedFrom) facts.push(t('epakManage.timeline.delegatedFrom', { name: recipient.delegatedFrom.name }));
  if (recipient.lastRemindedOn) facts.push(t('epakManage.timeline.remindedOn', { date: when(recipient.lastRemindedOn) }));
  const showRemind = abilities.remind && recipient.waiting;
  const showLinks = abilities.links && recipient.linkable;
  const showRecall = abilities.recallDelegation && recipient.delegationOpen;
  const showRemove = abilities.removeRecipient && recipient.removable;
  // Whoever may be taken out may also be swapped for someone else: the same place, not acted on.
  const showReplace = abilities.replaceRecipient && recipient.removable;
  const refusal = actions.remindError?.recipientId === recipient.recipientId ? actions.remindError.message : null;
  return (
    <Box component="li" data-testid="manage-recipient" data-recipient-id={recipient.recipientId} data-status={recipient.status} py={6}>
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {recipient.name}
            </Text>
            {recipient.name !== recipient.email && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {recipient.email}
              </Text>
            )}
          </Stack>
          <Badge size="sm" variant="light" color={STATUS_COLOURS[recipient.status]} tt="none" style={{ flexShrink: 0 }} data-testid="manage-recipient-status">
            {t(`compose.recipientStatus.${recipient.status}`)}
          </Badge>
        </Group>
        {facts.length > 0 && (
          <Text size="xs" c="dimmed">
            {facts.join(' · ')}
          </Text>
        )}
        {recipient.comment && (
          <Text size="sm" fs="italic" pl="xs" style={{ borderInlineStart: '3px solid var(--mantine-color-gray-4)', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="manage-recipient-comment">
            {t('epakManage.timeline.comment', { comment: recipient.comment })}
          </Text>
        )}
        {(showRemind || showLinks || showRecall || showReplace || showRemove) && (
          <Group gap={6} wrap="wrap">
            {showRemind && (
              <Button
                size="compact-sm"
                variant="light"
                disabled={!recipient.remindable}
                loading={actions.reminding === recipient.recipientId}
                onClick={() => actions.onRemind(recipient)}
                data-testid="manage-remind"
              >
                {t('epakManage.actions.remind')}
              </Button>
            )}
            {showLinks && (
              <Button size="compact-sm" variant="default" onClick={() => actions.onLink(recipient)} data-testid="manage-link">
                {t('epakManage.actions.copyLink')}
              </Button>
            )}
            {showLinks && (
              <Button size="compact-sm" variant="default" onClick={() => actions.onResend(recipient)} disabled={recipient.nextReminderOn !== null} data-testid="manage-resend-link">
                {t('epakManage.actions.resendLink')}
              </Button>
            )}
            {showRecall && (
              <Button size="compact-sm" variant="default" color="grape" onClick={() => actions.onRecall(recipient)} data-testid="manage-recall-delegation">
                {t('epakManage.actions.recallDelegation')}
              </Button>
            )}
            {showReplace && (
              <Button size="compact-sm" variant="default" onClick={() => actions.onReplace(recipient)} data-testid="manage-replace-recipient">
                {t('epakManage.actions.replaceRecipient')}
              </Button>
            )}
            {showRemove && (
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => actions.onRemove(recipient)} data-testid="manage-remove-recipient">
                {t('epakManage.actions.removeRecipient')}
              </Button>
            )}
          </Group>
        )}
        {showRemind && recipient.nextReminderOn && (
          <Text size="xs" c="dimmed" data-testid="manage-remind-wait">
            {t('epakManage.timeline.nextReminder', { date: when(recipient.nextReminderOn) })}
          </Text>
        )}
        {refusal && (
          <Text size="xs" c="red.8" role="alert" data-testid="manage-remind-error">
            {refusal}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
