/** Query keys of the ceremony, under its session's scope. */
export const signingQueryKeys = {
  /** What a signing link opens (an email or SMS link's token). */
  link: (token: string | null) => ['signing-link', token] as const,
  /** Everything one signing session (its scope: a user, a link, an in-person turn) has read. */
  scope: (scope: string) => ['signing', scope] as const,
  all: (scope: string, ePakId: string) => ['signing', scope, ePakId] as const,
  epak: (scope: string, ePakId: string) => ['signing', scope, ePakId, 'detail'] as const,
  // The revision count is part of the key: each signature adds one, and the file and tags change.
  tags: (scope: string, ePakId: string, documentId: string, revisions: number) => ['signing', scope, ePakId, 'tags', documentId, revisions] as const,
  pdf: (scope: string, ePakId: string, documentId: string, revisions: number) => ['signing', scope, ePakId, 'pdf', documentId, revisions] as const,
  preview: (scope: string, ePakId: string, documentId: string, revisions: number, width: number) => ['signing', scope, ePakId, 'preview', documentId, revisions, width] as const,
};
