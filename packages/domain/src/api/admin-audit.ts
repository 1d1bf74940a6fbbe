import { z } from 'zod';
import { defineEndpoint } from './contract';

/**
 * The administration audit log (issue 7): every administrative change of a tenant (invitations,
 * roles, accounts, groups, settings) is recorded in the transaction that makes it, with who did
 * it and what it touched. Administrators read and filter it; nobody edits it.
 */
export const ADMIN_AUDIT_ACTIONS = [
  'admin_invite',
  'admin_invite_cancel',
  'admin_reinvite',
  'user_role_changed',
  'user_enabled',
  'user_disabled',
  'user_password_reset',
  'user_photo_removed',
  'user_passcode_flag_changed',
  'user_two_factor_reset',
  'group_created',
  'group_renamed',
  'group_deleted',
  'group_members_added',
  'group_members_removed',
  'settings_changed',
  'superadmin_status_changed',
  'user_sync',
  'workflow_state_created',
  'workflow_state_changed',
  'workflow_state_moved',
  'reason_created',
  'reason_changed',
  // Not an administrator's change: a stored document failed its integrity check when it was to be served.
  'document_integrity_failed',
] as const;
export const AdminAuditAction = z.enum(ADMIN_AUDIT_ACTIONS);
export type AdminAuditAction = z.infer<typeof AdminAuditAction>;

export const AdminAuditEntry = z.object({
  id: z.uuid(),
  action: AdminAuditAction,
  createdOn: z.iso.datetime(),
  /** Who did it (null once that account is gone). */
  actor: z.object({ userId: z.uuid(), email: z.string(), name: z.string() }).nullable(),
  /** What it touched: a user, a group, the settings, a workflow state of the catalogue. */
  targetType: z.enum(['user', 'group', 'settings', 'tenant', 'workflowState', 'reason', 'document']),
  targetId: z.string().nullable(),
  /** A short human label of the target at the time (an address, a group name). */
  targetLabel: z.string().nullable(),
  /** What changed, action by action (names, roles, counts); never secrets. */
  details: z.record(z.string(), z.unknown()),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

export const AdminAuditQuery = z.object({
  action: AdminAuditAction.optional(),
  actorId: z.uuid().optional(),
  /** Matches the target's label (address, group name), case-insensitive. */
  target: z.string().trim().max(200).optional(),
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  pg: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().refine((n) => [10, 25, 50, 100].includes(n), 'one of 10, 25, 50, 100').default(25),
});
export type AdminAuditQuery = z.infer<typeof AdminAuditQuery>;

export const listAdminAudit = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/admin/audit',
  access: 'tenant',
  action: 'audit.read',
  summary: "The tenant's administration log, newest first, filtered by action, actor, target and days.",
  query: AdminAuditQuery,
  response: z.object({ total: z.number().int().min(0), pg: z.number().int(), size: z.number().int(), items: z.array(AdminAuditEntry) }),
});
