import { z } from 'zod';

// Spellings are the wire values and must match the server exactly (spec §4).
export const SIGNER_STATUSES = [
  'Reviewed',
  'Signed',
  'Pending',
  'Delegated',
  'DelegatePending',
  'Rejected',
  'Emailed',
  'NotRequired',
  'Skipped',
] as const;
export const SignerStatus = z.enum(SIGNER_STATUSES);
export type SignerStatus = z.infer<typeof SignerStatus>;

export const DOCUMENT_STATUSES = [
  'Signed',
  'Rejected',
  'Delegated',
  'Reviewed',
  'PssSigned',
  'PssRejected',
  'Uploaded',
  'Active',
] as const;
export const DocumentStatus = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

// Inbox folders an ePak can be listed under.
export const FOLDERS = [
  'Inbox',
  'Rejected',
  'Signed',
  'Pending',
  'Stopped',
  'Completed',
  'Draft',
  'Delegated',
  'Deleted',
  'Reviewed',
  'Expired',
  'Archived',
] as const;
export const Folder = z.enum(FOLDERS);
export type Folder = z.infer<typeof Folder>;

// The server stores the value; the UI shows the label (AVAILABLE is shown as "Unused").
export const STAMP_PAPER_STATUSES = ['AVAILABLE', 'CONSUMED', 'DRAFT', 'EPAK', 'EXPIRED'] as const;
export const StampPaperStatus = z.enum(STAMP_PAPER_STATUSES);
export type StampPaperStatus = z.infer<typeof StampPaperStatus>;

export const STAMP_PAPER_STATUS_LABELS = {
  AVAILABLE: 'Unused',
  CONSUMED: 'Used',
  DRAFT: 'Draft',
  EPAK: 'Pending',
  EXPIRED: 'Expired',
} as const satisfies Record<StampPaperStatus, string>;

// Ordered value/label pairs for selects and filters.
export const STAMP_PAPER_STATUS_OPTIONS: ReadonlyArray<{
  readonly value: StampPaperStatus;
  readonly label: string;
}> = STAMP_PAPER_STATUSES.map((value) => ({
  value,
  label: STAMP_PAPER_STATUS_LABELS[value],
}));

// Mixed casing ('cancelInvitation') is how the server sends it.
export const USER_STATUSES = [
  'admininvited',
  'invitewithdelegation',
  'enabled',
  'expired',
  'admininviteexpired',
  'delegationinviteexpired',
  'resetpassword',
  'cancelInvitation',
] as const;
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;

// These statuses force the user to /changepassword (spec §4, §8).
export const PASSWORD_CHANGE_REQUIRED_USER_STATUSES = ['expired', 'resetpassword'] as const satisfies readonly UserStatus[];

// External users in these statuses register through the set-password dialog instead of updating (spec §4).
export const REGISTRATION_PENDING_USER_STATUSES = ['admininvited', 'invitewithdelegation'] as const satisfies readonly UserStatus[];

export const TEAM_ROOM_STATUSES = ['ENABLED', 'TRASH'] as const;
export const TeamRoomStatus = z.enum(TEAM_ROOM_STATUSES);
export type TeamRoomStatus = z.infer<typeof TeamRoomStatus>;

export const USER_TYPES = ['internal', 'external'] as const;
export const UserType = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserType>;

// Values of the ?status= query on /accessdenied (spec §2, §8).
export const ACCESS_DENIED_STATUSES = ['expired', 'unauthorized', 'licenseexpired', 'servererror', 'forbidden'] as const;
export const AccessDeniedStatus = z.enum(ACCESS_DENIED_STATUSES);
export type AccessDeniedStatus = z.infer<typeof AccessDeniedStatus>;
