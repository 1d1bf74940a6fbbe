/**
 * Localised message keys of spec section 8. Every shipped language bundle must define each of
 * these (checked by the web app's i18n tests).
 */
export const MESSAGE_KEYS = [
  'internalErrorMsg',
  'langUpdateFailMsg',
  'tagOverlappingError',
  'tagDimensionsCrossedMsg',
  'USER_DISABLED_CONTACT_ADMIN',
  'RESPONSE_MSG_USER_INVITATION_CANCELLED',
  'passwordConfigError',
  'passwordInvalid',
  'REGISTERATION_FAIL',
  'REGISTERATION_SUCCESS',
  'passwordChangeFailed',
  'passwordChangeSuccess',
  'passwordMissMatch',
  'uisSessionExpired',
  'qrLabelBlankValidation',
  'qrValueBlankValidation',
  'qrDuplicateValidation',
  'qrEditFieldValidation',
  'maxSizeExceeded',
  'pasteError',
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

/** Messages that are logged only and never shown to users (spec section 8). */
export const LOG_ONLY_MESSAGES = [
  'Unable to show notification',
  'Unable to establish WebSocket connection',
  'BASE_URL not found',
] as const;

export const SESSION_RECOVERY_FAILED_LOG = 'Unable to recover session !';
