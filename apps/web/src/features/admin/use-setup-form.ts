import { useForm } from '@mantine/form';
import { completeSetup, EmailAddress, ResponseCode } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useStartSession } from '../../api/session-lifecycle';
import { newPasswordProblems, type NewPassword } from '../../ui/password-fields';
import { nameProblems } from '../../ui/person-name-fields';
import { rootQueryKeys } from './queries';

export type SetupMessage = 'setup.invalidToken' | 'passwordInvalid' | 'common.unreachable' | 'internalErrorMsg';

/** Which explanation a refused setup gets; the token is the one thing the form cannot check itself. */
export function setupErrorMessage(error: unknown): SetupMessage {
  if (!(error instanceof ApiError)) return 'internalErrorMsg';
  if (error.httpStatus === 0) return 'common.unreachable';
  if (error.httpStatus === 401 || error.httpStatus === 403) return 'setup.invalidToken';
  if (error.code === ResponseCode.INVALID_INPUT.code && error.issues?.some((issue) => issue.path === 'password')) {
    return 'passwordInvalid';
  }
  return 'internalErrorMsg';
}

export interface SetupValues {
  readonly email: string;
  readonly name: { readonly firstName: string; readonly lastName: string };
  readonly password: NewPassword;
}

/** An address is required and must be one the domain accepts. */
const emailProblem = (email: string) => (!email.trim() ? 'common.required' : !EmailAddress.safeParse(email).success ? 'common.emailInvalid' : null);

/**
 * The root account's form: @mantine/form holds the address, the name and the new password. From
 * the first try on, each field says what it lacks as it is typed (the name and password fields
 * check themselves, from `submitted`); a refusal is said above the form.
 */
export function useSetupForm(token: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const beginSession = useStartSession();
  const form = useForm<SetupValues>({
    mode: 'controlled',
    initialValues: { email: '', name: { firstName: '', lastName: '' }, password: { password: '', confirm: '' } },
    validate: {
      email: (value) => {
        const problem = emailProblem(value);
        return problem ? t(problem) : null;
      },
    },
  });
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<SetupMessage | null>(null);

  const setup = useMutation({
    mutationFn: ({ email, name, password }: SetupValues) =>
      callApi(
        completeSetup,
        {
          body: {
            token,
            email: email.trim(),
            firstName: name.firstName.trim(),
            lastName: name.lastName.trim(),
            password: password.password,
          },
        },
        { failures: 'caller' },
      ),
    onSuccess: (grant) => {
      // The new root session re-renders RootPage, which moves on to the console.
      beginSession(grant);
      queryClient.setQueryData(rootQueryKeys.setupStatus, { required: false });
    },
    onError: (error) => {
      setMessage(setupErrorMessage(error));
      // Someone may have completed setup meanwhile; then the page should say so.
      void queryClient.invalidateQueries({ queryKey: rootQueryKeys.setupStatus });
    },
  });

  const setEmail = (email: string) => {
    form.setFieldValue('email', email);
    if (submitted) form.validateField('email');
  };
  const setName = (name: SetupValues['name']) => form.setFieldValue('name', name);
  const setPassword = (password: NewPassword) => form.setFieldValue('password', password);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setMessage(null);
    const { hasErrors } = form.validate();
    const values = form.getValues();
    const problems = { ...nameProblems(values.name), ...newPasswordProblems(values.password) };
    if (hasErrors || Object.keys(problems).length > 0) return;
    setup.mutate(values);
  };

  return { form, submitted, message, setup, setEmail, setName, setPassword, onSubmit };
}
