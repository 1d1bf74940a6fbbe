import { z } from 'zod';

/**
 * The setting flags that change what a role may see or reach (spec §2 menu items and §6). They are
 * resolved per tenant (and per client, for `isMobileApp`) by the caller; this module only reads them.
 */
export const PermissionSettings = z.object({
  /** §2: "teamroom (only when team rooms are enabled)". */
  teamRoomsEnabled: z.boolean(),
  /** §2: "compare (only when PDF compare is enabled)". */
  pdfCompareEnabled: z.boolean(),
  /** §2: "features (when the features setting is enabled and the user is not a super admin)". */
  featuresEnabled: z.boolean(),
  /** §6: "A submitter does not see workflows when the restrict-workflow setting is on." */
  restrictWorkflow: z.boolean(),
  /** §2: "reports (hidden in the mobile app)". A property of the client, not of the tenant. */
  isMobileApp: z.boolean(),
  /** §2: admin sub-items, "Each sub-item is shown only when its setting makes it visible." */
  showEditReasons: z.boolean(),
  showEditWorkflowStates: z.boolean(),
  showUserSyncUp: z.boolean(),
  showFieldMapping: z.boolean(),
  showStamps: z.boolean(),
  /**
   * §6 "The rubber stamp needs an enabled config flag": whether members keep rubber stamps and
   * may apply them when they sign (with their passcode flag, `mayUseRubberStamp`).
   */
  rubberStampEnabled: z.boolean(),
});
export type PermissionSettings = z.infer<typeof PermissionSettings>;

/**
 * The spec gives no defaults. We choose the values under which the role lists of §2 and §6 hold
 * exactly as written: every optional feature on, no workflow restriction, the web (not mobile) app.
 * The server's own feature flags default to on as well (FEATURE_TEAM_ROOMS etc.).
 */
export const DEFAULT_PERMISSION_SETTINGS: PermissionSettings = Object.freeze({
  teamRoomsEnabled: true,
  pdfCompareEnabled: true,
  featuresEnabled: true,
  restrictWorkflow: false,
  isMobileApp: false,
  showEditReasons: true,
  showEditWorkflowStates: true,
  showUserSyncUp: true,
  showFieldMapping: true,
  showStamps: true,
  // The one flag that starts off: a stamp stands for the organisation, so a tenant opts in.
  rubberStampEnabled: false,
});

/** Fills the flags a caller did not state from the defaults, so callers can pass only what they know. */
export function resolvePermissionSettings(overrides: Partial<PermissionSettings> = {}): PermissionSettings {
  // An explicit `undefined` (e.g. a setting row that is absent) means "not stated", not "off".
  const stated = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_PERMISSION_SETTINGS, ...Object.fromEntries(stated) };
}
