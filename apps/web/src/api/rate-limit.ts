import { ResponseCode } from '@pakt/domain';
import { ApiError } from './client';

/** When a 429 comes without the server's envelope (a proxy's own), this long is a fair guess. */
const DEFAULT_WAIT_SECONDS = 60;

/**
 * Seconds to wait when the server refused a call for the client's request rate (429 with code -1
 * and `data.retryAfter`, issue 17), else null. The account-level 429s (-198, -217, -227) have
 * codes of their own and are explained by their pages.
 */
export function retryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.httpStatus !== 429 || error.code !== ResponseCode.GENERIC_ERROR.code) return null;
  const after = error.data?.['retryAfter'];
  return typeof after === 'number' && Number.isFinite(after) && after > 0 ? Math.ceil(after) : DEFAULT_WAIT_SECONDS;
}
