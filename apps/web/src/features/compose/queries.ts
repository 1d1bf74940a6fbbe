export const composeQueryKeys = {
  documents: (tenantUuid: string | null | undefined, page: number) => ['tenant', tenantUuid, 'documents', page] as const,
  allDocuments: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'documents'] as const,
  epak: (tenantUuid: string | null | undefined, ePakId: string) => ['tenant', tenantUuid, 'epak', ePakId] as const,
};
