import { z } from 'zod';
import type { Folder } from './statuses';

// Wire values, snake_case included (spec §6).
export const ROLES = ['root', 'admin', 'custodian', 'signer', 'super_admin', 'submitter', 'registrar'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

// Tabs on the admin user list; these are view names, not roles.
export const ADMIN_USER_FOLDER_VIEWS = ['Signers', 'Submitters', 'Custodians', 'Admin', 'RetentionAdmin', 'All'] as const;
export const AdminUserFolderView = z.enum(ADMIN_USER_FOLDER_VIEWS);
export type AdminUserFolderView = z.infer<typeof AdminUserFolderView>;

// Auto-registration must never grant anything above admin.
export const AUTO_REGISTRATION_ROLES = ['signer', 'custodian', 'admin'] as const satisfies readonly Role[];
export const AutoRegistrationRole = z.enum(AUTO_REGISTRATION_ROLES);
export type AutoRegistrationRole = z.infer<typeof AutoRegistrationRole>;

// Roles that must open an ePak before acting on it, and only in the Inbox folder.
export const VIEW_ENFORCEMENT_ROLES = ['admin', 'custodian', 'super_admin', 'submitter'] as const satisfies readonly Role[];
export const ViewEnforcementRole = z.enum(VIEW_ENFORCEMENT_ROLES);
export type ViewEnforcementRole = z.infer<typeof ViewEnforcementRole>;

export const VIEW_ENFORCEMENT_FOLDER = 'Inbox' as const satisfies Folder;
