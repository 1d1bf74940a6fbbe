import { useForm } from '@mantine/form';
import { confirmTotpEnrolment, disableTotp, regenerateRecoveryCodes, ResponseCode, startTotpEnrolment, type SessionUser, type UserInfo } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { profileQueryKey } from '../../api/profile';
import { identityQueryKeys } from './queries';
import { updateSessionUser } from './update-session-user';

export type TwoFactorStep = { kind: 'idle' } | { kind: 'password' } | { kind: 'scan'; secret: string; otpauthUri: string } | { kind: 'disable' } | { kind: 'regenerate' };

type TwoFactorMessage = 'profile.twoFactor.wrongPassword' | 'authenticate.errors.wrongCode' | 'common.unreachable' | 'internalErrorMsg';
type FieldProblem = 'authenticate.codeInvalid' | 'common.required';
type Notice = 'profile.twoFactor.enabledNotice' | 'profile.twoFactor.disabledNotice' | 'profile.recoveryCodes.regeneratedNotice';

/** -1004 wrong password, -138 wrong code; everything else is a plain failure. */
function twoFactorMessage(error: unknown): TwoFactorMessage {
  if (error instanceof ApiError) {
    if (error.code === ResponseCode.WRONG_PASSWORD.code || error.code === ResponseCode.INVALID_PASSWORD.code) return 'profile.twoFactor.wrongPassword';
    if (error.code === ResponseCode.WRONG_OTP.code) return 'authenticate.errors.wrongCode';
    if (error.httpStatus === 0) return 'common.unreachable';
  }
  return 'internalErrorMsg';
}

/**
 * Switching two-factor sign-in on (password, then a code from the app) or off (password), and
 * making new recovery codes (password). The codes the server answers once are held here only
 * until the person closes the dialog that shows them. @mantine/form
 * holds the password and the code with the refusal of the one the current step asks for; a refusal
 * by the server is shown above the field instead, and either replaces the other.
 */
export function useTwoFactor() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<TwoFactorStep>({ kind: 'idle' });
  const form = useForm<{ password: string; code: string }>({
    mode: 'controlled',
    initialValues: { password: '', code: '' },
    // Each step checks only its own field: the code before confirming, the password before starting or switching off.
    validate:
      step.kind === 'scan'
        ? { code: (code): FieldProblem | null => (/^\d{6}$/.test(code) ? null : 'authenticate.codeInvalid') }
        : { password: (password): FieldProblem | null => (password ? null : 'common.required') },
    // The refusals are held as message keys and translated as they are shown, so they follow a change of language.
    enhanceGetInputProps: ({ inputProps }) => ({ error: inputProps.error ? t(inputProps.error as FieldProblem) : undefined }),
    // A refusal stays until the next try; typing does not clear it.
    clearInputErrorOnChange: false,
  });
  const [failure, setFailure] = useState<TwoFactorMessage | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<readonly string[] | null>(null);

  const refuse = (error: unknown) => {
    form.clearErrors();
    setFailure(twoFactorMessage(error));
  };

  const backToIdle = () => {
    setStep({ kind: 'idle' });
    form.reset();
    setFailure(null);
  };

  const settle = (user: SessionUser, message: Notice) => {
    updateSessionUser({ totpEnabled: user.totpEnabled });
    queryClient.setQueryData<UserInfo>(profileQueryKey, (old) => (old ? { ...old, totpEnabled: user.totpEnabled } : old));
    void queryClient.invalidateQueries({ queryKey: identityQueryKeys.recoveryCodes });
    backToIdle();
    setNotice(message);
  };

  // The password and the code are read from the form as a request starts, not handed to mutate, so
  // they are not kept among the mutations' variables.
  const start = useMutation({
    mutationFn: () => callApi(startTotpEnrolment, { body: { password: form.getValues().password } }, { failures: 'caller' }),
    onSuccess: (enrolment) => {
      form.setFieldValue('password', '');
      form.clearErrors();
      setFailure(null);
      setStep({ kind: 'scan', ...enrolment });
    },
    onError: (error) => {
      form.setFieldValue('password', '');
      refuse(error);
    },
  });
  const confirm = useMutation({
    mutationFn: () => callApi(confirmTotpEnrolment, { body: { code: form.getValues().code } }, { failures: 'caller' }),
    onSuccess: ({ user, recoveryCodes: codes }) => {
      settle(user, 'profile.twoFactor.enabledNotice');
      setRecoveryCodes(codes);
    },
    onError: (error) => {
      form.setFieldValue('code', '');
      refuse(error);
    },
  });
  const disable = useMutation({
    mutationFn: () => callApi(disableTotp, { body: { password: form.getValues().password } }, { failures: 'caller' }),
    onSuccess: (user) => settle(user, 'profile.twoFactor.disabledNotice'),
    onError: (error) => {
      form.setFieldValue('password', '');
      refuse(error);
    },
  });

  const regenerate = useMutation({
    mutationFn: () => callApi(regenerateRecoveryCodes, { body: { password: form.getValues().password } }, { failures: 'caller' }),
    onSuccess: ({ recoveryCodes: codes }) => {
      void queryClient.invalidateQueries({ queryKey: identityQueryKeys.recoveryCodes });
      backToIdle();
      setNotice('profile.recoveryCodes.regeneratedNotice');
      setRecoveryCodes(codes);
    },
    onError: (error) => {
      form.setFieldValue('password', '');
      refuse(error);
    },
  });

  /** Checks the step's field (useForm's validate), then sends; either way the last refusal goes. */
  const submitWith = (send: () => void) =>
    form.onSubmit(
      () => {
        setFailure(null);
        send();
      },
      () => setFailure(null),
    );

  const begin = (kind: 'password' | 'disable' | 'regenerate') => {
    setNotice(null);
    setStep({ kind });
  };

  return {
    form,
    step,
    failure,
    notice,
    start,
    confirm,
    disable,
    regenerate,
    recoveryCodes,
    /** The person confirmed they stored the codes: they are let go. */
    closeRecoveryCodes: () => setRecoveryCodes(null),
    begin,
    cancel: backToIdle,
    onStart: submitWith(() => start.mutate()),
    onConfirm: submitWith(() => confirm.mutate()),
    onDisable: submitWith(() => disable.mutate()),
    onRegenerate: submitWith(() => regenerate.mutate()),
  };
}

export type TwoFactorState = ReturnType<typeof useTwoFactor>;
