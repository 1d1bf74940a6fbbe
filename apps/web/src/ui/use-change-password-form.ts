import { useForm } from '@mantine/form';
import { changePassword, ResponseCode, type SessionUser } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../api/client';
import { usePasswordConfig } from '../api/password-config';
import { sessionStore, useSession } from '../api/session-store';
import { newPasswordProblems, type NewPassword } from './password-fields';
import { passwordRefusal, type PasswordRefusal } from './password-issues';

export type ChangePasswordMessage = 'passwordChangeFailed' | 'common.unreachable';

export interface ChangePasswordValues {
  readonly oldPassword: string;
  readonly newPassword: NewPassword;
}

/**
 * The state and rules of a change-password form (current, new, confirm), shared by the
 * /changepassword page and the set-password dialog: the tenant's rules checked as one types, a
 * wrong current password shown at its field, the server's refusals explained, and the session's
 * user replaced by the answer (a forced-change status lifts at once).
 *
 * @mantine/form holds the three passwords and the current password's refusal. That refusal stays
 * until the next submit, typing does not clear it; the new password's problems are
 * NewPasswordFields' own, shown once the form was submitted.
 */
export function useChangePasswordForm(options: { onSuccess: (user: SessionUser) => void; onBusy?: (busy: boolean) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const { config, failed } = usePasswordConfig(session?.tenantUuid);
  const form = useForm<ChangePasswordValues>({
    mode: 'controlled',
    initialValues: { oldPassword: '', newPassword: { password: '', confirm: '' } },
    validate: { oldPassword: (value) => (value ? null : t('common.required')) },
    clearInputErrorOnChange: false,
  });
  const [submitted, setSubmitted] = useState(false);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  const [message, setMessage] = useState<ChangePasswordMessage | null>(null);

  const change = useMutation({
    // The passwords are read from the form as the request starts, not handed to the mutation, so
    // they are not kept among its variables.
    mutationFn: () => {
      const { oldPassword, newPassword } = form.getValues();
      return callApi(
        changePassword,
        { body: { oldPassword, newPassword: newPassword.password, confirmPassword: newPassword.confirm } },
        { failures: 'caller' },
      );
    },
    onMutate: () => options.onBusy?.(true),
    onSettled: () => options.onBusy?.(false),
    onSuccess: (user) => {
      const current = sessionStore.get();
      if (current) sessionStore.set({ ...current, user });
      options.onSuccess(user);
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.code === ResponseCode.WRONG_OLD_PASSWORD.code || error.code === ResponseCode.WRONG_PASSWORD.code)) {
        form.setFieldError('oldPassword', t('changePassword.wrongOld'));
        form.setFieldValue('oldPassword', '');
        return;
      }
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      setMessage(error instanceof ApiError && error.httpStatus === 0 ? 'common.unreachable' : 'passwordChangeFailed');
    },
  });

  // Every submit, valid or not, shows the new password's problems and forgets the last refusal.
  const begin = () => {
    setSubmitted(true);
    setRefusal(null);
    setMessage(null);
  };
  const onSubmit = form.onSubmit((values) => {
    begin();
    if (Object.keys(newPasswordProblems(values.newPassword, config)).length > 0) return;
    change.mutate();
  }, begin);

  return { form, config, failed, submitted, refusal, message, change, onSubmit };
}
