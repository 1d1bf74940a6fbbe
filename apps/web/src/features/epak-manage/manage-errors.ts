import { ResponseCode } from '@pakt/domain';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

/**
 * The management actions' refusals as readable messages: the catalogue codes these endpoints
 * answer get words of their own (in the reader's language); anything else shows the server's
 * own message, which names what was wrong.
 */
export function manageErrorMessage(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('epakManage.errors.generic');
  if (error.httpStatus === 0) return t('common.unreachable');
  switch (error.code) {
    case ResponseCode.GENERIC_ERROR.code:
      // A bare 404 is the policies' "no such ePak" (or recipient): it is hidden, or gone.
      return error.httpStatus === 404 ? t('epakManage.errors.notFound') : error.message || t('epakManage.errors.generic');
    case ResponseCode.NOT_AUTHORIZED.code:
      return t('epakManage.errors.notOwner');
    case ResponseCode.EPAK_MODIFIED.code:
      return t('epakManage.errors.modified');
    case ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code:
      return t('epakManage.errors.notPending', { detail: error.message });
    case ResponseCode.EPAK_ALREADY_COMPLETED.code:
      return t('epakManage.errors.completed');
    case ResponseCode.EPAK_REJECTED.code:
      return t('epakManage.errors.rejected');
    case ResponseCode.EPAK_DELETED.code:
      return t('epakManage.errors.deleted');
    case ResponseCode.EPAK_ARCHIVED.code:
      return t('epakManage.errors.archived');
    case ResponseCode.OUT_OF_OFFICE_DELEGATION_NOT_ALLOWED.code:
      return t('epakManage.errors.delegateNotAllowed');
    case ResponseCode.USER_DISABLED.code:
      return t('epakManage.errors.disabled');
    case ResponseCode.INVITATION_CANCELLED.code:
      return t('epakManage.errors.invitationCancelled');
    case ResponseCode.DOCUMENT_NOT_AVAILABLE.code:
      return t('epakManage.errors.documentUnavailable');
    case ResponseCode.USER_DOES_NOT_EXIST.code:
      return t('epakManage.errors.unknownPerson');
    case ResponseCode.INVALID_INPUT.code:
      if (remindedRecently(error)) return t('epakManage.errors.remindedRecently');
      if (hasIssue(error, (message) => message === 'already in this step')) return t('epakManage.errors.alreadyInStep');
      if (hasIssue(error, (message) => message.startsWith('invalid filter'))) return t('epakManage.errors.recipientFiltered');
      return error.message || t('epakManage.errors.generic');
    default:
      return error.message || t('epakManage.errors.generic');
  }
}

const hasIssue = (error: ApiError, test: (message: string) => boolean) => (error.issues ?? []).some((issue) => test(issue.message));

/** -6 because a reminder (or a resent link) went out less than REMINDER_INTERVAL_MINUTES ago. */
export function remindedRecently(error: unknown): boolean {
  return error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && (error.issues ?? []).some((issue) => issue.message === 'reminded recently');
}

/** -306: the ePak changed since the editor loaded it; only a reload helps. */
export function changedUnderneath(error: unknown): boolean {
  return error instanceof ApiError && error.code === ResponseCode.EPAK_MODIFIED.code;
}
