import { describe, expect, it } from 'vitest';
import type { Role } from '../constants/roles';
import { DomainError } from '../domain-error';
import { can, decide, enforce } from './decide';
import { type EpakResource, epakResourceOf, type ResourceActor, type RubberStampResource } from './resources';
import { RESOURCE_ACTIONS } from './rules';

const T = 'tenant-a';
const OTHER = 'tenant-b';
// null: no tenant at all (root).
const who = (userId: string, role?: Role, tenantId: string | null = T): ResourceActor => ({
  userId,
  ...(role ? { role } : {}),
  ...(tenantId ? { tenantId } : {}),
});

// Y allowed, F forbidden (-11, 403), H hidden (404 like an absent resource).
type Outcome = 'Y' | 'F' | 'H';
const outcome = (decision: ReturnType<typeof decide>): Outcome => (decision.allowed ? 'Y' : decision.reason === 'hidden' ? 'H' : 'F');

describe('ePak policies', () => {
  const epak = (over: Partial<EpakResource> = {}): EpakResource => ({ tenantId: T, ownerId: 'owner', status: 'InProgress', actorIsRecipient: false, ...over });
  const owner = who('owner', 'custodian');
  const recipient = who('r', 'signer');
  const stranger = who('s', 'admin');
  const outsider = who('owner', 'custodian', OTHER);

  // actor, resource,                                         view manage respond recall
  const table: [string, ResourceActor, EpakResource, Outcome, Outcome, Outcome, Outcome][] = [
    ['owner', owner, epak(), 'Y', 'Y', 'F', 'Y'],
    ['owner of a draft', owner, epak({ status: 'Draft' }), 'Y', 'Y', 'F', 'Y'],
    ['owner who is also a recipient', owner, epak({ actorIsRecipient: true }), 'Y', 'Y', 'Y', 'Y'],
    ['recipient', recipient, epak({ actorIsRecipient: true }), 'Y', 'F', 'Y', 'F'],
    ['recipient who delegated', recipient, epak({ actorIsRecipient: true, actorDelegated: true }), 'Y', 'F', 'Y', 'Y'],
    ['recipient of a draft', recipient, epak({ status: 'Draft', actorIsRecipient: true }), 'H', 'H', 'H', 'H'],
    // An admin of the same tenant has no say over someone else's ePak: it does not exist for them.
    ['admin, not involved', stranger, epak(), 'H', 'H', 'H', 'H'],
    ['same user id, other tenant', outsider, epak(), 'H', 'H', 'H', 'H'],
    ['no tenant', who('owner', 'root', null), epak(), 'H', 'H', 'H', 'H'],
  ];
  it.each(table)('%s', (_label, actor, resource, view, manage, respond, recall) => {
    expect(outcome(decide(actor, 'epak.view', resource))).toBe(view);
    expect(outcome(decide(actor, 'epak.manage', resource))).toBe(manage);
    expect(outcome(decide(actor, 'epak.respond', resource))).toBe(respond);
    expect(outcome(decide(actor, 'epak.recallDelegation', resource))).toBe(recall);
  });

  it('lets a tag be filled by the person it was placed for, in their step, whatever the case of the address', () => {
    const tag = { userEmail: ' Signer@Example.com', wfsOrderId: 2 };
    const me = who('x');
    expect(can(me, 'epakTag.fill', { tag, filler: { email: 'signer@example.com', stepOrder: 2 } })).toBe(true);
    expect(can(me, 'epakTag.fill', { tag, filler: { email: 'signer@example.com', stepOrder: 3 } })).toBe(false);
    expect(can(me, 'epakTag.fill', { tag, filler: { email: 'other@example.com', stepOrder: 2 } })).toBe(false);
  });
});

describe('owner-or-admin resources', () => {
  const owned = { tenantId: T, ownerId: 'maker' };
  // actor,                                   template workflow letterhead document
  const table: [string, ResourceActor, Outcome, Outcome, Outcome, Outcome][] = [
    ['its maker', who('maker', 'submitter'), 'Y', 'Y', 'Y', 'Y'],
    ['an admin of the tenant', who('a', 'admin'), 'Y', 'Y', 'Y', 'H'],
    ['a custodian of the tenant', who('c', 'custodian'), 'F', 'F', 'F', 'H'],
    ['a super admin of the tenant', who('s', 'super_admin'), 'F', 'F', 'F', 'H'],
    ['someone without a role', who('c'), 'F', 'F', 'F', 'H'],
    ['an admin of another tenant', who('a', 'admin', OTHER), 'H', 'H', 'H', 'H'],
    ['its maker, asking from another tenant', who('maker', 'submitter', OTHER), 'H', 'H', 'H', 'H'],
  ];
  it.each(table)('%s', (_label, actor, template, workflow, letterhead, document) => {
    expect(outcome(decide(actor, 'documentTemplate.change', owned))).toBe(template);
    expect(outcome(decide(actor, 'workflowTemplate.change', owned))).toBe(workflow);
    expect(outcome(decide(actor, 'letterhead.delete', owned))).toBe(letterhead);
    expect(outcome(decide(actor, 'document.use', owned))).toBe(document);
  });

  it("leaves a template whose maker's account is gone to the tenant's admins", () => {
    const orphan = { tenantId: T, ownerId: null };
    expect(outcome(decide(who('a', 'admin'), 'documentTemplate.change', orphan))).toBe('Y');
    expect(outcome(decide(who('c', 'custodian'), 'documentTemplate.change', orphan))).toBe('F');
  });
});

describe('rubber stamps', () => {
  const stamp = (sharedWithActor: boolean): RubberStampResource => ({ tenantId: T, ownerId: 'owner', sharedWithActor });
  // actor, shared?,                                       view change delete apply(on, flag)
  const table: [string, ResourceActor, boolean, Outcome, Outcome, Outcome, Outcome][] = [
    ['owner', who('owner', 'signer'), false, 'Y', 'Y', 'Y', 'Y'],
    ['shared with', who('m', 'signer'), true, 'Y', 'F', 'F', 'Y'],
    ['admin, not shared', who('a', 'admin'), false, 'Y', 'F', 'Y', 'F'],
    ['member, not shared', who('m', 'signer'), false, 'H', 'H', 'H', 'F'],
    ['owner id, other tenant', who('owner', 'signer', OTHER), false, 'H', 'H', 'H', 'F'],
  ];
  it.each(table)('%s', (_label, actor, shared, view, change, remove, apply) => {
    expect(outcome(decide(actor, 'rubberStamp.view', stamp(shared)))).toBe(view);
    expect(outcome(decide(actor, 'rubberStamp.change', stamp(shared)))).toBe(change);
    expect(outcome(decide(actor, 'rubberStamp.delete', stamp(shared)))).toBe(remove);
    expect(outcome(decide(actor, 'rubberStamp.apply', { ...stamp(shared), settings: { rubberStampEnabled: true }, actorPasscodeFlag: true }))).toBe(apply);
  });

  it('applies a stamp only with the setting on and the passcode flag', () => {
    const owner = who('owner', 'signer');
    const use = { ...stamp(false), settings: { rubberStampEnabled: true }, actorPasscodeFlag: true };
    expect(can(owner, 'rubberStamp.apply', use)).toBe(true);
    expect(can(owner, 'rubberStamp.apply', { ...use, settings: { rubberStampEnabled: false } })).toBe(false);
    expect(can(owner, 'rubberStamp.apply', { ...use, actorPasscodeFlag: false })).toBe(false);
  });
});

describe('groups, announcements and invitations', () => {
  // actor,                                group.view group.change  tenant banner  instance banner
  const table: [string, ResourceActor, Outcome, Outcome, Outcome, Outcome][] = [
    ['admin', who('a', 'admin'), 'Y', 'Y', 'Y', 'H'],
    ['custodian', who('c', 'custodian'), 'Y', 'F', 'F', 'H'],
    ['signer', who('s', 'signer'), 'H', 'F', 'F', 'H'],
    ['admin of another tenant', who('a', 'admin', OTHER), 'H', 'H', 'H', 'H'],
    ['root', who('root', 'root', null), 'H', 'H', 'H', 'Y'],
  ];
  it.each(table)('%s', (_label, actor, groupView, groupChange, tenantBanner, instanceBanner) => {
    expect(outcome(decide(actor, 'group.view', { tenantId: T }))).toBe(groupView);
    expect(outcome(decide(actor, 'group.change', { tenantId: T }))).toBe(groupChange);
    expect(outcome(decide(actor, 'announcement.change', { tenantId: T }))).toBe(tenantBanner);
    expect(outcome(decide(actor, 'announcement.change', { tenantId: null }))).toBe(instanceBanner);
  });

  it("keeps a super admin's invitation from admins, and lets only the invited account accept", () => {
    const invitation = { tenantId: T, userId: 'invitee', role: 'custodian' as Role };
    expect(outcome(decide(who('a', 'admin'), 'invitation.manage', invitation))).toBe('Y');
    expect(outcome(decide(who('a', 'admin'), 'invitation.manage', { ...invitation, role: 'super_admin' }))).toBe('F');
    expect(outcome(decide(who('c', 'custodian'), 'invitation.manage', invitation))).toBe('F');
    expect(outcome(decide(who('a', 'admin', OTHER), 'invitation.manage', invitation))).toBe('H');
    expect(outcome(decide(who('invitee', 'signer', OTHER), 'invitation.accept', invitation))).toBe('Y');
    expect(outcome(decide(who('someone', 'admin'), 'invitation.accept', invitation))).toBe('F');
  });
});

describe('epakResourceOf', () => {
  const actor = { userId: 'me', tenantId: T };
  it('reads the relation from the viewer when there is one, and from the inbox row otherwise', () => {
    expect(epakResourceOf(actor, { ownerId: 'me', status: 'InProgress', viewer: { recipientId: null } }).actorIsRecipient).toBe(false);
    expect(epakResourceOf(actor, { ownerId: 'other', status: 'InProgress', viewer: { recipientId: 'r1' } }).actorIsRecipient).toBe(true);
    expect(epakResourceOf(actor, { ownerId: 'other', status: 'InProgress' }).actorIsRecipient).toBe(true);
    expect(epakResourceOf(actor, { ownerId: 'me', status: 'Draft' })).toEqual({ tenantId: T, ownerId: 'me', status: 'Draft', actorIsRecipient: false });
  });
});

describe('enforce', () => {
  it('answers a hidden resource 404 and a forbidden one -11 with 403, with the rule’s message', () => {
    const epak: EpakResource = { tenantId: T, ownerId: 'owner', status: 'InProgress', actorIsRecipient: true };
    expect(() => enforce(who('owner'), 'epak.manage', epak)).not.toThrow();
    const refused = (() => {
      try {
        enforce(who('r'), 'epak.manage', epak);
      } catch (error) {
        return error;
      }
    })() as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect([refused.code, refused.httpStatus, refused.message]).toEqual([-11, 403, 'Only the owner of this ePak may do this.']);
    const absent = (() => {
      try {
        enforce(who('s'), 'epak.view', { ...epak, actorIsRecipient: false });
      } catch (error) {
        return error;
      }
    })() as DomainError;
    expect([absent.code, absent.httpStatus]).toEqual([-1, 404]);
  });

  it('still answers role-table actions with their catalogue codes', () => {
    expect(() => enforce({ userId: 'u', role: 'admin', tenantId: T }, 'user.list')).not.toThrow();
    expect(() => enforce({ userId: 'u', role: 'signer', tenantId: T }, 'user.list')).toThrow(DomainError);
    expect(can({ userId: 'u', role: 'signer', tenantId: T }, 'user.list')).toBe(false);
  });

  it('has a row in these tables for every resource action', () => {
    const tested = new Set([
      'epak.view', 'epak.manage', 'epak.respond', 'epak.recallDelegation', 'epakTag.fill', 'document.use', 'documentTemplate.change',
      'workflowTemplate.change', 'letterhead.delete', 'rubberStamp.view', 'rubberStamp.change', 'rubberStamp.delete', 'rubberStamp.apply',
      'group.view', 'group.change', 'announcement.change', 'invitation.manage', 'invitation.accept',
    ]);
    expect(RESOURCE_ACTIONS.filter((action) => !tested.has(action))).toEqual([]);
  });
});
