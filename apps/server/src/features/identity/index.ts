/**
 * What other features may use from identity/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { INVITATION_DAYS, cancelInvitation, createInvitation, inviteMembers, reinviteMember } from './invitations';
export { mailResetLink } from './passwords';
export { loadTenantSettings, parseTenantSettings } from './tenant-configuration';
