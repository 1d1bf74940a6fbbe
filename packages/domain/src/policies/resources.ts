import type { Role } from '../constants/roles';
import type { Tag } from '../tags';
import type { PermissionSettings } from '../permissions/settings';

/**
 * Who asks about one resource. `role` is optional because some callers (a signing-link session, a
 * job) act without one: rules that need a role then fail closed. `tenantId` is the verified tenant
 * (DESIGN §2); root, outside every tenant, has none.
 */
export interface ResourceActor {
  readonly userId: string;
  readonly tenantId?: string;
  readonly role?: Role;
}

/** Anything owned by one person inside one tenant (templates, letterheads, stamps, documents). */
export interface OwnedResource {
  readonly tenantId: string;
  /** null once the owner's account is gone: only an admin may then change it. */
  readonly ownerId: string | null;
}

/**
 * An ePak as its policies see it. The relation facts are about the asking actor: the server reads
 * them with the ePak (its recipients), the web app from the detail's viewer.
 */
export interface EpakResource extends OwnedResource {
  readonly status: string;
  /** The actor holds a place in one of its steps. */
  readonly actorIsRecipient: boolean;
  /** The actor delegated a place of theirs to someone else (and may take it back). */
  readonly actorDelegated?: boolean;
}

/** A tag of an ePak's document and the person filling it in (their address and step). */
export interface EpakTagResource {
  readonly tag: Pick<Tag, 'userEmail' | 'wfsOrderId'>;
  readonly filler: { readonly email: string; readonly stepOrder: number | null };
}

/** A rubber stamp: the owner's, visible to those it is shared with (spec §6). */
export interface RubberStampResource extends OwnedResource {
  /** The stamp is shared with the actor, directly or through one of their groups. */
  readonly sharedWithActor: boolean;
}

/** What applying a stamp while signing needs besides the stamp itself (spec §6). */
export interface RubberStampUseResource extends RubberStampResource {
  readonly settings: Pick<PermissionSettings, 'rubberStampEnabled'>;
  /** The signer's passcode flag, an administrator's grant (spec §3 user info). */
  readonly actorPasscodeFlag: boolean;
}

/** A group of the tenant's members (spec §7 Groups). */
export interface GroupResource {
  readonly tenantId: string;
}

/** A banner: a tenant's own, or the instance-wide one (tenantId null) that root writes. */
export interface AnnouncementResource {
  readonly tenantId: string | null;
}

/** A pending invitation into a tenant, addressed to one account. */
export interface InvitationResource {
  readonly tenantId: string;
  /** The invited account. */
  readonly userId: string;
  /** The role it grants. */
  readonly role: Role;
}

/**
 * An ePak as the web app holds it (a detail with its viewer, or an inbox row) made into the
 * resource its policies ask about. An inbox row of someone else's ePak is there because the actor
 * is one of its recipients.
 */
export function epakResourceOf(
  actor: ResourceActor & { readonly tenantId: string },
  epak: { readonly ownerId: string; readonly status: string; readonly viewer?: { readonly recipientId: string | null } | undefined },
): EpakResource {
  const actorIsRecipient = epak.viewer ? epak.viewer.recipientId !== null : epak.ownerId !== actor.userId;
  return { tenantId: actor.tenantId, ownerId: epak.ownerId, status: epak.status, actorIsRecipient };
}
