import { Alert, Button, Center, Grid, Loader, Stack, Text } from '@mantine/core';
import { getEpak, type EpakDetail, type EpakRecipient } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { EpakManageTabs } from '../epak-manage';
import type { Outcome } from './action-panel';
import { CeremonyAnnouncer } from './ceremony-announcer';
import { CeremonyDialogs } from './ceremony-dialogs';
import { CeremonyDocument } from './ceremony-document';
import { CeremonySide } from './ceremony-side';
import { EpakDownloadButton } from './epak-download';
import { EpakHeading } from './epak-summary';
import { GuidedBar } from './guided-bar';
import { pendingInPersonSigners } from './in-person-panel';
import { OutcomeAlert, WhyNotAlert } from './outcome-alert';
import { signingQueryKeys } from '../../api/signing-query-keys';
import { actionErrorMessage, whyCannotAct } from './sign-errors';
import { useSigningApi } from '../../api/signing-api';
import { useCeremony, type CeremonyPerson } from './use-ceremony';

/**
 * The signing ceremony (issue 5): a recipient of a started ePak reads its documents, fills their
 * own fields, and signs, marks it reviewed or rejects it. The same screen serves /sign (a
 * signed-in recipient) and /emailsign (a signing link); the page provides the session.
 */
export interface SigningCeremonyProps {
  readonly ePakId: string;
  readonly person: CeremonyPerson;
  /** Offered to the owner while an in-person step waits: the host calls that signer up (in-person.tsx). */
  readonly onSignInPerson?: (recipient: EpakRecipient) => void;
  /** Told once the person's action is done and where everyone stands has been fetched again. */
  readonly onSettled?: (outcome: Outcome) => void;
  /** The Download button (GET …/download); off for a signer's turn on someone else's device. */
  readonly withDownload?: boolean;
  /**
   * The management tab for whoever the policies let manage the ePak (issue 21): only where the
   * app's own session is the one acting (/sign), never on a signer's in-person turn.
   */
  readonly withManage?: boolean;
}

export function SigningCeremony({ ePakId, person, onSignInPerson, onSettled, withDownload = true, withManage = false }: SigningCeremonyProps) {
  const { t } = useTranslation();
  const { callApi, scope } = useSigningApi();
  const epak = useQuery({
    queryKey: signingQueryKeys.epak(scope, ePakId),
    queryFn: ({ signal }) => callApi(getEpak, { params: { ePakId } }, { signal, failures: 'caller' }),
  });
  if (epak.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('signing.loading')} />
      </Center>
    );
  }
  if (epak.isError) {
    const missing = epak.error instanceof ApiError && epak.error.httpStatus === 404;
    return (
      <Alert color={missing ? 'gray' : 'red'} variant="light" role="alert" title={t(missing ? 'signing.notFound.title' : 'signing.loadFailed')}>
        <Stack gap="xs">
          <Text size="sm">{missing ? t('signing.notFound.body') : actionErrorMessage(t, epak.error)}</Text>
          {!missing && (
            <Button size="xs" variant="light" w="fit-content" onClick={() => void epak.refetch()}>
              {t('signing.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }
  return <Ceremony epak={epak.data} person={person} onSignInPerson={onSignInPerson} onSettled={onSettled} withDownload={withDownload} withManage={withManage} />;
}

interface CeremonyProps {
  readonly epak: EpakDetail;
  readonly person: CeremonyPerson;
  readonly onSignInPerson: ((recipient: EpakRecipient) => void) | undefined;
  readonly onSettled: ((outcome: Outcome) => void) | undefined;
  readonly withDownload: boolean;
  readonly withManage: boolean;
}

/** The ceremony laid out: its state lives in useCeremony, each section renders a part of it. */
function Ceremony({ epak, person, onSignInPerson, onSettled, withDownload, withManage }: CeremonyProps) {
  const { t } = useTranslation();
  const ceremony = useCeremony({ epak, person, onSettled });
  const { viewer, outcome, canAct, view, phone } = ceremony;
  const current = view.current;
  if (!current) return <Text c="dimmed">{t('signing.noDocuments')}</Text>;
  const inPersonWaiting = onSignInPerson ? pendingInPersonSigners(epak) : [];
  const why = canAct ? null : inPersonWaiting.length > 0 ? 'hostInPerson' : whyCannotAct(epak, viewer);
  const signingStep = viewer.stepType === 'SIGN' || viewer.stepType === 'INPERSONSIGN';

  const documents = (
    <Stack gap="lg">
      {outcome && <OutcomeAlert outcome={outcome} epak={epak} />}
      {!outcome && why && <WhyNotAlert why={why} />}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <CeremonyDocument ceremony={ceremony} current={current} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <CeremonySide ceremony={ceremony} onSignInPerson={onSignInPerson} />
        </Grid.Col>
      </Grid>
      <CeremonyDialogs ceremony={ceremony} />
      <CeremonyAnnouncer announcer={ceremony.announcer} />
      {phone && canAct && signingStep && <GuidedBar ceremony={ceremony} />}
    </Stack>
  );
  return (
    <Stack gap="lg">
      <EpakHeading epak={epak} actions={withDownload ? <EpakDownloadButton epak={epak} /> : null} />
      {/* The owner's management tab beside the documents (epak-manage; shown only to whom the policies allow). */}
      {withManage ? <EpakManageTabs epak={epak}>{documents}</EpakManageTabs> : documents}
    </Stack>
  );
}
