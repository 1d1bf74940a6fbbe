import { Alert, Center, CloseButton, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { markEpakRead, type EpakSummary } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { callApi } from '../../api/client';
import { useCurrentTenant, useCurrentUser } from '../../api/session-store';
import { formatDate } from '../../ui/dates';
import { SearchIcon, inboxQueryKeys, useInboxPage, DEFAULT_INBOX_STATE, ownerName, type InboxSearch, type InboxState, InboxView } from '../inbox';
import { RequireRoute } from '../../api/access';
import { dashboardRequest, searchInputOf } from './dashboard-params';
import { DEFAULT_CHART_SELECTION, StatisticsCharts, StatisticsTiles, type ChartSelection } from './statistics';

/**
 * /dashboard (spec §2): a greeting, the caller's numbers, their inbox and the statistics charts.
 * Its query parameters: searchKey + searchVal (+ ts) show the inbox searched, as a removable chip;
 * ePakId opens that ePak (what a notification's "open the dashboard on that ePak" leads to).
 */
export function DashboardPage() {
  return (
    <RequireRoute route="dashboard">
      <Dashboard />
    </RequireRoute>
  );
}

/** What the global search bar may hand over with the address: the name behind a user id. */
export interface DashboardLocationState {
  readonly searchLabel?: string;
}

function Dashboard() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const request = dashboardRequest(params);
  useDocumentTitle(`${t('menu.dashboard')} · Pakt`);

  if (request.open) return <OpenEpak ePakId={request.open} />;

  return (
    <Stack gap="xl">
      <Greeting />
      {request.invalid && (
        <Alert color="yellow" variant="light" role="alert" data-testid="dashboard-invalid">
          {t(request.invalid === 'ePak' ? 'inbox.dashboard.badEpak' : 'inbox.dashboard.badSearch')}
        </Alert>
      )}
      <StatisticsTiles />
      <Stack gap="md" component="section" aria-labelledby="dashboard-inbox-heading">
        <Title order={2} size="h3" id="dashboard-inbox-heading">
          {request.search ? t('inbox.dashboard.searchHeading') : t('inbox.dashboard.inboxHeading')}
        </Title>
        {/* A new search (or the same one run again: a new ts) starts from the first page of the Inbox. */}
        <DashboardInbox key={`${request.search?.searchKey ?? ''}|${request.search?.searchVal ?? ''}|${request.ts ?? ''}`} search={request.search} ts={request.ts} />
      </Stack>
      <DashboardCharts />
    </Stack>
  );
}

/** Who is signed in, and in which organisation and role they act right now. */
function Greeting() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tenant = useCurrentTenant();
  if (!user) return null;
  return (
    <Stack gap={4}>
      <Title order={1} fz={{ base: 28, sm: 34 }}>
        {t('home.welcome', { name: user.firstName })}
      </Title>
      {tenant && (
        <Text c="dimmed" size="sm">
          <span data-testid="current-tenant">{tenant.tenantName}</span>
          {' · '}
          <span data-testid="current-role">{t(`roles.${tenant.userRole}`)}</span>
        </Text>
      )}
    </Stack>
  );
}

function DashboardInbox({ search, ts }: { readonly search: InboxSearch | null; readonly ts: string | null }) {
  const [state, setState] = useState<InboxState>(DEFAULT_INBOX_STATE);
  return <InboxView state={state} onStateChange={setState} search={search} ts={ts} headingOrder={3} above={search && <SearchChip search={search} state={state} ts={ts} />} />;
}

/**
 * A person searched by id is shown by name: the one the search bar knew when it was chosen, else
 * whoever the results show with that id (the owner for "from", a waiting signer for "to").
 */
function personName(search: InboxSearch, items: readonly EpakSummary[]): string | null {
  for (const epak of items) {
    if (search.searchKey === 'from' && epak.ownerId === search.searchVal) return ownerName(epak);
    const signer = epak.currentStatePendingSigners.find((candidate) => candidate.userId === search.searchVal);
    if (signer) return signer.name || signer.email;
  }
  return null;
}

/** The search under way, with the button that removes it (back to the plain dashboard). */
function SearchChip({ search, state, ts }: { readonly search: InboxSearch; readonly state: InboxState; readonly ts: string | null }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // The same query the list runs (shared, not fetched twice): its rows may name the person searched.
  const page = useInboxPage(state, search, ts);
  const handed = (location.state as DashboardLocationState | null)?.searchLabel;
  const input = searchInputOf(search.searchKey);
  let value = search.searchVal;
  if (input === 'date') value = formatDate(`${search.searchVal}T12:00:00Z`, i18n.language);
  if (input === 'user') {
    value = handed ?? personName(search, page.data?.items ?? []) ?? t('inbox.search.somePerson');
  }
  const type = t(`inbox.searchTypes.${search.searchKey}`);
  return (
    <Paper withBorder radius="xl" px="sm" py={4} w="fit-content" maw="100%" data-testid="search-chip">
      <Group gap={6} wrap="nowrap">
        <SearchIcon size={16} />
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('inbox.search.chip', { type, value })}
        </Text>
        <CloseButton size="sm" aria-label={t('inbox.search.remove')} onClick={() => void navigate('/dashboard')} />
      </Group>
    </Paper>
  );
}

function DashboardCharts() {
  const [selection, setSelection] = useState<ChartSelection>(DEFAULT_CHART_SELECTION);
  return <StatisticsCharts selection={selection} onSelectionChange={setSelection} />;
}

/**
 * ?ePakId=…: marks the ePak read and opens it where ePaks are opened (the signing page, which
 * shows a recipient their ceremony and the owner the ePak's progress). The dashboard address is
 * replaced, so going back does not bounce into the ePak again.
 */
function OpenEpak({ ePakId }: { readonly ePakId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [go, setGo] = useState(false);
  useEffect(() => {
    // Not waited on: the ePak opens either way, only its bold row depends on it.
    callApi(markEpakRead, { params: { ePakId }, body: { isRead: true } }, { failures: 'caller' })
      .then(() => queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all }))
      .catch(() => undefined);
    setGo(true);
  }, [ePakId, queryClient]);
  if (go) return <Navigate to={`/sign?ePakId=${ePakId}`} replace />;
  return (
    <Center py="xl">
      <Loader size="sm" aria-label={t('inbox.dashboard.opening')} />
    </Center>
  );
}
