import { DIRECTORY_SEARCH_DEBOUNCE_MS, DIRECTORY_SEARCH_MIN_LENGTH, searchDirectory, tenantConfiguration } from '@pakt/domain';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { callApi } from './client';
import { useSession } from './session-store';

/**
 * Queries every screen of a tenant shares. They hang under ['tenant', tenantUuid], so switching
 * tenant or invalidating the tenant refreshes them with the rest.
 */
export const tenantQueryKeys = {
  all: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid] as const,
  configuration: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'configuration'] as const,
  directory: (tenantUuid: string | null | undefined, text: string) => ['tenant', tenantUuid, 'directory', text.toLowerCase()] as const,
};

/** The tenant's configuration (spec §9 tenant options), read by compose, the users screen and others. */
export function useTenantConfiguration() {
  const session = useSession();
  return useQuery({
    queryKey: tenantQueryKeys.configuration(session?.tenantUuid),
    queryFn: ({ signal }) => callApi(tenantConfiguration, undefined, { signal }),
  });
}

/**
 * The tenant's directory searched as a person types: debounced, from the spec's minimum length,
 * one answer per text for the global search, the person picker and compose's recipients alike.
 * `accepts` narrows which texts are searched at all (compose skips a list of addresses).
 */
export function useDirectorySearch(text: string, options: { enabled?: boolean; accepts?: (text: string) => boolean } = {}) {
  const session = useSession();
  const [debounced] = useDebouncedValue(text.trim(), DIRECTORY_SEARCH_DEBOUNCE_MS);
  const searching = debounced.length >= DIRECTORY_SEARCH_MIN_LENGTH && (options.accepts?.(debounced) ?? true);
  const directory = useQuery({
    queryKey: tenantQueryKeys.directory(session?.tenantUuid, debounced),
    queryFn: ({ signal }) => callApi(searchDirectory, { query: { q: debounced, limit: 10 } }, { signal, failures: 'caller' }),
    enabled: searching && (options.enabled ?? true),
    staleTime: 30_000,
    retry: false,
  });
  return {
    searching,
    users: searching ? (directory.data?.users ?? []) : [],
    failed: searching && directory.isError,
    answered: searching && directory.isSuccess,
  };
}
