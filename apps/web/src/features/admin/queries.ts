import type { FilteredUsersQuery } from '@pakt/domain';

/** The users screen's queries hang under the tenant, as the groups' do. */
export const userQueryKeys = {
  all: (tenant: string | null | undefined) => ['tenant', tenant ?? null, 'users-admin'] as const,
  list: (tenant: string | null | undefined, query: FilteredUsersQuery) => [...userQueryKeys.all(tenant), 'list', query] as const,
};

export const userSyncQueryKeys = {
  all: (tenantUuid: string | undefined) => ['tenant', tenantUuid, 'userSync'] as const,
  run: (tenantUuid: string | undefined, runId: string) => ['tenant', tenantUuid, 'userSync', 'run', runId] as const,
};

/**
 * Query keys of the admin screens. Both hang under the tenant, so switching tenants never shows
 * another tenant's groups or log from the cache.
 */
export const groupQueryKeys = {
  all: (tenant: string | null | undefined) => ['tenant', tenant ?? null, 'groups'] as const,
  list: (tenant: string | null | undefined, q: string) => [...groupQueryKeys.all(tenant), 'list', q] as const,
  detail: (tenant: string | null | undefined, groupId: string) => [...groupQueryKeys.all(tenant), 'detail', groupId] as const,
};

export const adminAuditQueryKeys = {
  all: (tenant: string | null | undefined) => ['tenant', tenant ?? null, 'admin-audit'] as const,
};

export const reasonQueryKeys = {
  list: (tenant: string | null | undefined) => ['reasons', tenant ?? null] as const,
};

export const rootQueryKeys = {
  setupStatus: ['setup', 'status'] as const,
  tenants: ['root', 'tenants'] as const,
  outbox: ['root', 'outbox'] as const,
  settings: ['root', 'settings'] as const,
};

export const adminQueryKeys = {
  /** The tenant's outbox: to whom and when, never a link or code. */
  outbox: (tenant: string | null | undefined) => ['tenant', tenant, 'outbox'] as const,
};
