import { Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RequireRoute } from '../../api/access';
import { inboxStateFromParams, inboxStateToParams } from './inbox-state';
import { InboxView } from './inbox-view';

/**
 * /epaks, the ePaks inbox of the menu (spec §2). The folder, page, order and filters live in the
 * address (?folder=Signed&pg=2…), so back and forward step through them and a link shows the same list.
 */
export function EpaksPage() {
  return (
    <RequireRoute route="epaks">
      <Epaks />
    </RequireRoute>
  );
}

function Epaks() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state = inboxStateFromParams(params);
  useDocumentTitle(`${t('inbox.title')} · Pakt`);
  return (
    <Stack gap="lg">
      <Title order={1}>{t('inbox.title')}</Title>
      <InboxView state={state} onStateChange={(next) => setParams(inboxStateToParams(next))} />
    </Stack>
  );
}
