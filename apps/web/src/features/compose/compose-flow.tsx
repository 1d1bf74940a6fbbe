import { Alert, Button, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session-store';
import { DraftComposeFlow, FIELDS_STEP } from './draft-compose-flow';
import { NewComposeFlow } from './new-compose-flow';
import { composeQueryKeys, useEpak } from './queries';

/** What the page's address carries in its history entry so the flow that made a draft keeps going. */
export interface ComposeLocationState {
  readonly composeFlow?: string;
}

/**
 * /compose in one flow: a new ePak's first steps, then, once the draft exists, the same flow on
 * the draft. Creating the draft replaces the address with /compose?ePakId=… (a reload or a link
 * comes back to it) while this flow, and its step, stay: the replaced entry carries `flowKey`,
 * which keys this component on the page, so only another address starts a new flow.
 */
export function ComposeFlow({ flowKey, ePakId }: { readonly flowKey: string; readonly ePakId: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const queryClient = useQueryClient();
  const [createdId, setCreatedId] = useState<string | null>(null);
  const epak = useEpak(ePakId);

  if (ePakId === null) {
    return (
      <NewComposeFlow
        onCreated={(saved) => {
          const key = composeQueryKeys.epak(session?.tenantUuid, saved.ePakId);
          queryClient.setQueryData(key, saved);
          // The answer to create leaves out what the caller may do with it (viewer); fetched after.
          void queryClient.invalidateQueries({ queryKey: key, exact: true });
          setCreatedId(saved.ePakId);
          const state: ComposeLocationState = { composeFlow: flowKey };
          void navigate({ pathname: '/compose', search: `?ePakId=${saved.ePakId}` }, { replace: true, state });
        }}
      />
    );
  }
  if (epak.isPending) return <Loader size="sm" aria-label={t('compose.draft.loading')} />;
  if (epak.isError) {
    const missing = epak.error instanceof ApiError && (epak.error.httpStatus === 404 || epak.error.httpStatus === 400);
    return (
      <Alert color="red" variant="light" role="alert" title={t(missing ? 'compose.draft.notFound' : 'compose.draft.loadFailed')}>
        {!missing && (
          <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void epak.refetch()} loading={epak.isFetching}>
            {t('workflows.retry')}
          </Button>
        )}
      </Alert>
    );
  }
  return <DraftComposeFlow epak={epak.data} initialStep={createdId === ePakId ? FIELDS_STEP : undefined} />;
}
