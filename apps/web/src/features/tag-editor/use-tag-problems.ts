import { policyRequiresReasonTag, reasonTagProblems, validateTagLayout, type EpakDetail, type PageGeometry, type Tag, type TagProblem } from '@pakt/domain';
import { useMemo } from 'react';
import type { DocumentTags } from './tag-editor-state';

export const problemId = (problem: TagProblem) => `${problem.tagUuid}|${problem.messageKey}|${JSON.stringify(problem.params ?? {})}`;

function uniqueProblems(problems: readonly TagProblem[]): TagProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const id = problemId(problem);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The current document's problems (the live validation's and the last save's), the reminders
 * sending will add, and its tags grouped by page and problems by tag, each worked out once per edit.
 */
export function useTagProblems(doc: DocumentTags, pages: readonly PageGeometry[], policy: EpakDetail['signingPolicy']) {
  const { tags, serverProblems } = doc;
  const liveProblems = useMemo(
    // While editing a reason tag is not demanded yet: it is one more field to place, not a fault
    // of what is on the page. The server still applies the policy's rule on save (-49).
    () => validateTagLayout({ tags, pages, policy, reasonTagRequired: false }),
    [tags, pages, policy],
  );
  const problems = useMemo(() => uniqueProblems([...liveProblems, ...serverProblems]), [liveProblems, serverProblems]);
  // What sending will demand on top (-49): said ahead, as a reminder rather than a fault.
  const reasonsMissing = useMemo(() => (policyRequiresReasonTag(policy) ? reasonTagProblems(tags) : []), [tags, policy]);
  const problemsByTag = useMemo(() => {
    const map = new Map<string, TagProblem[]>();
    for (const problem of problems) map.set(problem.tagUuid, [...(map.get(problem.tagUuid) ?? []), problem]);
    return map;
  }, [problems]);
  // Grouped once per edit: a long document would otherwise filter every tag for every page.
  const tagsByPage = useMemo(() => {
    const map = new Map<number, Tag[]>();
    for (const tag of tags) map.set(tag.pageNumber, [...(map.get(tag.pageNumber) ?? []), tag]);
    return map;
  }, [tags]);
  return { problems, reasonsMissing, problemsByTag, tagsByPage };
}
