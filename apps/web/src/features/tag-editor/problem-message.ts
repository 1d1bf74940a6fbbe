import type { TagProblem } from '@pakt/domain';
import type { TFunction } from 'i18next';

/**
 * The text of a tag problem from domain's validateTagLayout / moveTag / resizeTag / pasteTag.
 * tagDimensionsCrossedMsg has two shapes (size limits, or font-size limits), told apart by its
 * `dimension` param and shown with the i18next context `fontSize`.
 */
export function problemMessage(t: TFunction, problem: Pick<TagProblem, 'messageKey' | 'params'>): string {
  const params = problem.params ?? {};
  if (problem.messageKey === 'tagDimensionsCrossedMsg' && params['dimension'] === 'fontSize') {
    return t('tagDimensionsCrossedMsg_fontSize', params);
  }
  return t(problem.messageKey, params);
}
