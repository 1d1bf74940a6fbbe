export const documentTemplateQueryKeys = {
  list: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'documentTemplates'] as const,
};
