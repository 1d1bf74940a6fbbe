import { ResponseCode } from '@pakt/domain';
import { ApiError } from '../api/client';

export type InvitationProblem =
  | 'register.invalid.missing'
  | 'register.invalid.notFound'
  | 'register.invalid.expired'
  | 'register.invalid.pending'
  | 'register.invalid.alreadyRegistered'
  | 'RESPONSE_MSG_USER_INVITATION_CANCELLED';

/** The invitation codes of spec section 8, each with its own explanation. */
export function invitationProblem(error: unknown): InvitationProblem | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case ResponseCode.REGISTRATION_LINK_EXPIRED.code:
      return 'register.invalid.expired';
    case ResponseCode.INVITATION_CANCELLED.code:
      return 'RESPONSE_MSG_USER_INVITATION_CANCELLED';
    case ResponseCode.REGISTRATION_PENDING.code:
      return 'register.invalid.pending';
    case ResponseCode.USER_ALREADY_EXISTS.code:
      return 'register.invalid.alreadyRegistered';
  }
  // Absent and malformed codes look alike to the person holding the link.
  if (error.httpStatus === 404 || error.code === ResponseCode.INVALID_INPUT.code) return 'register.invalid.notFound';
  return null;
}

export type RegisterMessage = InvitationProblem | 'passwordInvalid' | 'REGISTERATION_FAIL' | 'common.unreachable';

/** Why registering with an invitation failed, for the register page and the set-password dialog. */
export function registerErrorMessage(error: unknown): RegisterMessage {
  const problem = invitationProblem(error);
  if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code) {
    return error.issues?.some((issue) => issue.path === 'newPassword') ? 'passwordInvalid' : 'REGISTERATION_FAIL';
  }
  if (problem) return problem;
  if (error instanceof ApiError && error.httpStatus === 0) return 'common.unreachable';
  return 'REGISTERATION_FAIL';
}
