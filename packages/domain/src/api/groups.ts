import { z } from 'zod';
import { GROUP_NAME_LENGTH } from '../constants/ui';
import { GroupName } from '../constants/validation';
import { defineEndpoint } from './contract';

/**
 * Groups (spec §3 Group: groupId, groupName, users; §7 Groups; §5 name length 15). A group has
 * members, one of whom may be its manager. Our rules for the manager codes of §8, since the spec
 * names them only:
 * - -141 a person manages at most one group: making them manager of a second is refused;
 * - -165 the manager cannot be removed from their group (make someone else manager first);
 * - -172 adding the group's own manager as a member again is refused.
 * Names are unique in a tenant, whatever their case (-6 otherwise). Groups are used by workflow
 * recipients, rubber-stamp sharing and the dashboard's group charts.
 */

export const GroupMember = z.object({
  userId: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  manager: z.boolean(),
});
export type GroupMember = z.infer<typeof GroupMember>;

export const Group = z.object({
  groupId: z.uuid(),
  groupName: z.string(),
  createdOn: z.iso.datetime(),
  users: z.array(GroupMember),
});
export type Group = z.infer<typeof Group>;

/** A group in a list: its members counted, its manager named. */
export const GroupSummary = z.object({
  groupId: z.uuid(),
  groupName: z.string(),
  createdOn: z.iso.datetime(),
  memberCount: z.number().int().min(0),
  manager: GroupMember.nullable(),
});
export type GroupSummary = z.infer<typeof GroupSummary>;

const GroupParams = z.object({ groupId: z.uuid() });
const UserIds = z.array(z.uuid()).min(1).max(500);

export const listGroups = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/groups',
  access: 'tenant',
  action: 'group.read',
  summary: "The tenant's groups by name, with member counts and managers; q narrows by name.",
  query: z.object({ q: z.string().trim().max(GROUP_NAME_LENGTH).optional() }),
  response: z.object({ groups: z.array(GroupSummary) }),
});

export const createGroup = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/groups',
  access: 'tenant',
  action: 'group.manage',
  summary: 'Creates a group, optionally with members and a manager among them (-6 name taken, -141 manager of another group).',
  body: z.object({
    groupName: GroupName,
    userIds: z.array(z.uuid()).max(500).default([]),
    managerId: z.uuid().optional(),
  }),
  response: Group,
});

export const renameGroup = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v1/groups',
  access: 'tenant',
  action: 'group.manage',
  summary: 'Renames a group (at most 15 characters, unique in the tenant).',
  body: z.object({ groupId: z.uuid(), groupName: GroupName }),
  response: Group,
});

export const getGroup = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/groups/:id',
  access: 'tenant',
  action: 'group.read',
  summary: 'One group with its members.',
  params: z.object({ id: z.uuid() }),
  response: Group,
});

export const deleteGroup = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/groups/:groupId',
  access: 'tenant',
  action: 'group.manage',
  summary: 'Deletes a group; its members stay members of the tenant.',
  params: GroupParams,
  response: z.object({ groupId: z.uuid() }),
});

export const addGroupUsers = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/groups/:groupId/users',
  access: 'tenant',
  action: 'group.manage',
  summary:
    "Adds members of the tenant to a group; with manager, the one person given becomes its manager (-172 the group's manager again, -141 manager elsewhere).",
  params: GroupParams,
  body: z.object({ userIds: UserIds, manager: z.boolean().default(false) }),
  response: Group,
});

export const removeGroupUsers = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v1/groups/:groupId/users',
  access: 'tenant',
  action: 'group.manage',
  summary: 'Removes members from a group (-165 for its manager).',
  params: GroupParams,
  body: z.object({ userIds: UserIds }),
  response: Group,
});
