import { Alert, Button, Center, Grid, Loader, Stack, Text } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActivityPanel } from './activity-panel';
import { AttachmentsPanel } from './attachments-panel';
import { DatesPanel } from './dates-panel';
import { DownloadsPanel } from './downloads-panel';
import { manageErrorMessage } from './manage-errors';
import { ManageToolbar } from './manage-toolbar';
import { RecipientTimeline } from './recipient-timeline';
import { buildTimeline } from './timeline';
import { useManageAbilities, useManageData } from './use-manage-data';

/** How often the view looks at the clock again, so a reminder becomes possible when its hour is up. */
const CLOCK_TICK_MS = 30_000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * The owner's management view of a live ePak (issue 21): the recipients' timeline with the
 * actions on each place, the actions on the ePak as a whole, its dates and keeping, its activity
 * with the verification of its hash chain, its attachments and its downloads. One column on a
 * phone; two from the md breakpoint, the timeline and the log on the wider side.
 */
export function EpakManageView({ epak }: { readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const { manage } = useManageAbilities(epak);
  const { management, activity, attachments } = useManageData(epak, { manage });
  const abilities = useManageAbilities(epak, management.data?.archivedOn);
  const now = useNow();
  const [notice, setNotice] = useState<{ readonly message: string; readonly key: number } | null>(null);
  const timeline = useMemo(
    () => buildTimeline({ epak, management: management.data, activity: activity.data?.entries, now }),
    [epak, management.data, activity.data, now],
  );
  const onNotice = (message: string) => setNotice({ message, key: Date.now() });

  if (management.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('epakManage.loading')} />
      </Center>
    );
  }
  if (management.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('epakManage.loadFailed')}>
        <Stack gap="xs">
          <Text size="sm">{manageErrorMessage(t, management.error)}</Text>
          <Button size="xs" variant="light" w="fit-content" onClick={() => void management.refetch()}>
            {t('epakManage.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <Stack gap="md" data-testid="epak-manage">
      {notice && (
        <Alert
          key={notice.key}
          color="teal"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('epakManage.dismiss')}
          onClose={() => setNotice(null)}
          data-testid="manage-notice"
        >
          {notice.message}
        </Alert>
      )}
      <ManageToolbar epak={epak} timeline={timeline} abilities={abilities} onNotice={onNotice} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <RecipientTimeline epak={epak} timeline={timeline} abilities={abilities} onNotice={onNotice} />
            <ActivityPanel activity={activity} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <DatesPanel epak={epak} management={management.data} abilities={abilities} onNotice={onNotice} />
            <AttachmentsPanel ePakId={epak.ePakId} attachments={attachments} abilities={abilities} onNotice={onNotice} />
            <DownloadsPanel epak={epak} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
