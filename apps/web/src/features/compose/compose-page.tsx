import {
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RequireRoute } from '../../api/access';
import { useEpak } from './queries';
import { ComposeForm } from './compose-form';
import { DraftView } from './draft-view';

/**
 * /compose (spec sections 2, 5 and 9): documents, a workflow and the details of a new ePak, saved
 * as a draft. /compose?ePakId=… shows a saved draft; placing tags and starting come next.
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
  const ePakId = params.get('ePakId');
  useDocumentTitle(`${t('compose.title')} · Pakt`);
  // Once sent, the page no longer speaks of a draft.
  const shown = useEpak(ePakId).data;
  const sent = shown !== undefined && shown.status !== 'Draft';
  const heading = ePakId ? (sent ? 'compose.sent' : 'compose.draft') : null;
  return (
    <Stack gap="lg">
      <Stack gap={4} maw={720}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t(heading ? `${heading}.title` : 'compose.title')}
        </Title>
        <Text c="dimmed">{t(heading ? `${heading}.intro` : 'compose.intro')}</Text>
      </Stack>
      {ePakId ? <DraftView ePakId={ePakId} /> : <ComposeForm />}
    </Stack>
  );
}
