import { Alert, Badge, Group, Stack, Text, Timeline } from '@mantine/core';
import { cancelDelegation, displayName, remindRecipient, removeEpakRecipient, resendSigningLink, type EpakDetail } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { useMailDelivered } from '../../api/public-queries';
import { useSigningApi } from '../../api/signing-api';
import { SidePanel } from '../../ui/side-panel';
import { ConfirmDialog } from './confirm-dialog';
import { LinkDialog } from './link-dialog';
import type { ManageAbilities } from './manage-abilities';
import { manageErrorMessage } from './manage-errors';
import { RecipientRow } from './recipient-row';
import { ReplaceDialog, type ReplaceTarget } from './replace-dialog';
import type { Timeline as TimelineModel, TimelineRecipient, TimelineStep } from './timeline';
import { useEpakAction } from './use-manage-data';
import { stepLabel } from '../../ui/step-label';

export type Notice = (message: string) => void;

type Asking = { readonly kind: 'resend' | 'remove' | 'recall'; readonly recipient: TimelineRecipient; readonly step: TimelineStep } | null;

/**
 * Every step and everyone in it, with where they stand, since when and what they said, and the
 * owner's actions on each place: remind, copy or resend a signing link, take a delegation back,
 * give the place to someone else, remove. What mails someone or takes a place away is confirmed first.
 */
export function RecipientTimeline({ epak, timeline, abilities, onNotice }: { readonly epak: EpakDetail; readonly timeline: TimelineModel; readonly abilities: ManageAbilities; readonly onNotice: Notice }) {
  const { t, i18n } = useTranslation();
  const { callApi } = useSigningApi();
  // Without a mail server reminders and links only reach the outbox: the notices say so.
  const mailDelivered = useMailDelivered();
  const ePakId = epak.ePakId;
  const [linkFor, setLinkFor] = useState<TimelineRecipient | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [replacing, setReplacing] = useState<ReplaceTarget | null>(null);
  const [remindError, setRemindError] = useState<{ recipientId: string; message: string } | null>(null);

  const stepOf = (recipient: TimelineRecipient) => timeline.steps.find((step) => step.recipients.some((r) => r.recipientId === recipient.recipientId))!;
  const remind = useEpakAction(
    ePakId,
    (recipient: TimelineRecipient) =>
      callApi(remindRecipient, { params: { ePakId, userId: recipient.userId, state: recipient.status, wfOrderId: stepOf(recipient).order } }, { failures: 'caller' }),
    { onSuccess: (_answer, recipient) => onNotice(t(mailDelivered ? 'epakManage.notices.reminded' : 'epakManage.notices.remindedOutbox', { name: recipient.name })) },
  );
  const confirmed = useEpakAction(
    ePakId,
    async (what: NonNullable<Asking>) => {
      const { recipient, step } = what;
      if (what.kind === 'resend') return callApi(resendSigningLink, { params: { ePakId, recipientId: recipient.recipientId } }, { failures: 'caller' });
      if (what.kind === 'remove') return callApi(removeEpakRecipient, { params: { ePakId }, body: { recipientId: recipient.recipientId } }, { failures: 'caller' });
      return callApi(cancelDelegation, { params: { ePakId, userEmail: recipient.email, workflowStateId: step.workflowStateId } }, { failures: 'caller' });
    },
    {
      onSuccess: (_answer, what) => {
        setAsking(null);
        onNotice(what.kind === 'resend' && !mailDelivered ? t('epakManage.notices.resendOutbox', { name: what.recipient.name }) : t(`epakManage.notices.${what.kind}`, { name: what.recipient.name }));
      },
    },
  );
  const ask = (kind: NonNullable<Asking>['kind']) => (recipient: TimelineRecipient) => {
    confirmed.reset();
    setAsking({ kind, recipient, step: stepOf(recipient) });
  };
  const actions = {
    onRemind: (recipient: TimelineRecipient) => {
      setRemindError(null);
      remind.mutate(recipient, { onError: (error) => setRemindError({ recipientId: recipient.recipientId, message: manageErrorMessage(t, error) }) });
    },
    onLink: setLinkFor,
    onResend: ask('resend'),
    onRemove: ask('remove'),
    // The ePak as it is now goes with the question: the change is made against this version (-306).
    onReplace: (recipient: TimelineRecipient) => setReplacing({ recipient, step: stepOf(recipient), base: epak }),
    onRecall: ask('recall'),
    reminding: remind.isPending ? (remind.variables?.recipientId ?? null) : null,
    remindError,
  };
  // Mantine's timeline fills the line up to the last step reached.
  const active = timeline.steps.filter((step) => step.state !== 'upcoming').length - 1;
  const { ending } = timeline;

  return (
    <SidePanel title={t('epakManage.timeline.heading')} intro={t('epakManage.timeline.intro')} testId="manage-timeline">
      {ending && (
        <Alert color={ending.status === 'Completed' ? 'teal' : 'orange'} variant="light" p="xs" data-testid="manage-ending">
          <Text size="sm">
            {t(`epakManage.ending.${ending.status}`, { name: ending.by ?? t('epakManage.ending.someone'), date: ending.at ? formatDateTime(ending.at, i18n.language) : '' })}
          </Text>
          {ending.comment && (
            <Text size="sm" fs="italic" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="manage-ending-comment">
              {t('epakManage.timeline.comment', { comment: ending.comment })}
            </Text>
          )}
        </Alert>
      )}
      <Timeline active={active} bulletSize={22} lineWidth={2}>
        {timeline.steps.map((step) => (
          <Timeline.Item
            key={step.order}
            bullet={<Text size="xs" fw={700}>{step.order}</Text>}
            title={
              <Group gap="xs" justify="space-between" wrap="wrap">
                <Text size="sm" fw={700} style={{ overflowWrap: 'anywhere' }}>
                  {stepLabel(t, step)}
                </Text>
                <Badge size="xs" variant={step.state === 'current' ? 'filled' : 'light'} color={step.state === 'done' ? 'teal' : step.state === 'current' ? 'blue' : 'gray'} tt="none">
                  {t(`epakManage.timeline.state.${step.state}`)} · {t(`workflowStateTypes.${step.type}`)}
                </Badge>
              </Group>
            }
            data-testid="manage-step"
            data-step-state={step.state}
          >
            <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
              {step.recipients.map((recipient) => (
                <RecipientRow key={recipient.recipientId} recipient={recipient} abilities={abilities} actions={actions} />
              ))}
            </Stack>
          </Timeline.Item>
        ))}
      </Timeline>
      <LinkDialog ePakId={ePakId} recipient={linkFor} onClose={() => setLinkFor(null)} />
      <ReplaceDialog
        target={replacing}
        onClose={() => setReplacing(null)}
        onDone={(answer, target) => {
          setReplacing(null);
          onNotice(t('epakManage.notices.replaced', { name: target.recipient.name, newName: displayName(answer.recipient) }));
        }}
      />
      <ConfirmDialog
        opened={asking !== null}
        title={asking ? t(`epakManage.confirm.${asking.kind}.title`, { name: asking.recipient.name }) : ''}
        confirmLabel={asking ? t(`epakManage.confirm.${asking.kind}.confirm`) : ''}
        danger={asking?.kind === 'remove'}
        pending={confirmed.isPending}
        error={confirmed.isError ? manageErrorMessage(t, confirmed.error) : null}
        testId={asking ? `manage-${asking.kind}-dialog` : 'manage-confirm-dialog'}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && confirmed.mutate(asking)}
      >
        {asking
          ? asking.kind === 'resend' && !mailDelivered
            ? t('epakManage.confirm.resend.bodyOutbox', { email: asking.recipient.email })
            : t(`epakManage.confirm.${asking.kind}.body`, { name: asking.recipient.name, email: asking.recipient.email, delegate: asking.recipient.delegatedTo?.name ?? '' })
          : ''}
      </ConfirmDialog>
    </SidePanel>
  );
}
