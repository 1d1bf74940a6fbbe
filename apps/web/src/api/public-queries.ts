import { publicAlive, publicConfiguration } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { callApi } from './client';

/** First element of every query key whose answer is the same for everyone (kept across logout). */
export const PUBLIC_QUERY_SCOPE = 'public';

export const publicQueryKeys = {
  alive: [PUBLIC_QUERY_SCOPE, 'alive'] as const,
  configuration: [PUBLIC_QUERY_SCOPE, 'configuration'] as const,
};

export function usePublicAlive() {
  return useQuery({
    queryKey: publicQueryKeys.alive,
    queryFn: ({ signal }) => callApi(publicAlive, undefined, { signal }),
  });
}

export function usePublicConfiguration() {
  return useQuery({
    queryKey: publicQueryKeys.configuration,
    queryFn: ({ signal }) => callApi(publicConfiguration, undefined, { signal }),
    // Settings change on an admin's action, not while someone reads the login page.
    staleTime: 5 * 60_000,
  });
}

/**
 * Whether this install delivers mail (SMTP), as the server says. Until it has said so, and on an
 * install without a mail server, mail only waits in the outbox: screens then never say a mail
 * "was sent", they say where it is and who passes it on.
 */
export function useMailDelivered(): boolean {
  return usePublicConfiguration().data?.mailDelivery === 'smtp';
}
