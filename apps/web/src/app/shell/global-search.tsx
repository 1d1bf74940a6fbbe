import { ActionIcon, Autocomplete, Box, Group, Popover, Select, Stack, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  canAccessRoute,
  SEARCH_INPUT_OF_TYPE,
  SEARCH_TYPES,
  type InboxPage,
  type SearchType,
  fullName,
} from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useDirectorySearch } from '../../api/tenant-queries';
import { useSession } from '../../api/session-store';
import type { DashboardLocationState } from '../../features/dashboard/dashboard-page';
import { SearchIcon } from '../../features/inbox/inbox-icons';
import { INBOX_QUERY_SCOPE } from '../../features/inbox/queries';
import { ownerName } from '../../features/inbox/inbox-state';
import { effectiveRole, useCan, usePermissionSettings } from '../../api/access';
import { XIcon } from '../../ui/icons';
import { changeSearchType, EMPTY_SEARCH, firstSegment, isSearchBarHidden, searchBarModeOn, searchTarget, type SearchDraft } from './global-search-rules';

/** From here the bar sits in the header itself; below it, it opens under a button (a phone header has no room). */
export const INLINE_SEARCH_QUERY = '(min-width: 62em)';

interface Person {
  readonly userId: string;
  readonly label: string;
}

/**
 * People the caller's cached inbox pages name (owners and waiting signers). Those who may not
 * search the tenant's directory (it is for composers) still find the people they deal with.
 */
function peopleInInbox(queryClient: ReturnType<typeof useQueryClient>): Person[] {
  const people = new Map<string, string>();
  for (const [, page] of queryClient.getQueriesData<InboxPage>({ queryKey: [INBOX_QUERY_SCOPE] })) {
    if (!page || !Array.isArray(page.items)) continue;
    for (const epak of page.items) {
      people.set(epak.ownerId, `${ownerName(epak)} · ${epak.ownerUserName}`);
      for (const signer of epak.currentStatePendingSigners) people.set(signer.userId, `${signer.name} · ${signer.email}`);
    }
  }
  return [...people].map(([userId, label]) => ({ userId, label }));
}

/**
 * The from/to input: a single-user autocomplete. Suggestions come from the directory (as compose's
 * recipient field has them) for those allowed to search it, and from the people of the caller's
 * inbox for everyone.
 */
function PersonPicker({
  text,
  onTextChange,
  onPick,
  label,
  autoFocus,
}: {
  readonly text: string;
  readonly onTextChange: (text: string) => void;
  readonly onPick: (person: Person) => void;
  readonly label: string;
  readonly autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mayDirectory = useCan('epak.compose');
  const directory = useDirectorySearch(text, { enabled: mayDirectory });
  const needle = text.trim().toLowerCase();
  const people = new Map<string, string>();
  for (const user of directory.users) {
    people.set(user.userId, `${fullName(user)} · ${user.email}`);
  }
  if (needle.length > 0) {
    for (const person of peopleInInbox(queryClient)) {
      if (person.label.toLowerCase().includes(needle) && !people.has(person.userId)) people.set(person.userId, person.label);
    }
  }
  const data = [...people].slice(0, 10).map(([value, optionLabel]) => ({ value, label: optionLabel }));
  return (
    <Autocomplete
      aria-label={label}
      placeholder={t('inbox.search.personPlaceholder')}
      value={text}
      data={data}
      // The options are already what matches; Mantine's own filter would drop directory hits it cannot see the reason for.
      filter={({ options }) => options}
      onChange={onTextChange}
      onOptionSubmit={(userId) => {
        const option = data.find((item) => item.value === userId);
        if (option) onPick({ userId, label: option.label });
      }}
      autoComplete="off"
      autoFocus={autoFocus}
      comboboxProps={{ withinPortal: true }}
      size="sm"
    />
  );
}

/**
 * The global search bar of spec §2, in the header: a search type and its input (text, one person,
 * or a date); Enter or the search button opens the dashboard searched. It is reset when the first
 * path segment changes, hidden on team rooms and stamp papers, open on /epaks and folded on the
 * dashboard (a button that opens it).
 */
export function GlobalSearch() {
  const session = useSession();
  const { settings } = usePermissionSettings();
  const location = useLocation();
  const role = session ? effectiveRole(session) : null;
  // Searching shows the dashboard: only those who may open it get the bar.
  const allowed = role !== null && canAccessRoute(role, 'dashboard', settings);
  if (!allowed || isSearchBarHidden(location.pathname)) return null;
  return <SearchBar pathname={location.pathname} />;
}

function SearchBar({ pathname }: { readonly pathname: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const inline = useMediaQuery(INLINE_SEARCH_QUERY, false, { getInitialValueInEffect: false });
  const [draft, setDraft] = useState<SearchDraft>(EMPTY_SEARCH);
  // The person picker's text, and the person it names once one is chosen (value is their id).
  const [personText, setPersonText] = useState('');
  const [personLabel, setPersonLabel] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A phone never opens it by itself: over the page it would hide what the person came to see.
  const [expanded, setExpanded] = useState(() => inline && searchBarModeOn(pathname) === 'maximised');
  const segment = firstSegment(pathname);
  const lastSegment = useRef(segment);
  const inputId = useId();

  useEffect(() => {
    if (lastSegment.current === segment) return;
    lastSegment.current = segment;
    setDraft(EMPTY_SEARCH);
    setPersonText('');
    setPersonLabel(null);
    setError(null);
    const mode = searchBarModeOn(pathname);
    if (!inline) setExpanded(false);
    else if (mode) setExpanded(mode === 'maximised');
  }, [segment, pathname, inline]);

  const input = draft.type ? SEARCH_INPUT_OF_TYPE[draft.type] : 'text';

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft.type && input === 'user' && draft.value === '' && personText.trim() !== '') {
      setError(t('inbox.search.pickPerson'));
      return;
    }
    setError(null);
    const state: DashboardLocationState | undefined = input === 'user' && personLabel ? { searchLabel: personLabel.split(' · ')[0] } : undefined;
    void navigate(searchTarget(draft), { state });
    if (!inline) setExpanded(false);
  };

  const typeLabel = t('inbox.search.type');
  const valueLabel = t('inbox.search.value');
  const form = (stacked: boolean) => (
    <Box component="form" role="search" aria-label={t('inbox.search.label')} onSubmit={submit} data-testid="global-search">
      {(() => {
        const fields = (
          <>
            <Select
              aria-label={typeLabel}
              placeholder={t('inbox.search.noType')}
              data={SEARCH_TYPES.map((type) => ({ value: type, label: t(`inbox.searchTypes.${type}`) }))}
              value={draft.type}
              onChange={(value) => {
                setDraft(changeSearchType(draft, value as SearchType | null));
                if (!value || SEARCH_INPUT_OF_TYPE[value as SearchType] !== 'user') {
                  setPersonText('');
                  setPersonLabel(null);
                }
                setError(null);
              }}
              clearable
              w={stacked ? '100%' : 132}
              size="sm"
              comboboxProps={{ withinPortal: true }}
              data-testid="search-type"
            />
            <Box w={stacked ? '100%' : 210}>
              {input === 'user' ? (
                <PersonPicker
                  label={valueLabel}
                  text={personText}
                  autoFocus={stacked}
                  onTextChange={(text) => {
                    setPersonText(text);
                    setError(null);
                    // Typing again after a pick means looking for someone else.
                    if (personLabel !== null && text !== personLabel) {
                      setPersonLabel(null);
                      setDraft({ ...draft, value: '' });
                    }
                  }}
                  onPick={(person) => {
                    setPersonLabel(person.label);
                    setPersonText(person.label);
                    setDraft({ ...draft, value: person.userId });
                  }}
                />
              ) : (
                <TextInput
                  id={inputId}
                  aria-label={valueLabel}
                  type={input === 'date' ? 'date' : 'search'}
                  placeholder={input === 'date' ? undefined : t('inbox.search.placeholder')}
                  value={draft.value}
                  maxLength={200}
                  onChange={(event) => setDraft({ ...draft, value: event.currentTarget.value })}
                  autoFocus={stacked}
                  size="sm"
                />
              )}
            </Box>
            <Tooltip label={t('inbox.search.submit')} disabled={stacked}>
              <ActionIcon type="submit" size={36} aria-label={t('inbox.search.submit')} variant="filled" style={stacked ? { alignSelf: 'flex-end' } : undefined}>
                <SearchIcon size={18} />
              </ActionIcon>
            </Tooltip>
          </>
        );
        return stacked ? (
          <Stack gap="xs">{fields}</Stack>
        ) : (
          <Group gap={6} wrap="nowrap">
            {fields}
          </Group>
        );
      })()}
      {error && (
        <Box c="red" fz="xs" mt={4} role="alert">
          {error}
        </Box>
      )}
    </Box>
  );

  const openButton = (
    // Phones have no hover: a tooltip there only lingers after the popover closes.
    <Tooltip label={t('inbox.search.open')} disabled={!inline}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('inbox.search.open')} aria-expanded={expanded} onClick={() => setExpanded(!expanded)} data-testid="search-toggle">
        {expanded && !inline ? <XIcon size={18} /> : <SearchIcon size={20} />}
      </ActionIcon>
    </Tooltip>
  );

  if (inline) {
    if (!expanded) return openButton;
    return (
      <Group gap={4} wrap="nowrap">
        {form(false)}
        {searchBarModeOn(pathname) !== 'maximised' && (
          <ActionIcon variant="subtle" color="gray" aria-label={t('inbox.search.close')} onClick={() => setExpanded(false)}>
            <XIcon size={16} />
          </ActionIcon>
        )}
      </Group>
    );
  }
  return (
    <Popover opened={expanded} onChange={setExpanded} position="bottom-end" width="calc(100vw - 24px)" shadow="md" withinPortal trapFocus floatingStrategy="fixed">
      <Popover.Target>{openButton}</Popover.Target>
      <Popover.Dropdown maw={420}>{form(true)}</Popover.Dropdown>
    </Popover>
  );
}
