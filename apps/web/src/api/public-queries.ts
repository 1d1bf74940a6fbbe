import { publicAlive, publicConfiguration } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { callApi } from './client';

export const publicQueryKeys = {
  alive: ['public', 'alive'] as const,
  configuration: ['public', 'configuration'] as const,
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
