export const workflowQueryKeys = {
  list: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'workflows'] as const,
  states: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'workflowStates'] as const,
};
