import { documentTemplateQueryKeys } from '../document-templates';

export const bulkComposeQueryKeys = {
  /** The same list as the templates tab's, so either's fetch serves both. */
  templates: documentTemplateQueryKeys.list,
  columns: (tenantUuid: string | null | undefined, id: string) => ['tenant', tenantUuid, 'bulkCompose', 'columns', id] as const,
  runs: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'bulkCompose', 'runs'] as const,
  run: (tenantUuid: string | null | undefined, id: string) => ['tenant', tenantUuid, 'bulkCompose', 'run', id] as const,
};
