/**
 * The response-code catalogue of spec section 8. Every API body carries one of these codes;
 * `httpStatus` is the HTTP status the server answers with when a command fails with that code
 * (spec/DESIGN: 401 token problems, 403 forbidden/licence, 404 absent-or-not-yours,
 * 400/422 invalid input, 500 only for real faults).
 */
export interface ResponseCodeEntry {
  readonly code: number;
  readonly meaning: string;
  readonly httpStatus: number;
}

const entry = (code: number, meaning: string, httpStatus: number): ResponseCodeEntry => ({
  code,
  meaning,
  httpStatus,
});

export const ResponseCode = {
  SUCCESS: entry(1, 'success', 200),
  HASH_CODE_GENERATED: entry(2, 'hash code generated', 200),
  CUSTODIAN_LIMIT_EXCEEDED: entry(100, 'custodian limit exceeded', 403),
  REDIRECT: entry(303, 'redirect', 200),
  GENERIC_ERROR: entry(-1, 'generic error', 400),
  SYSTEM_ERROR: entry(-2, 'system error', 500),
  USER_DOES_NOT_EXIST: entry(-3, 'user does not exist', 404),
  INVALID_ACCESS_TOKEN: entry(-5, 'invalid access token', 401),
  INVALID_INPUT: entry(-6, 'invalid input', 400),
  INVALID_CLIENT: entry(-7, 'invalid client id or secret', 401),
  NO_CERTIFICATES: entry(-9, 'no certificates or CSR not generated', 404),
  NOT_AUTHORIZED: entry(-11, 'not authorized (also report no permission)', 403),
  WRONG_ANSWER: entry(-12, 'wrong answer', 400),
  USER_DISABLED: entry(-13, 'user disabled', 403),
  USER_LOCKED: entry(-14, 'user locked', 403),
  USER_EXPIRED: entry(-15, 'user expired', 403),
  INVALID_PASSWORD: entry(-16, 'invalid password', 400),
  WRONG_OLD_PASSWORD: entry(-17, 'wrong old password', 400),
  DATA_INTEGRITY: entry(-22, 'data integrity', 409),
  EPAK_REJECTED: entry(-23, 'ePak rejected', 409),
  PERMANENT_STORAGE_ENABLED: entry(-25, 'permanent storage enabled', 409),
  TOKEN_IP_MISMATCH: entry(-26, 'token IP mismatch', 401),
  TOKEN_EXPIRED: entry(-27, 'token expired', 401),
  USER_WORKFLOW_STATUS_NOT_PENDING: entry(-28, 'user workflow status not pending', 409),
  REPORT_TEMPLATE_NOT_FOUND: entry(-29, 'report template not found', 404),
  REPORT_TEMPLATE_INVALID: entry(-30, 'report template invalid', 422),
  REPORT_TEMPLATE_LOAD_FAILED: entry(-31, 'report template failed to load', 500),
  DUAL_SESSION_DETECTED: entry(-32, 'dual session detected', 401),
  INVITATION_CANCEL_BLOCKED_BY_WORKFLOW: entry(-34, 'invitation cancel blocked by workflow', 409),
  INVITATION_CANCEL_BLOCKED_BY_DELEGATION: entry(-35, 'invitation cancel blocked by delegation', 409),
  INVALID_JWT: entry(-37, 'invalid JWT', 401),
  INVALID_EASY_SIGN_LINK: entry(-42, 'invalid easy-sign link', 401),
  INVALID_UIS_TOKEN: entry(-45, 'invalid UIS token', 401),
  EPAK_DELETED: entry(-46, 'ePak deleted', 410),
  EPAK_ARCHIVED: entry(-47, 'ePak archived', 409),
  DOCUMENT_CONVERSION_FAILED: entry(-48, 'document conversion failed', 422),
  ESIGNATURE_REASON_TAG_NOT_SELECTED: entry(-49, 'ESIGNATURE reason tag not selected', 422),
  DIGITAL_POLICY_KEEP_LINKED_ERROR: entry(-56, 'digital policy keep-linked error', 422),
  INVALID_DOCUMENT: entry(-59, 'invalid document', 422),
  SIGNATURE_TAG_POSITION_CHANGED: entry(-60, 'signature tag position changed', 409),
  // Refused at start (a signer with no signature field placed): the ePak is there, its fields are
  // incomplete, so 422 like -107 and -49 rather than the 404 of absent-or-not-yours.
  USER_SIGNATURE_TAG_NOT_FOUND: entry(-62, 'user signature tag not found', 422),
  WORKFLOW_TEMPLATE_ALREADY_EXISTS: entry(-63, 'workflow template already exists', 409),
  INVALID_CHARACTER_IN_FILENAME: entry(-67, 'invalid character in filename', 400),
  EPAK_ALREADY_COMPLETED: entry(-72, 'ePak already completed', 409),
  USER_NOT_ENABLED: entry(-73, 'user not enabled', 403),
  USER_NOT_REGISTERED: entry(-75, 'user not registered', 403),
  INVALID_CERTIFICATE_PIN: entry(-77, 'invalid certificate PIN', 400),
  USER_ALREADY_EXISTS: entry(-81, 'user already exists', 409),
  DOCUMENT_ALREADY_IN_USE: entry(-82, 'document already in use', 409),
  USER_WITH_TENANT: entry(-85, 'user with tenant', 409),
  TENANT_ALREADY_EXISTS: entry(-87, 'tenant already exists', 409),
  TRIAL_PERIOD_EXPIRED: entry(-88, 'trial period expired', 403),
  SIGNER_COUNT_MISMATCH: entry(-107, 'signer count mismatch between document and workflow template', 422),
  NO_NEW_DOCUMENT_ATTACHED: entry(-109, 'no new document attached', 422),
  REGISTRATION_LINK_EXPIRED: entry(-120, 'registration link expired', 410),
  AUTO_PLACEMENT_STRING_NOT_FOUND: entry(-125, 'auto placement string not found', 422),
  UNABLE_TO_PARSE_DATA: entry(-136, 'unable to parse data', 400),
  WRONG_OTP: entry(-138, 'wrong OTP', 400),
  DUPLICATE_MANAGER_GROUP: entry(-141, 'duplicate manager group', 409),
  SIGNATURE_UPLOAD_SIZE: entry(-142, 'signature upload size', 413),
  CSV_RECORD_LIMIT_EXCEEDED: entry(-143, 'CSV record limit exceeded', 422),
  RETENTION_LIST_QUARTERLY: entry(-148, 'retention list quarterly', 422),
  RETENTION_REPORT_ADMIN_PRIVILEGE: entry(-149, 'retention report admin privilege', 403),
  ARCHIVAL_TAG_ALREADY_ADDED: entry(-150, 'archival tag already added', 409),
  SIGN_VERIFICATION_ERROR: entry(-151, 'verification error for sign', 422),
  DELEGATE_VERIFICATION_ERROR: entry(-152, 'verification error for delegate', 422),
  SIGN_AUTH_TOKEN_EXPIRED: entry(-160, 'sign auth token expired', 401),
  INVALID_SIGN_AUTH_TOKEN: entry(-161, 'invalid sign auth token', 401),
  OUT_OF_OFFICE_DELEGATION_NOT_ALLOWED: entry(-163, 'out-of-office delegation not allowed', 422),
  REGISTRATION_PENDING: entry(-164, 'registration pending', 403),
  CANNOT_DELETE_MANAGER: entry(-165, 'cannot delete manager', 409),
  COMPOSE_DOCUMENT_ALREADY_USED: entry(-169, 'compose document already used in ePak', 409),
  UNLOCK_IN_PROGRESS_EPAK: entry(-170, 'unlock in a progress ePak', 409),
  BULK_COMPOSE_MINIMUM_SIGNER: entry(-171, 'minimum signer validation failed in bulk compose', 422),
  ALREADY_MEMBER_OF_GROUP_MANAGER: entry(-172, 'already member of group manager', 409),
  INVITATION_CANCELLED: entry(-173, 'invitation cancelled', 403),
  BULK_COMPOSE_CSV_VALIDATION: entry(-174, 'CSV validation error in bulk compose', 422),
  CSV_HEADER_COUNT_MISMATCH: entry(-175, 'CSV header count mismatch', 422),
  DOCUMENT_ALREADY_ADDED: entry(-176, 'document already added', 409),
  DOCUMENT_EXTENSION_NOT_ENABLED: entry(-177, 'document extension not enabled', 415),
  TRANSACTION_TIMEOUT: entry(-179, 'transaction timeout', 504),
  CSV_MANDATORY_HEADERS: entry(-181, 'CSV mandatory headers', 422),
  EMPTY_FILE_IMPORTED: entry(-182, 'empty file imported', 422),
  WEB_FORM_MAPPING_LINKED: entry(-183, 'web form mapping linked', 409),
  DOCUMENT_SIZE_MISMATCH_WITH_TEMPLATE: entry(-189, 'document size mismatch with template', 422),
  INVALID_OTP_ID: entry(-196, 'invalid OTP id', 400),
  OTP_RETRY_TIMEOUT: entry(-198, 'OTP retry timeout', 429),
  // -200 is named in section 8's response handling, not in its list: the login flow needs it.
  TWO_FACTOR_REQUIRED: entry(-200, 'two factor required', 401),
  STAMP_PAPER_UUID_EXISTS: entry(-203, 'stamp paper with UUID exists', 409),
  STAMP_CSV_DATE_ERROR: entry(-209, 'stamp CSV date error', 422),
  DSC_ERROR: entry(-215, 'DSC error', 422),
  LANDSCAPE_ORIENTATION: entry(-216, 'landscape orientation', 422),
  MAXIMUM_OTP_ATTEMPTS: entry(-217, 'maximum OTP attempts', 429),
  PARTIAL_FAILURE: entry(-222, 'partial failure', 207),
  TEAM_ROOM_NAME_EXISTS: entry(-224, 'team room name exists', 409),
  BULK_ROLE_UPDATE_ERROR: entry(-226, 'bulk role update error', 422),
  MAXIMUM_PASSWORD_RESET_ATTEMPTS: entry(-227, 'maximum password reset attempts', 429),
  DOCUMENT_NOT_AVAILABLE: entry(-228, 'document not available', 404),
  PAGE_LIMIT_EXCEEDED: entry(-241, 'page limit exceeded', 422),
  EPAK_MODIFIED: entry(-306, 'ePak modified', 409),
  CANNOT_ACCOMMODATE_DATA: entry(-309, 'cannot accommodate data', 422),
  TRANSSPED_SERVICE_DOWN: entry(-311, 'TRANSSPED service down', 503),
  WRONG_PASSWORD: entry(-1004, 'wrong password', 400),
  TEAM_ROOM_DOES_NOT_EXIST: entry(-1005, 'team room does not exist', 404),
  DOCUMENT_DOES_NOT_EXIST: entry(-1006, 'document does not exist', 404),
} as const satisfies Record<string, ResponseCodeEntry>;

export type ResponseCodeName = keyof typeof ResponseCode;

/** Every catalogue entry, ordered as the spec lists them. */
export const RESPONSE_CODES: readonly ResponseCodeEntry[] = Object.values(ResponseCode);

const byCode = new Map<number, ResponseCodeEntry>(RESPONSE_CODES.map((e) => [e.code, e]));

export function findResponseCode(code: number): ResponseCodeEntry | undefined {
  return byCode.get(code);
}

/** HTTP status for a catalogue code; an unknown code is a fault of ours, hence 500. */
export function httpStatusForCode(code: number): number {
  return byCode.get(code)?.httpStatus ?? 500;
}

export const SUCCESS_CODE = ResponseCode.SUCCESS.code;
