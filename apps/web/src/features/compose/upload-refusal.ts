import { ResponseCode } from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import { ApiError } from '../../api/client';

/** A refused file's headline; the server's own message says which rule the file broke. */
export function uploadRefusal(error: unknown): { reason: ParseKeys; detail?: string } {
  if (!(error instanceof ApiError)) return { reason: 'compose.upload.failed' };
  if (error.httpStatus === 0) return { reason: 'common.unreachable' };
  const reasons: Partial<Record<number, ParseKeys>> = {
    [ResponseCode.INVALID_DOCUMENT.code]: 'compose.upload.invalid',
    [ResponseCode.INVALID_CHARACTER_IN_FILENAME.code]: 'compose.upload.badName',
    [ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED.code]: 'compose.upload.badFormat',
    [ResponseCode.DOCUMENT_CONVERSION_FAILED.code]: 'compose.upload.conversion',
  };
  return { reason: reasons[error.code] ?? 'compose.upload.failed', ...(error.message ? { detail: error.message } : {}) };
}
