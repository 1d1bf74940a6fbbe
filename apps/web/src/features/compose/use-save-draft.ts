import {
  composeFromDocumentTemplate,
  createEpak,
  ResponseCode,
  type EpakDetail,
  type EpakInput,
} from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { ApiError, callApi } from '../../api/client';
import {
  errorAtAddress,
  placeComposeIssues,
  type ComposeDraft,
  type ComposeErrors,
} from './compose-draft';
import { type Message } from '../workflows';

/**
 * Creates the draft (or composes from a document template), and places a refusal where it
 * belongs: at the recipient, the documents, or the form. `onSaved` takes the draft on from there.
 */
export function useSaveDraft(refuse: (errors: ComposeErrors) => void, onSaved: (saved: EpakDetail) => void) {
  return useMutation({
    mutationFn: ({ draft: sent, body }: { draft: ComposeDraft; body: EpakInput }) =>
      sent.docTemplateId
        ? callApi(composeFromDocumentTemplate, { params: { docTemplateId: sent.docTemplateId }, body }, { failures: 'caller' })
        : callApi(createEpak, { body }, { failures: 'caller' }),
    onSuccess: (saved) => onSaved(saved),
    onError: (error, { draft: sent }) => {
      if (!(error instanceof ApiError)) return refuse({ form: { key: 'compose.errors.saveFailed' } });
      if (error.httpStatus === 0) return refuse({ form: { key: 'common.unreachable' } });
      const email = typeof error.data?.['email'] === 'string' ? error.data['email'] : undefined;
      const personal: Partial<Record<number, ParseKeys>> = {
        [ResponseCode.USER_DISABLED.code]: 'compose.errors.recipientDisabled',
        [ResponseCode.INVITATION_CANCELLED.code]: 'RESPONSE_MSG_USER_INVITATION_CANCELLED',
        [ResponseCode.USER_DOES_NOT_EXIST.code]: 'compose.errors.newUsersNotInvited',
      };
      const key = personal[error.code];
      if (key) {
        const placed = email ? errorAtAddress(sent, email, { key }) : { errors: {}, found: false };
        const form: Message = { key: error.code === ResponseCode.USER_DISABLED.code ? 'USER_DISABLED_CONTACT_ADMIN' : key };
        return refuse(placed.found ? placed.errors : { form });
      }
      if (error.code === ResponseCode.DOCUMENT_ALREADY_ADDED.code) return refuse({ documents: { key: 'compose.errors.documentTwice' } });
      if (sent.docTemplateId && error.issues?.some((issue) => /^nobody at place/.test(issue.message))) {
        return refuse({ form: { key: 'docTemplates.errors.placesMissing' } });
      }
      // The template's tags checked again for this ePak (a policy that signs once, say).
      if (sent.docTemplateId && Array.isArray(error.data?.['problems'])) return refuse({ form: { key: 'docTemplates.errors.tagsRefused' } });
      if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const placed = placeComposeIssues(sent, error.issues);
        return refuse(placed.unplaced > 0 ? { ...placed.errors, form: { key: 'workflows.errors.invalid' } } : placed.errors);
      }
      refuse({ form: { key: 'compose.errors.saveFailed' } });
    },
  });
}
