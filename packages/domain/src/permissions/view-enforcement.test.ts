import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../constants/roles';
import { FOLDERS } from '../constants/statuses';
import { isEligibleForAction, mayActOnEpak, viewEnforcementApplies } from './view-enforcement';

describe('isEligibleForAction (spec §5)', () => {
  it.each([
    [false, false, true],
    [false, true, true],
    [true, false, false],
    [true, true, true],
  ] as const)('viewEnforced %s, isRead %s: %s', (viewEnforced, isRead, eligible) => {
    expect(isEligibleForAction({ viewEnforced, isRead })).toBe(eligible);
  });
});

// Spec §6: admin, custodian, super_admin and submitter, in the Inbox folder.
// prettier-ignore
const APPLIES_IN_INBOX: Readonly<Record<Role, boolean>> = {
  root: false, admin: true, custodian: true, signer: false, super_admin: true, submitter: true, registrar: false,
};

describe('viewEnforcementApplies (spec §6)', () => {
  it.each(ROLES.map((role) => [role, APPLIES_IN_INBOX[role]] as const))('%s in Inbox: %s', (role, applies) => {
    expect(viewEnforcementApplies(role, 'Inbox')).toBe(applies);
  });

  it.each(FOLDERS.filter((folder) => folder !== 'Inbox'))('never applies in %s', (folder) => {
    for (const role of ROLES) expect(viewEnforcementApplies(role, folder)).toBe(false);
  });
});

describe('mayActOnEpak', () => {
  it.each([
    ['custodian', 'Inbox', true, false, false],
    ['custodian', 'Inbox', true, true, true],
    ['custodian', 'Pending', true, false, true],
    ['signer', 'Inbox', true, false, true],
    ['submitter', 'Inbox', false, false, true],
  ] as const)('%s in %s, viewEnforced %s, isRead %s: %s', (role, folder, viewEnforced, isRead, allowed) => {
    expect(mayActOnEpak(role, folder, { viewEnforced, isRead })).toBe(allowed);
  });
});
