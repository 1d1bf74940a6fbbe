import { fileNameProblem, FILE_NAME_MAX_LENGTH } from '@pakt/domain';
import type { ParseKeys } from 'i18next';

/** Why a document name typed for a rename or a merge would be refused (-67, -6), before asking the server. */
export function documentNameError(name: string): { key: ParseKeys; values?: Record<string, number> } | null {
  const problem = fileNameProblem(name);
  if (problem === null) return null;
  if (problem === 'invalidCharacter') return { key: 'compose.upload.badName' };
  if (problem === 'tooLong') return { key: 'compose.documents.nameTooLong', values: { count: FILE_NAME_MAX_LENGTH } };
  return { key: 'compose.documents.nameRequired' };
}
