import { Alert, Text } from '@mantine/core';
import { ResponseCode } from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';

export interface VerifyRefusal {
  readonly reason: ParseKeys;
  /** The server's own words, which say which rule the file broke (the size limit, what could not be read). */
  readonly detail?: string;
}

/**
 * Why a file was not checked: a headline by kind, and the server's message beneath it. The size
 * limit travels as -59 with 413, so the status is asked before the code.
 */
export function verifyRefusal(error: unknown): VerifyRefusal {
  if (!(error instanceof ApiError)) return { reason: 'verify.refused.failed' };
  if (error.httpStatus === 0) return { reason: 'common.unreachable' };
  const detail = error.message ? { detail: error.message } : {};
  if (error.httpStatus === 413) return { reason: 'verify.refused.tooLarge', ...detail };
  if (error.httpStatus === 429) return { reason: 'verify.refused.rateLimited', ...detail };
  if (error.code === ResponseCode.INVALID_DOCUMENT.code) return { reason: 'verify.refused.invalid', ...detail };
  return { reason: 'verify.refused.failed', ...detail };
}

export function VerifyRefusalAlert({ error }: { readonly error: unknown }) {
  const { t } = useTranslation();
  const { reason, detail } = verifyRefusal(error);
  return (
    <Alert color="red" variant="light" role="alert" title={t('verify.refused.title')} data-testid="verify-refusal">
      <Text size="sm">{t(reason)}</Text>
      {detail && (
        <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      )}
    </Alert>
  );
}
