import {
  can,
  type CeremonyRubberStamps,
  displayName,
  DomainError,
  enforce,
  mayUseRubberStamp,
  notFound,
  ResponseCode,
  type Role,
  RUBBER_STAMP_MAX_SIDE_PX,
  RUBBER_STAMP_MAX_SIZE_BYTES,
  RUBBER_STAMP_MAX_SIZE_KB,
  type RubberStamp,
  type ShareRubberStampBody,
} from '@pakt/domain';
import { and, asc, eq, exists, inArray, or, type Placeholder, type SQL } from 'drizzle-orm';
import { Readable } from 'node:stream';
import type { Db } from '../../platform/db/database';
import { groupMembers, groups, memberships, rubberStamps, rubberStampShares, users } from '../../platform/db/schema';
import { loadTenantSettings } from '../identity';
import { readImageSize } from '../letterheads';
import type { FileStorage } from '../../platform/storage/file-storage';

/**
 * Rubber stamps (issue 8, spec §6 and §7): a member's images, kept to be applied when signing,
 * shared with other members and with groups. Every query is scoped by the tenant; a stamp of
 * another tenant, or one the caller may not see, does not exist for them (404).
 */

/** Who acts: the caller inside their tenant, with their role there. */
export interface StampActor {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: Role;
}

type Row = typeof rubberStamps.$inferSelect;

export const stampTooLarge = () =>
  new DomainError(ResponseCode.SIGNATURE_UPLOAD_SIZE, `The stamp image is larger than ${RUBBER_STAMP_MAX_SIZE_KB} KB.`, {
    httpStatus: 413,
    issues: [{ path: 'file', message: 'maxSizeExceeded' }],
  });
export const notAStampImage = () =>
  new DomainError(ResponseCode.INVALID_INPUT, 'Please select image in jpg/png/jpeg', { issues: [{ path: 'file', message: 'imageTypeNotAllowed' }] });
const noSuchStamp = () => notFound('No such rubber stamp.');

/**
 * The stamps `userId` may apply: their own, or shared with them or with a group of theirs. The ids
 * may be placeholders, for a statement prepared once (the ePak detail's, stampsAvailableTo).
 */
function availableTo(db: Db, tenantId: string | Placeholder, userId: string | Placeholder): SQL {
  const theirGroups = db.select({ id: groupMembers.groupId }).from(groupMembers).where(and(eq(groupMembers.tenantId, tenantId), eq(groupMembers.userId, userId)));
  const shared = db
    .select({ one: rubberStampShares.id })
    .from(rubberStampShares)
    .where(
      and(
        eq(rubberStampShares.stampId, rubberStamps.id),
        eq(rubberStampShares.tenantId, tenantId),
        or(eq(rubberStampShares.userId, userId), inArray(rubberStampShares.groupId, theirGroups)),
      ),
    );
  return and(eq(rubberStamps.tenantId, tenantId), or(eq(rubberStamps.ownerId, userId), exists(shared)))!;
}

async function sharesOf(db: Db, stampIds: readonly string[]) {
  if (stampIds.length === 0) return new Map<string, RubberStamp['sharedWith']>();
  const rows = await db
    .select({
      stampId: rubberStampShares.stampId,
      userId: rubberStampShares.userId,
      groupId: rubberStampShares.groupId,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      groupName: groups.name,
    })
    .from(rubberStampShares)
    .leftJoin(users, eq(users.id, rubberStampShares.userId))
    .leftJoin(groups, eq(groups.id, rubberStampShares.groupId))
    .where(inArray(rubberStampShares.stampId, [...stampIds]))
    .orderBy(asc(rubberStampShares.createdAt), asc(rubberStampShares.id));
  const out = new Map<string, RubberStamp['sharedWith']>();
  for (const row of rows) {
    const entry = out.get(row.stampId) ?? { users: [], groups: [] };
    if (row.userId && row.email !== null) {
      entry.users.push({ userId: row.userId, email: row.email, name: displayName({ ...row, email: row.email }) });
    }
    if (row.groupId && row.groupName !== null) entry.groups.push({ groupId: row.groupId, groupName: row.groupName });
    out.set(row.stampId, entry);
  }
  return out;
}

async function presentAll(db: Db, actor: StampActor, rows: readonly Row[]): Promise<RubberStamp[]> {
  const ownerIds = [...new Set(rows.map((row) => row.ownerId))];
  const owners = ownerIds.length
    ? new Map(
        (await db.select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ownerIds))).map((u) => [
          u.id,
          displayName(u),
        ]),
      )
    : new Map<string, string>();
  // Who a stamp is shared with is the owner's business: others see only that they may use it.
  const shares = await sharesOf(
    db,
    rows.filter((row) => row.ownerId === actor.userId).map((row) => row.id),
  );
  return rows.map((row) => ({
    rubberStampId: row.id,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    ownerId: row.ownerId,
    ownerName: owners.get(row.ownerId) ?? '',
    owned: row.ownerId === actor.userId,
    // Listed means visible to the actor (theirs, shared with them, or an admin's view of all).
    deletable: can(actor, 'rubberStamp.delete', { ...row, sharedWithActor: true }),
    sharedWith: shares.get(row.id) ?? { users: [], groups: [] },
    updatedOn: row.updatedAt.toISOString(),
  }));
}

const byOwnThenName = (actor: Pick<StampActor, 'userId'>) => (a: Pick<Row, 'ownerId' | 'name' | 'id'>, b: Pick<Row, 'ownerId' | 'name' | 'id'>) =>
  Number(b.ownerId === actor.userId) - Number(a.ownerId === actor.userId) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** The caller's passcode flag in their tenant (false when they are not a member). */
export async function passcodeFlagOf(db: Db, tenantId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ passcodeFlag: memberships.passcodeFlag, status: memberships.status })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
  return row?.status === 'active' && row.passcodeFlag;
}

/** GET /msbapi/v2/rubberstamp: own stamps first, then those shared with the caller, by name. */
export async function listStamps(options: { db: Db; actor: StampActor }) {
  const { db, actor } = options;
  const rows = (await db.select().from(rubberStamps).where(availableTo(db, actor.tenantId, actor.userId))).sort(byOwnThenName(actor));
  const tenantGroups = await db.select({ groupId: groups.id, groupName: groups.name }).from(groups).where(eq(groups.tenantId, actor.tenantId)).orderBy(asc(groups.name));
  return {
    stamps: await presentAll(db, actor, rows),
    passcodeFlag: await passcodeFlagOf(db, actor.tenantId, actor.userId),
    groups: tenantGroups,
  };
}

/** The tidied name of a stamp: the one given, else the file's, else a neutral one. */
export function stampNameOf(name: string | undefined, fileName: string | undefined): string {
  const given = (name ?? '').replace(/\p{Cc}/gu, '').trim();
  if (given) return given.slice(0, 100);
  const base = (fileName ?? '').split(/[\\/]/).pop()!.replace(/\p{Cc}/gu, '').replace(/\.(png|jpe?g)$/i, '').trim();
  return (base || 'stamp').slice(0, 100);
}

/** Judges an uploaded image by its bytes and stores it; nothing is stored for a refused one. */
async function storeImage(storage: FileStorage, bytes: Buffer) {
  if (bytes.length > RUBBER_STAMP_MAX_SIZE_BYTES) throw stampTooLarge();
  const image = readImageSize(bytes, RUBBER_STAMP_MAX_SIDE_PX);
  if (!image) throw notAStampImage();
  const stored = await storage.put(Readable.from([bytes]));
  return { contentType: image.contentType, sha256: stored.sha256, size: stored.size, width: image.width, height: image.height };
}

/** POST /msbapi/v2/rubberstamp. */
export async function createStamp(options: { db: Db; storage: FileStorage; actor: StampActor; name: string; bytes: Buffer }): Promise<RubberStamp> {
  const { db, actor } = options;
  const image = await storeImage(options.storage, options.bytes);
  const [row] = await db
    .insert(rubberStamps)
    .values({ tenantId: actor.tenantId, ownerId: actor.userId, name: options.name, ...image })
    .returning();
  return (await presentAll(db, actor, [row!]))[0]!;
}

/**
 * One stamp of the tenant, locked for a change the caller may make (the rubberStamp policies):
 * 404 when they may not even see it, so ids of others' stamps cannot be probed, 403 when they see
 * it but may not do this.
 */
async function lockFor(db: Db, actor: StampActor, stampId: string, action: 'rubberStamp.change' | 'rubberStamp.delete'): Promise<Row> {
  const [row] = await db
    .select()
    .from(rubberStamps)
    .where(and(eq(rubberStamps.id, stampId), eq(rubberStamps.tenantId, actor.tenantId)))
    .for('update');
  if (!row) throw noSuchStamp();
  const [shared] =
    row.ownerId === actor.userId
      ? []
      : await db.select({ id: rubberStamps.id }).from(rubberStamps).where(and(eq(rubberStamps.id, stampId), availableTo(db, actor.tenantId, actor.userId)));
  enforce(actor, action, { ...row, sharedWithActor: shared !== undefined });
  return row;
}

/** PUT /msbapi/v2/rubberstamp: the owner renames it and/or replaces its image. */
export async function updateStamp(options: { db: Db; storage: FileStorage; actor: StampActor; stampId: string; name?: string; bytes?: Buffer }): Promise<RubberStamp> {
  const { actor } = options;
  // The image is judged and stored before the row is locked: a refused one changes nothing.
  const image = options.bytes ? await storeImage(options.storage, options.bytes) : undefined;
  return options.db.transaction(async (db) => {
    const row = await lockFor(db, actor, options.stampId, 'rubberStamp.change');
    const [updated] = await db
      .update(rubberStamps)
      .set({ ...(options.name ? { name: options.name } : {}), ...(image ?? {}), updatedAt: new Date() })
      .where(eq(rubberStamps.id, row.id))
      .returning();
    return (await presentAll(db, actor, [updated!]))[0]!;
  });
}

/** DELETE /msbapi/v2/rubberstamp/:id: the owner, or an admin; the sharing rows go with it. */
export async function deleteStamp(options: { db: Db; actor: StampActor; stampId: string }): Promise<void> {
  const { actor } = options;
  await options.db.transaction(async (db) => {
    const row = await lockFor(db, actor, options.stampId, 'rubberStamp.delete');
    await db.delete(rubberStamps).where(eq(rubberStamps.id, row.id));
  });
}

/**
 * POST /msbapi/v2/rubberstamp/share: the owner sets the full list of members and groups. Every
 * id must be a member or group of the stamp's tenant; one that is not answers 404 and nothing
 * changes (the check runs before any row is written, in the same transaction).
 */
export async function shareStamp(options: { db: Db; actor: StampActor; body: ShareRubberStampBody }): Promise<RubberStamp> {
  const { actor, body } = options;
  return options.db.transaction(async (db) => {
    const row = await lockFor(db, actor, body.rubberStampId, 'rubberStamp.change');
    // The owner has their stamp anyway; listing them would only add a row.
    const userIds = body.userIds.filter((id) => id !== actor.userId);
    if (userIds.length > 0) {
      const members = await db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.tenantId, actor.tenantId), inArray(memberships.userId, userIds)));
      if (members.length !== userIds.length) throw notFound('Someone to share with is not a member of this organisation.');
    }
    if (body.groupIds.length > 0) {
      const found = await db.select({ id: groups.id }).from(groups).where(and(eq(groups.tenantId, actor.tenantId), inArray(groups.id, body.groupIds)));
      if (found.length !== body.groupIds.length) throw notFound('A group to share with is not one of this organisation.');
    }
    await db.delete(rubberStampShares).where(eq(rubberStampShares.stampId, row.id));
    const values = [
      ...userIds.map((userId) => ({ stampId: row.id, tenantId: actor.tenantId, userId })),
      ...body.groupIds.map((groupId) => ({ stampId: row.id, tenantId: actor.tenantId, groupId })),
    ];
    if (values.length > 0) await db.insert(rubberStampShares).values(values);
    const [updated] = await db.update(rubberStamps).set({ updatedAt: new Date() }).where(eq(rubberStamps.id, row.id)).returning();
    return (await presentAll(db, actor, [updated!]))[0]!;
  });
}

/** A stamp `userId` may apply (own or shared, this tenant), or undefined. */
export async function loadAvailableStamp(options: { db: Db; tenantId: string; userId: string; stampId: string }): Promise<Row | undefined> {
  const [row] = await options.db
    .select()
    .from(rubberStamps)
    .where(and(eq(rubberStamps.id, options.stampId), availableTo(options.db, options.tenantId, options.userId)));
  return row;
}

/** GET …/rubberstamp/:id/image: for the owner and those it is shared with (an admin's list has no others). */
export async function loadStampForImage(options: { db: Db; actor: StampActor; stampId: string }): Promise<Row> {
  const row = await loadAvailableStamp({ db: options.db, tenantId: options.actor.tenantId, userId: options.actor.userId, stampId: options.stampId });
  if (!row) throw noSuchStamp();
  return row;
}

/**
 * Whether `userId` may apply rubber stamps in `tenantId` now (spec §6: the tenant's flag and
 * their passcode flag), and with the stamps available to them.
 */
export async function mayApplyStamps(db: Db, tenantId: string, userId: string): Promise<boolean> {
  const { settings, passcodeFlag } = await stampSettingsOf(db, tenantId, userId);
  return mayUseRubberStamp({ rubberStampEnabled: settings.rubberStampEnabled, passcodeFlag });
}

/** The facts the rubberStamp.apply policy needs besides the stamp: the tenant's flag and the signer's passcode flag. */
export async function stampSettingsOf(db: Db, tenantId: string, userId: string): Promise<{ settings: { rubberStampEnabled: boolean }; passcodeFlag: boolean }> {
  const settings = await loadTenantSettings(db, tenantId);
  // Not asked when the tenant's flag is off: the answer is no either way.
  const passcodeFlag = settings.rubberStampEnabled === true ? await passcodeFlagOf(db, tenantId, userId) : false;
  return { settings: { rubberStampEnabled: settings.rubberStampEnabled === true }, passcodeFlag };
}

/** The chooser of the signing ceremony: what the viewer of an ePak of `tenantId` carries. */
export async function ceremonyStamps(options: { db: Db; tenantId: string; userId: string }): Promise<CeremonyRubberStamps> {
  const { db, tenantId, userId } = options;
  if (!(await mayApplyStamps(db, tenantId, userId))) return { available: false, stamps: [] };
  return { available: true, stamps: stampChoices(await db.select().from(rubberStamps).where(availableTo(db, tenantId, userId)), userId) };
}

/** What the chooser shows of a stamp, and sorts by. */
export type StampChoiceRow = Pick<Row, 'id' | 'name' | 'width' | 'height' | 'ownerId'>;

/** The chooser's list: the caller's own stamps first, then by name. */
function stampChoices(rows: readonly StampChoiceRow[], userId: string): CeremonyRubberStamps['stamps'] {
  return [...rows]
    .sort(byOwnThenName({ userId }))
    .map((row) => ({ rubberStampId: row.id, name: row.name, width: row.width, height: row.height, owned: row.ownerId === userId }));
}

/**
 * availableTo as a condition on rubber_stamps (the table unaliased), for a statement prepared once
 * with placeholders: the ePak detail reads the chooser's stamps in its one statement.
 */
export function stampsAvailableTo(db: Db, tenantId: string | Placeholder, userId: string | Placeholder): SQL {
  return availableTo(db, tenantId, userId);
}

/**
 * ceremonyStamps from facts read elsewhere (the ePak detail's one statement): the tenant's flag, the
 * caller's passcode flag there (an active membership's) and the stamps stampsAvailableTo finds,
 * null when they were not read. The same rule (mayUseRubberStamp) and the same order.
 */
export function presentCeremonyStamps(options: { rubberStampEnabled: boolean; passcodeFlag: boolean; userId: string; rows: readonly StampChoiceRow[] | null }): CeremonyRubberStamps {
  const rubberStampEnabled = options.rubberStampEnabled === true;
  if (!mayUseRubberStamp({ rubberStampEnabled, passcodeFlag: rubberStampEnabled && options.passcodeFlag })) return { available: false, stamps: [] };
  if (!options.rows) throw new Error('the stamps a caller may apply were not read');
  return { available: true, stamps: stampChoices(options.rows, options.userId) };
}
