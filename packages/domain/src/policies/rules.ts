import { type Action, type Actor, authorize } from '../permissions/actions';
import { isTagFor } from '../tags/rules';
import type {
  AnnouncementResource,
  EpakResource,
  EpakTagResource,
  GroupResource,
  InvitationResource,
  OwnedResource,
  ResourceActor,
  RubberStampResource,
  RubberStampUseResource,
} from './resources';

/**
 * Why a resource is refused. `hidden` answers 404 like an absent resource, so ids cannot be
 * probed (DESIGN §2: "Someone outside the tenant gets 404, not 403"); `forbidden` answers -11 with
 * 403 to someone who may see the resource but not do this to it.
 */
export type ResourceRefusal = { readonly allowed: false; readonly reason: 'hidden' | 'forbidden'; readonly message: string };
export type ResourceDecision = { readonly allowed: true } | ResourceRefusal;

const ALLOWED: ResourceDecision = Object.freeze({ allowed: true });
const hidden = (message: string): ResourceRefusal => ({ allowed: false, reason: 'hidden', message });
const forbidden = (message: string): ResourceRefusal => ({ allowed: false, reason: 'forbidden', message });

const inTenant = (actor: ResourceActor, resource: { readonly tenantId: string | null }) =>
  actor.tenantId !== undefined && actor.tenantId === resource.tenantId;
const isOwner = (actor: ResourceActor, resource: OwnedResource) => inTenant(actor, resource) && resource.ownerId === actor.userId;
/** Owner-or-admin: "the tenant's to use; changing one is for whoever made it, or an admin". */
const ownerOrAdmin = (actor: ResourceActor, resource: OwnedResource) => isOwner(actor, resource) || (inTenant(actor, resource) && actor.role === 'admin');

/** A role-table action asked with a role; a policy needing a role fails closed without one. */
function roleAllows(actor: ResourceActor, action: Action, context: Parameters<typeof authorize>[2] = {}): boolean {
  if (actor.role === undefined) return false;
  const withRole: Actor = { userId: actor.userId, role: actor.role, ...(actor.tenantId === undefined ? {} : { tenantId: actor.tenantId }) };
  return authorize(withRole, action, context).allowed;
}

function epakView(actor: ResourceActor, epak: EpakResource): ResourceDecision {
  if (isOwner(actor, epak)) return ALLOWED;
  // A draft is its owner's alone: recipients learn of an ePak when it is sent.
  if (inTenant(actor, epak) && epak.actorIsRecipient && epak.status !== 'Draft') return ALLOWED;
  return hidden('No such ePak.');
}

const afterView =
  (rule: (actor: ResourceActor, epak: EpakResource) => ResourceDecision) =>
  (actor: ResourceActor, epak: EpakResource): ResourceDecision => {
    const view = epakView(actor, epak);
    return view.allowed ? rule(actor, epak) : view;
  };

function stampView(actor: ResourceActor, stamp: RubberStampResource): ResourceDecision {
  // An admin sees every stamp of the tenant (to delete one); anyone else only theirs and those
  // shared with them.
  if (ownerOrAdmin(actor, stamp) || (inTenant(actor, stamp) && stamp.sharedWithActor)) return ALLOWED;
  return hidden('No such rubber stamp.');
}

/**
 * Every per-resource rule, by action. Each takes the actor and the loaded resource and never
 * throws; the server turns a refusal into its answer (enforce), the web app hides what is refused.
 */
export const RESOURCE_POLICIES = {
  // ---- ePaks: the owner manages; recipients act on their own places (spec §4, §7 epak calls).
  'epak.view': epakView,
  // Star, delete, archive, notification date, archival period, reminders, removing recipients,
  // editing, stopping and hosting an in-person signing: the owner's (issue 5).
  'epak.manage': afterView((actor, epak) => (isOwner(actor, epak) ? ALLOWED : forbidden('Only the owner of this ePak may do this.'))),
  // Signing, reviewing, rejecting: a recipient's. Whether their step is under way is the engine's
  // answer (-28), since it depends on the ePak's state, not on who asks.
  'epak.respond': afterView((_actor, epak) => (epak.actorIsRecipient ? ALLOWED : forbidden('Only a recipient of this ePak acts on it.'))),
  // Taking a delegation back: the owner, or the recipient who delegated.
  'epak.recallDelegation': afterView((actor, epak) =>
    isOwner(actor, epak) || epak.actorDelegated === true ? ALLOWED : forbidden('Only the owner or the recipient who delegated takes a delegation back.'),
  ),
  // A tag is filled by the person it was placed for, in their step (spec §5).
  'epakTag.fill': (_actor: ResourceActor, resource: EpakTagResource): ResourceDecision =>
    isTagFor(resource.tag, resource.filler) ? ALLOWED : forbidden('This field is not yours to fill.'),

  // ---- Uploaded documents are their uploader's until composed into an ePak.
  'document.use': (actor: ResourceActor, document: OwnedResource): ResourceDecision => (isOwner(actor, document) ? ALLOWED : hidden('No such document.')),

  // ---- Templates and letterheads are the tenant's to use; changing one is for whoever made it, or an admin.
  'documentTemplate.change': (actor: ResourceActor, template: OwnedResource): ResourceDecision => {
    if (!inTenant(actor, template)) return hidden('No such document template.');
    return ownerOrAdmin(actor, template) ? ALLOWED : forbidden('Only whoever made this template, or an admin, may change it.');
  },
  'workflowTemplate.change': (actor: ResourceActor, template: OwnedResource): ResourceDecision => {
    if (!inTenant(actor, template)) return hidden('No such workflow template.');
    return ownerOrAdmin(actor, template) ? ALLOWED : forbidden('Only the person who made this workflow template, or an admin, may change it.');
  },
  'letterhead.delete': (actor: ResourceActor, letterhead: OwnedResource): ResourceDecision => {
    if (!inTenant(actor, letterhead)) return hidden('No such letterhead template.');
    return ownerOrAdmin(actor, letterhead) ? ALLOWED : forbidden('Only whoever uploaded this letterhead, or an admin, may delete it.');
  },

  // ---- Rubber stamps (spec §6, issue 8).
  'rubberStamp.view': stampView,
  // Renaming, a new image and sharing are the owner's alone: an admin may remove a stamp, not
  // make one say something else.
  'rubberStamp.change': (actor: ResourceActor, stamp: RubberStampResource): ResourceDecision => {
    const view = stampView(actor, stamp);
    if (!view.allowed) return view;
    return isOwner(actor, stamp) ? ALLOWED : forbidden('Only the owner of this rubber stamp may change it.');
  },
  'rubberStamp.delete': (actor: ResourceActor, stamp: RubberStampResource): ResourceDecision => {
    const view = stampView(actor, stamp);
    if (!view.allowed) return view;
    return ownerOrAdmin(actor, stamp) ? ALLOWED : forbidden('Only the owner of this rubber stamp, or an admin, may delete it.');
  },
  // Applying one when signing: the setting, the signer's passcode flag, and a stamp that is
  // theirs or shared with them. Every such refusal answers alike (-11), so ids cannot be probed.
  'rubberStamp.apply': (actor: ResourceActor, use: RubberStampUseResource): ResourceDecision =>
    use.settings.rubberStampEnabled && use.actorPasscodeFlag && (isOwner(actor, use) || (inTenant(actor, use) && use.sharedWithActor))
      ? ALLOWED
      : forbidden('You may not apply this rubber stamp: it needs the rubber-stamp setting, your passcode flag, and a stamp that is yours or shared with you.'),

  // ---- Groups: read by whoever composes, shaped by the tenant's admins (role table), never across tenants.
  'group.view': (actor: ResourceActor, group: GroupResource): ResourceDecision =>
    inTenant(actor, group) && roleAllows(actor, 'group.read') ? ALLOWED : hidden('No such group.'),
  'group.change': (actor: ResourceActor, group: GroupResource): ResourceDecision => {
    if (!inTenant(actor, group)) return hidden('No such group.');
    return roleAllows(actor, 'group.manage') ? ALLOWED : forbidden('Only an administrator changes groups.');
  },

  // ---- Announcements: a tenant's admins write its banner, root the instance-wide one.
  'announcement.change': (actor: ResourceActor, announcement: AnnouncementResource): ResourceDecision => {
    if (announcement.tenantId === null) return actor.role === 'root' ? ALLOWED : hidden('No such announcement.');
    if (!inTenant(actor, announcement)) return hidden('No such announcement.');
    return actor.role === 'admin' ? ALLOWED : forbidden('Only an administrator changes announcements.');
  },

  // ---- Invitations and the users they name.
  // Resending or cancelling: user administration, and a super admin's invitation is the super
  // admins' (the role table protects super admins from every other user-management action too).
  'invitation.manage': (actor: ResourceActor, invitation: InvitationResource): ResourceDecision => {
    if (!inTenant(actor, invitation)) return hidden('No such invitation.');
    if (invitation.role === 'super_admin') return forbidden("A super admin's invitation is managed by the super admins of the tenant.");
    return roleAllows(actor, 'user.invite') ? ALLOWED : forbidden('Only an administrator manages invitations.');
  },
  // Accepting is for the account it was sent to, from a session of that account.
  'invitation.accept': (actor: ResourceActor, invitation: InvitationResource): ResourceDecision =>
    actor.userId === invitation.userId ? ALLOWED : forbidden('This invitation is for another address: sign in with the account it was sent to.'),
} as const;

export type ResourceAction = keyof typeof RESOURCE_POLICIES;
export const RESOURCE_ACTIONS = Object.keys(RESOURCE_POLICIES) as ResourceAction[];
/** The resource an action is asked about. */
export type ResourceOf<A extends ResourceAction> = Parameters<(typeof RESOURCE_POLICIES)[A]>[1];
