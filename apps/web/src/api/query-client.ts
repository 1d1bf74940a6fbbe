import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/**
 * Only a missing answer (HTTP status 0) is worth retrying: every other failure either carries the
 * server's verdict or has already sent the user elsewhere (spec section 8), and repeating it
 * would repeat the redirect.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.httpStatus === 0 && failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    },
  });
}
