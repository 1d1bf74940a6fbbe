export const letterheadQueryKeys = {
  list: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'letterheads'] as const,
  image: (tenantUuid: string | null | undefined, id: string) => ['tenant', tenantUuid, 'letterheads', id, 'image'] as const,
};
