import { fullName } from '@pakt/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, users } from '../../platform/db/schema';

/** The parts of a user record that say who signs. */
export interface SignerRecord {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly type: string;
}

/**
 * The name a record really carries. An external recipient is created from an address alone, with
 * the address's local part as a stand-in first name (compose.ts): that is not a name, so it is
 * treated as none and the signer is asked for theirs.
 */
export function recordedName(user: SignerRecord): string | null {
  const name = fullName(user);
  if (!name) return null;
  if (user.type === 'external' && user.lastName === '' && user.firstName === user.email.split('@')[0]) return null;
  return name;
}

/**
 * Whether the ceremony must ask for the signer's name (issue 22): an external signer's record is
 * not theirs to have written, so they confirm (or type) their name for each ePak they sign, and
 * that typed name is what signs. A member's name is their profile's, and is used as it stands.
 */
export const nameRequiredFor = (user: SignerRecord, signedName: string | null): boolean => user.type === 'external' && !signedName;

/** The name a place signs and shows under: what was typed there, else the record's, else the address. */
export const placeName = (user: SignerRecord, signedName: string | null): string => signedName ?? recordedName(user) ?? user.email;

/**
 * The name a sign request signs under, or null when it must be refused for want of one. A typed
 * name counts only for an external signer: a member signs under their profile's name.
 */
export function typedSignerName(options: { user: SignerRecord; signedName: string | null; typed: string | undefined }): string | null {
  const { user, signedName, typed } = options;
  if (user.type !== 'external') return recordedName(user) ?? user.email;
  return typed ?? signedName;
}

/**
 * Keeps what an external signer typed: on their place (it is what this ePak shows of them) and,
 * while they have no account of their own, on their record, so later mail and ePaks greet them by
 * it rather than by their address. A registered person's record is theirs alone to change.
 */
export async function storeTypedName(tx: Db, options: { recipientId: string; userId: string; name: string }): Promise<void> {
  await tx.update(epakRecipients).set({ signedName: options.name }).where(eq(epakRecipients.id, options.recipientId));
  await tx
    .update(users)
    .set({ firstName: options.name, middleName: null, lastName: '' })
    .where(and(eq(users.id, options.userId), eq(users.type, 'external'), isNull(users.passwordHash)));
}
