import { z } from 'zod';

// PDF viewer zoom. min/max/step are configurable; these are the fallbacks (spec §9).
export const ZOOM_DEFAULTS = { min: 0.6, max: 3, step: 0.3 } as const;
export const ZOOM_ALLOWED_BY_DEFAULT = false;
// The copy-paste helper zooms in finer steps than the toolbar.
export const COPY_PASTE_ZOOM_STEP = 0.25;

// zod 4 numbers already reject NaN and ±Infinity, which covers "must be finite".
export function createZoomSchema(min: number = ZOOM_DEFAULTS.min, max: number = ZOOM_DEFAULTS.max) {
  return z.number().min(min).max(max);
}
export const ZoomLevel = createZoomSchema();
export type ZoomLevel = z.infer<typeof ZoomLevel>;

export const RENDER_MODES = ['fitToWidth', 'actual'] as const;
export const RenderMode = z.enum(RENDER_MODES);
export type RenderMode = z.infer<typeof RenderMode>;

// Trailing dots are part of the values as shown.
export const NAME_PREFIXES = ['Mr.', 'Mrs.', 'Ms.', 'Miss.', 'Dr.', 'Prof.', 'Pres.', 'Atty.'] as const;
export const NamePrefix = z.enum(NAME_PREFIXES);
export type NamePrefix = z.infer<typeof NamePrefix>;

// Whether a signer's location is captured when signing.
export const GEOLOCATION_TYPES = ['OFF', 'OPTIONAL', 'MANDATORY'] as const;
export const GeolocationType = z.enum(GEOLOCATION_TYPES);
export type GeolocationType = z.infer<typeof GeolocationType>;

// "DefaultSelective*" lets the composer toggle verification per ePak, starting on or off.
export const VERIFICATION_MODES = ['ON', 'OFF', 'DefaultSelectiveON', 'DefaultSelectiveOFF'] as const;
export const VerificationMode = z.enum(VERIFICATION_MODES);
export type VerificationMode = z.infer<typeof VerificationMode>;

// Whether the view-enforced checkbox is shown on compose and its initial value.
export const VIEW_ENFORCE_OPTIONS = ['HideWithDefaultOn', 'HideWithDefaultOff', 'ShowWithDefaultOn', 'ShowWithDefaultOff'] as const;
export const ViewEnforceOption = z.enum(VIEW_ENFORCE_OPTIONS);
export type ViewEnforceOption = z.infer<typeof ViewEnforceOption>;

export const AUTH_MECHANISMS = ['OTP', 'MSBAUTH', 'MSBPASSCODE', 'SSO', 'TOTP'] as const;
export const AuthMechanism = z.enum(AUTH_MECHANISMS);
export type AuthMechanism = z.infer<typeof AuthMechanism>;

export const CONFIG_TYPES = ['ONE_DRIVE_CONFIG', 'FEATURE_CONFIG', 'USER_INVITE_CONFIG'] as const;
export const ConfigType = z.enum(CONFIG_TYPES);
export type ConfigType = z.infer<typeof ConfigType>;

// Dashboard statistics.
export const CHART_SCOPES = ['user', 'group', 'all', 'groupuser'] as const;
export const ChartScope = z.enum(CHART_SCOPES);
export type ChartScope = z.infer<typeof ChartScope>;

export const CHART_TYPES = ['summary', 'weekly'] as const;
export const ChartType = z.enum(CHART_TYPES);
export type ChartType = z.infer<typeof ChartType>;

export const WEEKLY_CHART_SERIES = ['received', 'rejected', 'signed', 'pending', 'created', 'stopped', 'completed'] as const;
export const WeeklyChartSeries = z.enum(WEEKLY_CHART_SERIES);
export type WeeklyChartSeries = z.infer<typeof WeeklyChartSeries>;

// Per-user and per-group charts have no inbox-side series (received, rejected, signed).
export const WEEKLY_SERIES_ALL = WEEKLY_CHART_SERIES;
export const WEEKLY_SERIES_USER_OR_GROUP = ['pending', 'created', 'stopped', 'completed'] as const satisfies readonly WeeklyChartSeries[];

export const REPORT_EXPORT_OPTIONS = ['PDF', 'Excel'] as const;
export const ReportExportOption = z.enum(REPORT_EXPORT_OPTIONS);
export type ReportExportOption = z.infer<typeof ReportExportOption>;

export const INVITE_TYPES = ['admin_invite', 'admin_invite_cancel', 'admin_reinvite'] as const;
export const InviteType = z.enum(INVITE_TYPES);
export type InviteType = z.infer<typeof InviteType>;

// Tabs of the compose attachment picker.
export const ATTACHMENT_TABS = ['docTemplates', 'uploader', 'drafts', 'stamps', 'letterheadTemplates', 'mergeDocuments'] as const;
export const AttachmentTab = z.enum(ATTACHMENT_TABS);
export type AttachmentTab = z.infer<typeof AttachmentTab>;

// Largest delay setTimeout accepts (2^31 - 1 ms); longer delays fire immediately.
export const ANNOUNCEMENT_TIMER_MAX_MS = 2147483647;

export function clampTimerDelay(ms: number): number {
  return Math.min(Math.max(0, ms), ANNOUNCEMENT_TIMER_MAX_MS);
}

// Letterhead upload limits (spec §5).
export const LETTERHEAD_MAX_SIZE_KB = 500;
// The spec only says KB; 1 KB = 1024 bytes is assumed here.
export const LETTERHEAD_MAX_SIZE_BYTES = LETTERHEAD_MAX_SIZE_KB * 1024;
export const LETTERHEAD_MAX_QUEUED_FILES = 1;
export const LETTERHEAD_IMAGE_TYPES = ['jpg', 'png', 'jpeg'] as const;
export const LetterheadImageType = z.enum(LETTERHEAD_IMAGE_TYPES);
export type LetterheadImageType = z.infer<typeof LetterheadImageType>;

// File extensions accepted for upload (spec §5); lower-case, without the dot.
export const ALLOWED_DOCUMENT_FORMATS = [
  'pdf',
  'xml',
  'jpg',
  'jpeg',
  'jpeg2000',
  'png',
  'bmp',
  'tiff',
  'tif',
  'gif',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
] as const;
export const DocumentFormat = z.enum(ALLOWED_DOCUMENT_FORMATS);
export type DocumentFormat = z.infer<typeof DocumentFormat>;

// Maximum characters in a group name.
export const GROUP_NAME_LENGTH = 15;

export const DEFAULT_REASON_ID = 1;

// The two formats use different token styles (moment-like vs. Java/date-fns-like) as given.
export const DEFAULT_DATE_FORMAT = 'DD MMM YYYY';
export const TIMESTAMP_FORMAT = 'yyyy-MM-dd HH:mm:ss';

// Sent in the client-details header.
export const CLIENT_TYPE = 'MSB3';

// Insights are batched and posted on this interval.
export const INSIGHT_SEND_INTERVAL_MS = 3000;

// The spec's fixed divisor (not 1048576); kept so sizes match what the server reports.
export const FILE_SIZE_MB_DIVISOR = 1098304;

export function bytesToMegabytes(bytes: number): number {
  return bytes / FILE_SIZE_MB_DIVISOR;
}

// Result of the smart-card signing redirect.
export const SMART_CARD_REDIRECT_STATUSES = ['error', 'success'] as const;
export const SmartCardRedirectStatus = z.enum(SMART_CARD_REDIRECT_STATUSES);
export type SmartCardRedirectStatus = z.infer<typeof SmartCardRedirectStatus>;

export const SMART_CARD_REDIRECT_CODES = { error: -1, success: 1, fileSizeExceeded: -2 } as const;

// Signing-device server choices in the mobile app; the third entry is the default.
export const SIGNING_DEVICE_SERVERS = ['test', 'demo', 'mobile', 'in'] as const;
export const SigningDeviceServer = z.enum(SIGNING_DEVICE_SERVERS);
export type SigningDeviceServer = z.infer<typeof SigningDeviceServer>;
export const DEFAULT_SIGNING_DEVICE_SERVER = 'mobile' as const satisfies SigningDeviceServer;

// The only internal document source; the fifteen external ones are not named in the spec.
export const INTERNAL_DOCUMENT_SOURCE = 'TEAMROOM';

export const LOGIN_PAGE_DEFAULTS = { rememberMe: false, loginImages: false } as const;

// Browser IndexedDB: a single object store keyed by an auto-incremented id.
export const LOCAL_DATABASE = { name: 'MSB', version: 1 } as const;
