import { Button, Group } from '@mantine/core';
import { remindRecipient, type EpakDetail } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMailDelivered } from '../../api/public-queries';
import { useSigningApi } from '../../api/signing-api';
import { DelegateDialog } from './delegate-dialog';
import { EditDialog } from './edit-dialog';
import type { ManageAbilities } from './manage-abilities';
import { manageErrorMessage } from './manage-errors';
import type { Notice } from './recipient-timeline';
import { StopDialog } from './stop-dialog';
import type { Timeline } from './timeline';
import { useRefreshEpak } from './use-manage-data';

/**
 * The actions on the ePak as a whole: remind everyone it waits for, edit, stop, and hand on the
 * owner's own place. Each button is there only when the policies allow it in this state.
 */
export function ManageToolbar({ epak, timeline, abilities, onNotice }: { readonly epak: EpakDetail; readonly timeline: Timeline; readonly abilities: ManageAbilities; readonly onNotice: Notice }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const refresh = useRefreshEpak(epak.ePakId);
  const [editing, setEditing] = useState<EpakDetail | null>(null);
  const [stopping, setStopping] = useState(false);
  const [delegating, setDelegating] = useState(false);
  const waiting = timeline.steps.flatMap((step) => step.recipients.filter((recipient) => recipient.waiting));
  // Without a mail server reminders only reach the outbox: the notice says so.
  const mailDelivered = useMailDelivered();

  // One call per person, one after another: each is its own reminder with its own hourly limit,
  // and a refusal for one (reminded a minute ago) must not keep the others from theirs.
  const remindAll = useMutation({
    mutationFn: async () => {
      const done: string[] = [];
      const refused: string[] = [];
      for (const recipient of timeline.remindable) {
        const order = timeline.steps.find((step) => step.recipients.includes(recipient))!.order;
        try {
          await callApi(remindRecipient, { params: { ePakId: epak.ePakId, userId: recipient.userId, state: recipient.status, wfOrderId: order } }, { failures: 'caller' });
          done.push(recipient.name);
        } catch (error) {
          refused.push(`${recipient.name}: ${manageErrorMessage(t, error)}`);
        }
      }
      return { done, refused };
    },
    onSettled: () => void refresh(),
    onSuccess: ({ done, refused }) => {
      const parts = [done.length > 0 ? t(mailDelivered ? 'epakManage.notices.remindedAll' : 'epakManage.notices.remindedAllOutbox', { names: done.join(', '), count: done.length }) : '', ...refused].filter(Boolean);
      onNotice(parts.join(' '));
    },
  });

  const anything = (abilities.remind && waiting.length > 0) || abilities.edit || abilities.stop || abilities.delegateOwnPlace;
  if (!anything) return null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="manage-toolbar">
      {abilities.remind && waiting.length > 0 && (
        <Button
          variant="light"
          onClick={() => remindAll.mutate()}
          loading={remindAll.isPending}
          disabled={timeline.remindable.length === 0}
          title={timeline.remindable.length === 0 ? t('epakManage.toolbar.allRemindedRecently') : undefined}
          data-testid="manage-remind-all"
        >
          {t('epakManage.toolbar.remindAll', { count: timeline.remindable.length })}
        </Button>
      )}
      {abilities.edit && (
        <Button variant="default" onClick={() => setEditing(epak)} data-testid="manage-edit">
          {t('epakManage.toolbar.edit')}
        </Button>
      )}
      {abilities.delegateOwnPlace && (
        <Button variant="default" onClick={() => setDelegating(true)} data-testid="manage-delegate">
          {t('epakManage.toolbar.delegate')}
        </Button>
      )}
      {abilities.stop && (
        <Button variant="outline" color="red" onClick={() => setStopping(true)} data-testid="manage-stop">
          {t('epakManage.toolbar.stop')}
        </Button>
      )}
      <EditDialog
        base={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          onNotice(t('epakManage.notices.edited'));
        }}
      />
      <StopDialog
        ePakId={epak.ePakId}
        opened={stopping}
        onClose={() => setStopping(false)}
        onStopped={() => {
          setStopping(false);
          onNotice(t('epakManage.notices.stopped'));
        }}
      />
      <DelegateDialog
        ePakId={epak.ePakId}
        verification={epak.viewer?.verification}
        opened={delegating}
        onClose={() => setDelegating(false)}
        onDone={(email) => {
          setDelegating(false);
          onNotice(t('epakManage.notices.delegated', { email }));
        }}
      />
    </Group>
  );
}
