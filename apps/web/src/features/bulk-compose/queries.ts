export const bulkComposeQueryKeys = {
  templates: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'documentTemplates'] as const,
  columns: (tenantUuid: string | null | undefined, id: string) => ['tenant', tenantUuid, 'bulkCompose', 'columns', id] as const,
  runs: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'bulkCompose', 'runs'] as const,
  run: (tenantUuid: string | null | undefined, id: string) => ['tenant', tenantUuid, 'bulkCompose', 'run', id] as const,
};
