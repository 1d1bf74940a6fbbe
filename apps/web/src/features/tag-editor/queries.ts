/**
 * Query keys of the tag editor. They sit under the ePak's own key (composeQueryKeys.epak), so
 * invalidating an ePak refreshes its tags and documents too.
 */
export const tagEditorQueryKeys = {
  tags: (tenantUuid: string | null | undefined, ePakId: string, documentId: string) => ['tenant', tenantUuid, 'epak', ePakId, 'tags', documentId] as const,
  pdf: (tenantUuid: string | null | undefined, ePakId: string, documentId: string) => ['tenant', tenantUuid, 'epak', ePakId, 'pdf', documentId] as const,
};
