import { Alert, Badge, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { ARCHIVAL_PERIOD_DAYS, archiveEpak, updateEpakArchivalPeriod, updateEpakNotificationDate, type EpakDetail, type EpakManagement } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { useSigningApi } from '../../api/signing-api';
import { SidePanel } from '../../ui/side-panel';
import { ConfirmDialog } from './confirm-dialog';
import { isoFromLocalInput, toLocalInput } from './local-time';
import type { ManageAbilities } from './manage-abilities';
import { manageErrorMessage } from './manage-errors';
import type { Notice } from './recipient-timeline';
import { useEpakAction } from './use-manage-data';

/**
 * The ePak's dates and its keeping: when notifications start, how long it is kept after it ends
 * before archival, and archiving it now once it has ended (confirmed: nothing more can be done
 * with an archived ePak). The expiry is changed with the rest of the ePak in the edit dialog.
 */
export function DatesPanel({ epak, management, abilities, onNotice }: { readonly epak: EpakDetail; readonly management: EpakManagement | undefined; readonly abilities: ManageAbilities; readonly onNotice: Notice }) {
  const { t, i18n } = useTranslation();
  const { callApi } = useSigningApi();
  const ePakId = epak.ePakId;
  const [notification, setNotification] = useState(toLocalInput(epak.notificationStartDate));
  const [days, setDays] = useState<string | number>(management?.archivalPeriodDays ?? '');
  const [archiving, setArchiving] = useState(false);
  // The inputs follow what is stored when it changes (a save, a refetch). The panel is not
  // remounted for that: a remount closed the archive dialog opened meanwhile.
  const stored = `${management?.archivalPeriodDays ?? ''}|${epak.notificationStartDate ?? ''}`;
  const [shown, setShown] = useState(stored);
  if (shown !== stored) {
    setShown(stored);
    setDays(management?.archivalPeriodDays ?? '');
    setNotification(toLocalInput(epak.notificationStartDate));
  }
  const [problem, setProblem] = useState<string | null>(null);

  const notify = useEpakAction(ePakId, (date: string | null) => callApi(updateEpakNotificationDate, { body: { ePakId, notificationStartDate: date } }, { failures: 'caller' }), {
    onSuccess: (answer) => {
      setNotification(toLocalInput(answer.notificationStartDate));
      onNotice(t('epakManage.notices.notificationDate'));
    },
  });
  const keep = useEpakAction(ePakId, (value: number) => callApi(updateEpakArchivalPeriod, { params: { ePakId }, body: { archivalPeriodDays: value } }, { failures: 'caller' }), {
    onSuccess: (answer) => onNotice(t('epakManage.notices.archivalPeriod', { count: answer.archivalPeriodDays })),
  });
  const archive = useEpakAction(ePakId, () => callApi(archiveEpak, { params: { epakId: ePakId } }, { failures: 'caller' }), {
    onSuccess: () => {
      setArchiving(false);
      onNotice(t('epakManage.notices.archived'));
    },
  });

  const saveNotification = (value: string) => {
    setProblem(null);
    const date = isoFromLocalInput(value);
    if (date === undefined) return setProblem(t('epakManage.edit.dateInvalid'));
    notify.mutate(date);
  };
  const saveDays = () => {
    setProblem(null);
    const value = typeof days === 'number' ? days : Number.parseInt(days, 10);
    if (!Number.isInteger(value) || value < ARCHIVAL_PERIOD_DAYS.min || value > ARCHIVAL_PERIOD_DAYS.max) {
      return setProblem(t('epakManage.dates.archivalInvalid', ARCHIVAL_PERIOD_DAYS));
    }
    keep.mutate(value);
  };
  const failure = [notify, keep].find((action) => action.isError)?.error;
  const none = t('epakManage.dates.none');

  return (
    <SidePanel title={t('epakManage.dates.heading')} intro={t('epakManage.dates.intro')} testId="manage-dates">
      {management?.archivedOn && (
        <Badge color="gray" variant="light" tt="none" data-testid="manage-archived">
          {t('epakManage.dates.archivedOn', { date: formatDateTime(management.archivedOn, i18n.language) })}
        </Badge>
      )}
      <Text size="sm">
        {t('epakManage.dates.expiresOn')}: <b>{epak.expiresOn ? formatDateTime(epak.expiresOn, i18n.language) : none}</b>
      </Text>
      {abilities.notificationDate ? (
        <Stack gap={6}>
          <TextInput
            type="datetime-local"
            label={t('epakManage.dates.notificationStart')}
            description={t('epakManage.dates.notificationHint')}
            value={notification}
            onChange={(event) => setNotification(event.currentTarget.value)}
            data-testid="manage-notification-input"
          />
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => saveNotification(notification)} loading={notify.isPending && notify.variables !== null} data-testid="manage-notification-save">
              {t('epakManage.dates.save')}
            </Button>
            {epak.notificationStartDate && (
              <Button size="xs" variant="subtle" onClick={() => saveNotification('')} loading={notify.isPending && notify.variables === null} data-testid="manage-notification-clear">
                {t('epakManage.dates.clear')}
              </Button>
            )}
          </Group>
        </Stack>
      ) : (
        <Text size="sm">
          {t('epakManage.dates.notificationStart')}: <b>{epak.notificationStartDate ? formatDateTime(epak.notificationStartDate, i18n.language) : none}</b>
        </Text>
      )}
      {abilities.archivalPeriod && (
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NumberInput
            label={t('epakManage.dates.archivalPeriod')}
            description={management?.archivalPeriodDays ? undefined : t('epakManage.dates.archivalDefault')}
            min={ARCHIVAL_PERIOD_DAYS.min}
            max={ARCHIVAL_PERIOD_DAYS.max}
            allowDecimal={false}
            value={days}
            onChange={setDays}
            w={180}
            data-testid="manage-archival-input"
          />
          <Button size="xs" variant="light" onClick={saveDays} loading={keep.isPending} mb={4} data-testid="manage-archival-save">
            {t('epakManage.dates.save')}
          </Button>
        </Group>
      )}
      {(problem || failure) && (
        <Alert color="red" variant="light" role="alert" p="xs" data-testid="manage-dates-error">
          {problem ?? manageErrorMessage(t, failure)}
        </Alert>
      )}
      {abilities.archive && (
        <Button variant="outline" color="gray" onClick={() => { archive.reset(); setArchiving(true); }} w="fit-content" data-testid="manage-archive">
          {t('epakManage.actions.archive')}
        </Button>
      )}
      <ConfirmDialog
        opened={archiving}
        title={t('epakManage.confirm.archive.title')}
        confirmLabel={t('epakManage.confirm.archive.confirm')}
        danger
        pending={archive.isPending}
        error={archive.isError ? manageErrorMessage(t, archive.error) : null}
        testId="manage-archive-dialog"
        onCancel={() => setArchiving(false)}
        onConfirm={() => archive.mutate(undefined)}
      >
        {t('epakManage.confirm.archive.body')}
      </ConfirmDialog>
    </SidePanel>
  );
}
