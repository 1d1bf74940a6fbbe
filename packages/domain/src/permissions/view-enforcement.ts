import { VIEW_ENFORCEMENT_FOLDER, VIEW_ENFORCEMENT_ROLES, type Role } from '../constants/roles';
import type { Folder } from '../constants/statuses';

/** The two ePak summary fields (spec §3) that view enforcement reads. */
export interface ViewEnforcementState {
  readonly viewEnforced: boolean;
  readonly isRead: boolean;
}

/**
 * Spec §5: "an ePak must be read before action when viewEnforced is true (eligibleForAction holds when
 * not viewEnforced, or isRead)".
 */
export function isEligibleForAction(epak: ViewEnforcementState): boolean {
  return !epak.viewEnforced || epak.isRead;
}

/**
 * Spec §6: "View enforcement applies to the roles admin, custodian, super_admin and submitter, in the
 * Inbox folder." Other roles, and every other folder, act without the read check.
 */
export function viewEnforcementApplies(role: Role, folder: Folder): boolean {
  return folder === VIEW_ENFORCEMENT_FOLDER && (VIEW_ENFORCEMENT_ROLES as readonly Role[]).includes(role);
}

/** Both rules together: may `role` act on this ePak as listed in `folder`? */
export function mayActOnEpak(role: Role, folder: Folder, epak: ViewEnforcementState): boolean {
  return !viewEnforcementApplies(role, folder) || isEligibleForAction(epak);
}
