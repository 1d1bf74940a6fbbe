import { verifyQrData } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { PUBLIC_QUERY_SCOPE } from '../../api/public-queries';

/**
 * The public record behind a certificate's QR code is the same for whoever asks, signed in or
 * not, so it lives in the public scope: signing in or out on the way does not fetch it again.
 */
export const verifyQueryKeys = {
  record: (token: string) => [PUBLIC_QUERY_SCOPE, 'verify-record', token] as const,
};

/** The record of `token` (the `record` parameter of a QR code's URL); idle without one. */
export function usePublicRecord(token: string | null) {
  return useQuery({
    queryKey: verifyQueryKeys.record(token ?? ''),
    // 'caller': an unknown or forged token is a 404 the page explains, not a reason to leave it.
    queryFn: ({ signal }) => callApi(verifyQrData, { query: { data: token ?? '' } }, { signal, failures: 'caller' }),
    enabled: token !== null,
    // A record changes only when its ePak does; a reader looking at it needs no refresh.
    staleTime: 5 * 60_000,
  });
}
