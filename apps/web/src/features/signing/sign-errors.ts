import { ResponseCode, type EpakDetail, type EpakViewer } from '@pakt/domain';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

/**
 * The tags a refusal (-6) names. The sign endpoint names them in its issues (`values.<uuid>`);
 * the tag rules elsewhere answer `problems` ({ tagUuid }), and `details` lists uuids. Every one
 * of these shapes is read, so a change of wording on either side still points at the fields.
 */
export function refusedTagUuids(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.code !== ResponseCode.INVALID_INPUT.code) return [];
  const found = new Set<string>();
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(item)) found.add(item.toLowerCase());
      return;
    }
    if (Array.isArray(item)) return item.forEach(visit);
    if (typeof item === 'object' && item !== null) {
      const record = item as Record<string, unknown>;
      for (const key of ['uuid', 'tagUuid', 'uuids', 'tagUuids', 'tags']) if (key in record) visit(record[key]);
    }
  };
  // The sign endpoint names each field in an issue: `values.<uuid>`.
  for (const issue of error.issues ?? []) visit(issue.path.split('.'));
  const data = error.data ?? {};
  visit(data['details']);
  visit(data['problems']);
  visit(data['tags']);
  visit(data['missing']);
  return [...found];
}

/** A refusal (-6) for want of a location: the tenant's geolocation setting is MANDATORY. */
export function refusedLocation(error: unknown): boolean {
  return error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && (error.issues ?? []).some((issue) => issue.path === 'location');
}

/** The words for a failed action: the catalogue codes of a started ePak get their own. */
export function actionErrorMessage(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('signing.errors.generic');
  if (error.httpStatus === 0) return t('common.unreachable');
  switch (error.code) {
    case ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code:
      return t('signing.errors.notPending');
    case ResponseCode.EPAK_REJECTED.code:
      return t('signing.errors.rejected');
    case ResponseCode.EPAK_ALREADY_COMPLETED.code:
      return t('signing.errors.completed');
    case ResponseCode.EPAK_DELETED.code:
      return t('signing.errors.deleted');
    case ResponseCode.EPAK_ARCHIVED.code:
      return t('signing.errors.archived');
    case ResponseCode.INVALID_INPUT.code:
      return refusedTagUuids(error).length > 0 ? t('signing.errors.requiredMissing') : error.message || t('signing.errors.generic');
    default:
      return error.message || t('signing.errors.generic');
  }
}

/** Refusals after which the ePak's state has moved on: what the screen shows must be fetched again. */
export function staleAfter(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    [ResponseCode.USER_WORKFLOW_STATUS_NOT_PENDING.code, ResponseCode.EPAK_REJECTED.code, ResponseCode.EPAK_ALREADY_COMPLETED.code, ResponseCode.EPAK_DELETED.code, ResponseCode.EPAK_ARCHIVED.code].includes(
      error.code,
    )
  );
}

export type WhyNot = 'completed' | 'rejected' | 'stopped' | 'expired' | 'signed' | 'reviewed' | 'delegated' | 'notYourTurn' | 'owner' | 'notRecipient' | 'nothingWaiting';

/** Why nothing waits for the person (viewer.canAct false), most telling reason first. */
export function whyCannotAct(epak: Pick<EpakDetail, 'status' | 'currentStep'>, viewer: EpakViewer): WhyNot {
  if (epak.status === 'Completed') return 'completed';
  if (epak.status === 'Rejected') return 'rejected';
  if (epak.status === 'Stopped') return 'stopped';
  if (epak.status === 'Expired') return 'expired';
  if (viewer.status === 'Signed') return 'signed';
  if (viewer.status === 'Reviewed') return 'reviewed';
  if (viewer.status === 'Delegated') return 'delegated';
  if (viewer.recipientId === null) return viewer.isOwner ? 'owner' : 'notRecipient';
  if (viewer.stepOrder !== null && epak.currentStep !== null && viewer.stepOrder > epak.currentStep) return 'notYourTurn';
  return 'nothingWaiting';
}
