import { DomainError, fullName, type Group, type GroupSummary, invalidInput, notFound, ResponseCode } from '@pakt/domain';
import { and, asc, count, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { groupMembers, groups, memberships, users } from '../../platform/db/schema';
import { containing } from '../../platform/db/sql';
import { recordAdminAction } from '../../platform/audit-log';

/**
 * Groups of a tenant (issue 7; domain api/groups.ts has the rules). Every change runs in one
 * transaction with its audit record, and locks the group row first, so two administrators
 * changing one group take turns. The unique indexes (name per tenant, one manager per group,
 * one managed group per person) catch what a concurrent transaction slipped past the checks.
 */

interface Actor {
  tenantId: string;
  userId: string;
}

type GroupRow = typeof groups.$inferSelect;

/** The tenant's groups by name, each with its member count and manager. */
export async function listGroups(options: { db: Db; tenantId: string; q?: string | undefined }): Promise<GroupSummary[]> {
  const { db, tenantId } = options;
  const where = and(eq(groups.tenantId, tenantId), options.q ? ilike(groups.name, containing(options.q)) : undefined);
  const [rows, counts, managers] = await Promise.all([
    db.select().from(groups).where(where).orderBy(asc(sql`lower(${groups.name})`)),
    db
      .select({ groupId: groupMembers.groupId, n: count() })
      .from(groupMembers)
      .where(eq(groupMembers.tenantId, tenantId))
      .groupBy(groupMembers.groupId),
    db
      .select({ groupId: groupMembers.groupId, userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(groupMembers)
      .innerJoin(users, eq(users.id, groupMembers.userId))
      .where(and(eq(groupMembers.tenantId, tenantId), eq(groupMembers.isManager, true))),
  ]);
  const countOf = new Map(counts.map((row) => [row.groupId, row.n]));
  const managerOf = new Map(managers.map(({ groupId, ...person }) => [groupId, { ...person, manager: true }]));
  return rows.map((row) => ({
    groupId: row.id,
    groupName: row.name,
    createdOn: row.createdAt.toISOString(),
    memberCount: countOf.get(row.id) ?? 0,
    manager: managerOf.get(row.id) ?? null,
  }));
}

/** One group of the tenant with its members (manager first, then by name); 404 for any other. */
export async function loadGroup(options: { db: Db; tenantId: string; groupId: string }): Promise<Group> {
  const row = await groupOf(options.db, options.tenantId, options.groupId);
  return present(options.db, row);
}

export async function createGroup(options: { db: Db; actor: Actor; name: string; userIds: readonly string[]; managerId?: string | undefined }): Promise<Group> {
  const { actor } = options;
  const memberIds = unique([...options.userIds, ...(options.managerId ? [options.managerId] : [])]);
  return inTransaction(options.db, async (db) => {
    await assertNameFree(db, actor.tenantId, options.name);
    const people = await tenantMembers(db, actor.tenantId, memberIds);
    if (options.managerId) await assertManagesNothing(db, actor.tenantId, options.managerId, null);
    const [row] = await db.insert(groups).values({ tenantId: actor.tenantId, name: options.name, createdBy: actor.userId }).returning();
    if (memberIds.length > 0) {
      await db.insert(groupMembers).values(memberIds.map((userId) => ({ groupId: row!.id, tenantId: actor.tenantId, userId, isManager: userId === options.managerId })));
    }
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'group_created',
      target: { type: 'group', id: row!.id, label: row!.name },
      details: { members: people.map((p) => p.email), manager: people.find((p) => p.id === options.managerId)?.email ?? null },
    });
    return present(db, row!);
  });
}

export async function renameGroup(options: { db: Db; actor: Actor; groupId: string; name: string }): Promise<Group> {
  const { actor } = options;
  return inTransaction(options.db, async (db) => {
    const row = await groupOf(db, actor.tenantId, options.groupId, true);
    if (row.name !== options.name) {
      await assertNameFree(db, actor.tenantId, options.name, row.id);
      await db.update(groups).set({ name: options.name }).where(eq(groups.id, row.id));
      await recordAdminAction({
        db,
        tenantId: actor.tenantId,
        actorId: actor.userId,
        action: 'group_renamed',
        target: { type: 'group', id: row.id, label: options.name },
        details: { from: row.name, to: options.name },
      });
    }
    return present(db, { ...row, name: options.name });
  });
}

export async function deleteGroup(options: { db: Db; actor: Actor; groupId: string }): Promise<{ groupId: string }> {
  const { actor } = options;
  return inTransaction(options.db, async (db) => {
    const row = await groupOf(db, actor.tenantId, options.groupId, true);
    const [members] = await db.select({ n: count() }).from(groupMembers).where(eq(groupMembers.groupId, row.id));
    await db.delete(groups).where(eq(groups.id, row.id));
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'group_deleted',
      target: { type: 'group', id: row.id, label: row.name },
      details: { members: members?.n ?? 0 },
    });
    return { groupId: row.id };
  });
}

/**
 * Adds members. With `manager`, exactly one person is given and becomes the manager (the
 * previous manager stays a member): -172 when they already manage this group, -141 when they
 * manage another. Without it, naming the manager again is -172; people already in are left as
 * they are.
 */
export async function addGroupUsers(options: { db: Db; actor: Actor; groupId: string; userIds: readonly string[]; manager: boolean }): Promise<Group> {
  const { actor } = options;
  const userIds = unique(options.userIds);
  return inTransaction(options.db, async (db) => {
    const row = await groupOf(db, actor.tenantId, options.groupId, true);
    const people = await tenantMembers(db, actor.tenantId, userIds);
    const current = await db.select().from(groupMembers).where(eq(groupMembers.groupId, row.id));
    const managerId = current.find((m) => m.isManager)?.userId;
    const already = new Set(current.map((m) => m.userId));
    if (options.manager) {
      if (userIds.length !== 1) throw invalidInput('Name exactly one person to make manager.', [{ path: 'userIds', message: 'one person' }]);
      const [userId] = userIds as [string];
      if (userId === managerId) throw new DomainError(ResponseCode.ALREADY_MEMBER_OF_GROUP_MANAGER, `${people[0]!.email} already manages this group.`);
      await assertManagesNothing(db, actor.tenantId, userId, row.id);
      if (managerId) await db.update(groupMembers).set({ isManager: false }).where(and(eq(groupMembers.groupId, row.id), eq(groupMembers.userId, managerId)));
      if (already.has(userId)) {
        await db.update(groupMembers).set({ isManager: true }).where(and(eq(groupMembers.groupId, row.id), eq(groupMembers.userId, userId)));
      } else {
        await db.insert(groupMembers).values({ groupId: row.id, tenantId: actor.tenantId, userId, isManager: true });
      }
    } else {
      const manager = people.find((p) => p.id === managerId);
      if (manager) throw new DomainError(ResponseCode.ALREADY_MEMBER_OF_GROUP_MANAGER, `${manager.email} is already this group's manager.`);
      const added = userIds.filter((id) => !already.has(id));
      if (added.length > 0) await db.insert(groupMembers).values(added.map((userId) => ({ groupId: row.id, tenantId: actor.tenantId, userId })));
    }
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'group_members_added',
      target: { type: 'group', id: row.id, label: row.name },
      details: { members: people.map((p) => p.email), manager: options.manager },
    });
    return present(db, row);
  });
}

/** Removes members; the manager cannot be removed (-165): make someone else manager first. */
export async function removeGroupUsers(options: { db: Db; actor: Actor; groupId: string; userIds: readonly string[] }): Promise<Group> {
  const { actor } = options;
  const userIds = unique(options.userIds);
  return inTransaction(options.db, async (db) => {
    const row = await groupOf(db, actor.tenantId, options.groupId, true);
    const leaving = await db
      .select({ userId: groupMembers.userId, isManager: groupMembers.isManager, email: users.email })
      .from(groupMembers)
      .innerJoin(users, eq(users.id, groupMembers.userId))
      .where(and(eq(groupMembers.groupId, row.id), inArray(groupMembers.userId, userIds)));
    const manager = leaving.find((m) => m.isManager);
    if (manager) throw new DomainError(ResponseCode.CANNOT_DELETE_MANAGER, `${manager.email} manages this group: make someone else manager first.`);
    if (leaving.length !== userIds.length) throw invalidInput('Some of these people are not in the group.', [{ path: 'userIds', message: 'not members of the group' }]);
    await db.delete(groupMembers).where(and(eq(groupMembers.groupId, row.id), inArray(groupMembers.userId, userIds)));
    await recordAdminAction({
      db,
      tenantId: actor.tenantId,
      actorId: actor.userId,
      action: 'group_members_removed',
      target: { type: 'group', id: row.id, label: row.name },
      details: { members: leaving.map((m) => m.email) },
    });
    return present(db, row);
  });
}

/** The groups a person is in (as member or manager) in a tenant, for the group charts. */
export async function groupsOf(db: Db, tenantId: string, userId: string): Promise<Array<{ groupId: string; isManager: boolean }>> {
  return db
    .select({ groupId: groupMembers.groupId, isManager: groupMembers.isManager })
    .from(groupMembers)
    .where(and(eq(groupMembers.tenantId, tenantId), eq(groupMembers.userId, userId)));
}

async function groupOf(db: Db, tenantId: string, groupId: string, lock = false): Promise<GroupRow> {
  const query = db
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.tenantId, tenantId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

async function present(db: Db, row: GroupRow): Promise<Group> {
  const members = await db
    .select({ userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, manager: groupMembers.isManager })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, row.id));
  members.sort((a, b) => Number(b.manager) - Number(a.manager) || fullName(a).localeCompare(fullName(b)) || a.email.localeCompare(b.email));
  return { groupId: row.id, groupName: row.name, createdOn: row.createdAt.toISOString(), users: members };
}

async function assertNameFree(db: Db, tenantId: string, name: string, except?: string): Promise<void> {
  const [taken] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), sql`lower(${groups.name}) = lower(${name})`, except ? ne(groups.id, except) : undefined));
  if (taken) throw nameTaken(name);
}

const nameTaken = (name: string) => invalidInput(`A group named ${name} exists already.`, [{ path: 'groupName', message: 'already used' }]);

/** -141 when the person manages a group of the tenant other than `groupId`. */
async function assertManagesNothing(db: Db, tenantId: string, userId: string, groupId: string | null): Promise<void> {
  const [managed] = await db
    .select({ name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.tenantId, tenantId), eq(groupMembers.userId, userId), eq(groupMembers.isManager, true), groupId ? ne(groupMembers.groupId, groupId) : undefined));
  if (managed) throw new DomainError(ResponseCode.DUPLICATE_MANAGER_GROUP, `This person already manages the group ${managed.name}.`);
}

/** The people of `userIds`, each a member of the tenant (invited or active, not disabled); -6 otherwise. */
async function tenantMembers(db: Db, tenantId: string, userIds: readonly string[]): Promise<Array<{ id: string; email: string }>> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id, email: users.email, status: memberships.status })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.userId, [...userIds])));
  const usable = rows.filter((row) => row.status !== 'disabled');
  if (usable.length !== userIds.length) {
    // Who is missing is not said: an id from another tenant must not be told apart from none.
    throw invalidInput('Only enabled members of this tenant can be in its groups.', [{ path: 'userIds', message: 'not members of this tenant' }]);
  }
  return usable.map(({ id, email }) => ({ id, email }));
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/**
 * Runs `work` in a transaction; a unique index that a concurrent transaction won becomes the
 * answer its check would have given.
 */
async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction((tx) => work(tx));
  } catch (error) {
    const constraint = (error as { constraint?: string; cause?: { constraint?: string } }).constraint ?? (error as { cause?: { constraint?: string } }).cause?.constraint;
    if (constraint === 'groups_name') throw invalidInput('A group with this name exists already.', [{ path: 'groupName', message: 'already used' }]);
    if (constraint === 'group_members_manages_one' || constraint === 'group_members_one_manager') {
      throw new DomainError(ResponseCode.DUPLICATE_MANAGER_GROUP, 'This person already manages another group.');
    }
    throw error;
  }
}
