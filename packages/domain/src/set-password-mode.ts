import { REGISTRATION_PENDING_USER_STATUSES, type UserStatus, type UserType } from './constants/statuses';

/** What the set-password dialog does: create the account's password, or replace the current one. */
export type SetPasswordMode = 'register' | 'update';

/**
 * Spec section 4: "for an external user with status admininvited or invitewithdelegation, the
 * set-password dialog registers with a new password. In any other case it updates the password."
 * An internal invitee registers on the invitation page instead, so only the external ones register
 * here; everyone else already has a password to update.
 */
export function setPasswordMode(user: { readonly type: UserType; readonly status: UserStatus }): SetPasswordMode {
  const pending = (REGISTRATION_PENDING_USER_STATUSES as readonly UserStatus[]).includes(user.status);
  return user.type === 'external' && pending ? 'register' : 'update';
}
