import { Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { RequireRoute } from '../../api/access';
import { useMailDelivered } from '../../api/public-queries';
import { ComposeFlow, type ComposeLocationState } from './compose-flow';
import { SentEpakView } from './draft-view';
import { useEpak } from './queries';

/**
 * /compose (spec sections 2, 4, 5 and 9): an ePak composed in one flow of four steps (documents,
 * recipients and steps, fields, review and send), saved as a draft as it goes.
 * /compose?ePakId=… resumes a draft, or shows an ePak once sent.
 */
export function ComposePage() {
  return (
    <RequireRoute route="compose">
      <Compose />
    </RequireRoute>
  );
}

function Compose() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const ePakId = params.get('ePakId');
  useDocumentTitle(`${t('compose.title')} · Pakt`);
  // Once sent, the page no longer speaks of a draft.
  const shown = useEpak(ePakId).data;
  const sent = ePakId !== null && shown !== undefined && shown.status !== 'Draft';
  const heading = ePakId ? (sent ? 'compose.sent' : 'compose.draft') : null;
  // Without a mail server the recipients are not mailed: the sent page says how they learn of it.
  const mailDelivered = useMailDelivered();
  // The flow that created the draft goes on when the address is replaced with the draft's;
  // any other arrival here (the menu, a link, another draft) starts a flow of its own.
  const flowKey = (location.state as ComposeLocationState | null)?.composeFlow ?? location.key;
  return (
    <Stack gap="lg">
      <Stack gap={4} maw={720}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t(heading ? `${heading}.title` : 'compose.title')}
        </Title>
        <Text c="dimmed">{t(heading === 'compose.sent' && !mailDelivered ? 'compose.sent.introOutbox' : heading ? `${heading}.intro` : 'compose.intro')}</Text>
      </Stack>
      {sent ? <SentEpakView epak={shown} /> : <ComposeFlow key={flowKey} flowKey={flowKey} ePakId={ePakId} />}
    </Stack>
  );
}
