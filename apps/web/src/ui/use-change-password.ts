import { changePassword, ResponseCode, type SessionUser } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../api/client';
import { usePasswordConfig } from '../api/password-config';
import { sessionStore, useSession } from '../api/session-store';
import { newPasswordProblems, type NewPassword } from './password-fields';
import { passwordRefusal, type PasswordRefusal } from './password-issues';

export type ChangePasswordMessage = 'passwordChangeFailed' | 'common.unreachable';

/**
 * The state and rules of a change-password form (current, new, confirm), shared by the
 * /changepassword page and the set-password dialog: the tenant's rules checked as one types, a
 * wrong current password shown at its field, the server's refusals explained, and the session's
 * user replaced by the answer (a forced-change status lifts at once).
 */
export function useChangePassword(options: { onSuccess: (user: SessionUser) => void; onBusy?: (busy: boolean) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const { config, failed } = usePasswordConfig(session?.tenantUuid);
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState<NewPassword>({ password: '', confirm: '' });
  const [submitted, setSubmitted] = useState(false);
  const [oldError, setOldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  const [message, setMessage] = useState<ChangePasswordMessage | null>(null);

  const change = useMutation({
    mutationFn: () =>
      callApi(
        changePassword,
        { body: { oldPassword, newPassword: password.password, confirmPassword: password.confirm } },
        { failures: 'caller' },
      ),
    onMutate: () => options.onBusy?.(true),
    onSettled: () => options.onBusy?.(false),
    onSuccess: (user) => {
      const current = sessionStore.get();
      if (current) sessionStore.set({ ...current, user });
      options.onSuccess(user);
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.code === ResponseCode.WRONG_OLD_PASSWORD.code || error.code === ResponseCode.WRONG_PASSWORD.code)) {
        setOldError(t('changePassword.wrongOld'));
        setOldPassword('');
        return;
      }
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      setMessage(error instanceof ApiError && error.httpStatus === 0 ? 'common.unreachable' : 'passwordChangeFailed');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setOldError(oldPassword ? null : t('common.required'));
    setRefusal(null);
    setMessage(null);
    if (!oldPassword || Object.keys(newPasswordProblems(password, config)).length > 0) return;
    change.mutate();
  };

  return { config, failed, oldPassword, setOldPassword, password, setPassword, submitted, oldError, refusal, message, change, onSubmit };
}
