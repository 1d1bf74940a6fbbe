import { useForm } from '@mantine/form';
import { createReason, ResponseCode, type SigningReason, updateReason } from '@pakt/domain';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import { reasonLabel } from '../../ui/reason-label';
import { adminAuditQueryKeys, reasonQueryKeys } from './queries';

export type ReasonProblem =
  | { readonly key: 'reasonsAdmin.errors.taken'; readonly onText: true }
  | { readonly key: 'reasonsAdmin.errors.gone'; readonly gone: true }
  | { readonly key: 'common.unreachable' }
  | { readonly key: 'reasonsAdmin.errors.failed'; readonly detail?: string };

/**
 * A refusal in the screen's words. The server answers -6 with the issue on `text` for words
 * already in the list (or blank, too long, which the form stops first); 404 means the reason is
 * no longer the tenant's, so the list is asked again.
 */
export function reasonProblem(error: unknown): ReasonProblem {
  if (!(error instanceof ApiError)) return { key: 'reasonsAdmin.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.some((issue) => /(^|\.)text$/.test(issue.path))) {
    return { key: 'reasonsAdmin.errors.taken', onText: true };
  }
  if (error.httpStatus === 404) return { key: 'reasonsAdmin.errors.gone', gone: true };
  return { key: 'reasonsAdmin.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

/** After a change: the list (the ceremony's too, next time an ePak is opened) and the audit log it was recorded in. */
export function afterReasonChange(queryClient: QueryClient, tenant: string | null | undefined): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reasonQueryKeys.list(tenant) }),
    queryClient.invalidateQueries({ queryKey: adminAuditQueryKeys.all(tenant) }),
  ]);
}

export interface ReasonFormOptions {
  /** The reason being changed; null adds one. */
  readonly reason: SigningReason | null;
  readonly onClose: () => void;
  readonly onDone: (notice: { readonly kind: 'created' | 'updated'; readonly text: string }) => void;
}

/**
 * The reason form's state: @mantine/form holds the words and the refusal shown on them (blank, or
 * taken by another reason), which clears as soon as the words change; a refusal of the whole save
 * is said above the field until the next try.
 */
export function useReasonForm({ reason, onClose, onDone }: ReasonFormOptions) {
  const { t } = useTranslation();
  const tenantUuid = useCurrentTenant()?.tenantUuid;
  const queryClient = useQueryClient();
  // A built-in reason is edited from the words the admin sees (its translation).
  const form = useForm<{ text: string }>({ mode: 'controlled', initialValues: { text: reason ? reasonLabel(t, reason) : '' } });
  const [problem, setProblem] = useState<ReasonProblem | null>(null);

  const save = useMutation({
    mutationFn: async (words: string) => {
      if (!reason) return callApi(createReason, { body: { text: words } });
      const answer = await callApi(updateReason, { body: { reasonId: reason.reasonId, text: words } });
      return answer.reasons.find((candidate) => candidate.reasonId === reason.reasonId) ?? { ...reason, text: words };
    },
    onSuccess: async (saved) => {
      onDone({ kind: reason ? 'updated' : 'created', text: reasonLabel(t, saved) });
      await afterReasonChange(queryClient, tenantUuid);
    },
    onError: async (error) => {
      const refusal = reasonProblem(error);
      if ('onText' in refusal) form.setFieldError('text', t(refusal.key));
      else setProblem(refusal);
      if ('gone' in refusal) await afterReasonChange(queryClient, tenantUuid);
    },
  });

  // Not form.onSubmit, which would clear the words' refusal: a second try with the same words keeps it in view.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const trimmed = form.getValues().text.trim();
    if (!trimmed) {
      form.setFieldError('text', t('reasonsAdmin.errors.required'));
      return;
    }
    // Unchanged words of a built-in reason would make it the tenant's own for nothing.
    if (reason && trimmed === reasonLabel(t, reason)) {
      onClose();
      return;
    }
    save.mutate(trimmed);
  };

  return { form, problem, save, submit };
}
