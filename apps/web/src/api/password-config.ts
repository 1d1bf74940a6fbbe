import { DEFAULT_PASSWORD_CONFIG, passwordConfiguration, type PasswordConfig } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { callApi } from './client';
import { PUBLIC_QUERY_SCOPE } from './public-queries';

/**
 * Spec section 5: the rules come from the tenant's password configuration. Without a tenant (root,
 * a reset link), or until and unless it arrives, the defaults guide the typing; the server checks
 * the real rules anyway.
 */
export function usePasswordConfig(tenantUuid: string | null | undefined): { config: PasswordConfig; failed: boolean } {
  const rules = useQuery({
    queryKey: [PUBLIC_QUERY_SCOPE, 'passwordConfig', tenantUuid],
    queryFn: ({ signal }) =>
      callApi(passwordConfiguration, { params: { tenantUuid: tenantUuid! } }, { signal, failures: 'caller' }),
    enabled: !!tenantUuid,
    staleTime: 5 * 60_000,
  });
  return { config: rules.data ?? DEFAULT_PASSWORD_CONFIG, failed: rules.isError };
}
