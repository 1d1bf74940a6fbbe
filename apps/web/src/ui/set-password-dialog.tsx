import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { registerUserTenant, type PasswordConfig, type SessionUser, fullName } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../api/client';
import { usePasswordConfig } from '../api/password-config';
import { endSession, useStartSession } from '../api/session-lifecycle';
import { sessionStore, type Session } from '../api/session-store';
import { FormError } from './form-error';
import { PasswordField } from './password-field';
import { NewPasswordFields, newPasswordProblems, type NewPassword } from './password-fields';
import { PasswordIssues, passwordRefusal, type PasswordRefusal } from './password-issues';
import { registerErrorMessage } from './registration-errors';
import { useChangePasswordForm } from './use-change-password-form';

/**
 * Who registers where, in register mode. The caller has it from the invitation it holds (an
 * email-signing link, say); the dialog only sends it along with the new password.
 */
export interface InvitationContext {
  readonly inviteCode: string;
  readonly tenantUuid: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

interface DialogBase {
  readonly opened: boolean;
  /** Cancel, Escape, the close button, and Done after success all end here. */
  readonly onClose: () => void;
}

/**
 * Spec section 4's set-password dialog. The mode comes from `setPasswordMode` (packages/domain):
 * 'register' for an external invitee, who has no password yet and needs the invitation to get one;
 * 'update' for everyone else, who proves the current one.
 */
export type SetPasswordDialogProps = DialogBase &
  (
    | { readonly mode: 'update'; readonly onUpdated?: (user: SessionUser) => void }
    | { readonly mode: 'register'; readonly invitation: InvitationContext; readonly onRegistered?: (session: Session) => void }
  );

export function SetPasswordDialog(props: SetPasswordDialogProps) {
  const { t } = useTranslation();
  // While a request runs, closing would hide its outcome (and in register mode, a new session).
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (!busy) props.onClose();
  };
  return (
    <Modal
      opened={props.opened}
      onClose={close}
      title={t(props.mode === 'update' ? 'changePassword.title' : 'setPassword.registerTitle')}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('setPassword.close') }}
      size="md"
      centered
    >
      {/* Mantine unmounts the content when closed, so every opening starts with an empty form. */}
      {props.mode === 'update' ? (
        <UpdateForm onBusy={setBusy} onClose={close} onUpdated={props.onUpdated} />
      ) : (
        <RegisterForm onBusy={setBusy} onClose={close} invitation={props.invitation} onRegistered={props.onRegistered} />
      )}
    </Modal>
  );
}

interface FormProps {
  readonly onBusy: (busy: boolean) => void;
  readonly onClose: () => void;
}

/** After success the form gives way to the confirmation, which stays until the person closes it. */
function Done({ message, onClose }: { readonly message: ParseKeys; readonly onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="teal" variant="light" role="status">
        {t(message)}
      </Alert>
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus>
          {t('setPassword.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The parts both modes share: intro, refusals, the rules' availability, the buttons. */
function FormFrame({
  intro,
  message,
  refusal,
  configFailed,
  config,
  submitLabel,
  pending,
  onSubmit,
  onCancel,
  children,
}: {
  readonly intro: string;
  readonly message: ParseKeys | null;
  readonly refusal: PasswordRefusal | null;
  readonly configFailed: boolean;
  readonly config: PasswordConfig;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  readonly onCancel: () => void;
  readonly children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
        <FormError message={message} />
        {refusal && refusal.rules.length > 0 && (
          <Alert color="red" variant="light" role="alert">
            <PasswordIssues rules={refusal.rules} config={config} />
          </Alert>
        )}
        {configFailed && (
          <Alert color="yellow" variant="light" role="status">
            {t('passwordConfigError')}
          </Alert>
        )}
        {children}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            {t('setPassword.cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What the server said about the new password, for the field it concerns. */
function useServerProblem(refusal: PasswordRefusal | null): { password?: string; confirm?: string } | undefined {
  const { t } = useTranslation();
  if (!refusal) return undefined;
  return refusal.mismatch ? { confirm: t('passwordMissMatch') } : { password: t('passwordInvalid') };
}

function UpdateForm({ onBusy, onClose, onUpdated }: FormProps & { readonly onUpdated?: (user: SessionUser) => void }) {
  const { t } = useTranslation();
  const { form, config, failed, submitted, refusal, message, change, onSubmit } = useChangePasswordForm({
    onBusy,
    onSuccess: (user) => onUpdated?.(user),
  });
  const serverProblem = useServerProblem(refusal);

  if (change.isSuccess) return <Done message="passwordChangeSuccess" onClose={onClose} />;

  return (
    <FormFrame
      intro={t('changePassword.intro')}
      message={message}
      refusal={refusal}
      configFailed={failed}
      config={config}
      submitLabel={t('changePassword.submit')}
      pending={change.isPending}
      onSubmit={onSubmit}
      onCancel={onClose}
    >
      <PasswordField
        label={t('changePassword.oldPassword')}
        autoComplete="current-password"
        required
        data-autofocus
        {...form.getInputProps('oldPassword')}
      />
      <NewPasswordFields
        label={t('changePassword.newPassword')}
        value={form.getValues().newPassword}
        onChange={(newPassword) => form.setFieldValue('newPassword', newPassword)}
        showErrors={submitted}
        config={config}
        serverProblem={serverProblem}
      />
    </FormFrame>
  );
}

function RegisterForm({
  onBusy,
  onClose,
  invitation,
  onRegistered,
}: FormProps & { readonly invitation: InvitationContext; readonly onRegistered?: (session: Session) => void }) {
  const { t } = useTranslation();
  const beginSession = useStartSession();
  const { config, failed } = usePasswordConfig(invitation.tenantUuid);
  // The new password and its confirmation; their problems are NewPasswordFields' own, shown once submitted.
  const form = useForm<NewPassword>({ mode: 'controlled', initialValues: { password: '', confirm: '' } });
  const [submitted, setSubmitted] = useState(false);
  const [refusal, setRefusal] = useState<PasswordRefusal | null>(null);
  const [message, setMessage] = useState<ParseKeys | null>(null);
  const serverProblem = useServerProblem(refusal);

  const register = useMutation({
    mutationFn: async () => {
      // Read as the request starts, not handed to mutate, so the password is not kept among the mutation's variables.
      const password = form.getValues();
      const grant = await callApi(
        registerUserTenant,
        {
          body: {
            userEmail: invitation.email,
            firstName: invitation.firstName,
            lastName: invitation.lastName,
            // Only external invitees register here (setPasswordMode); internal ones use /register.
            userType: 'external',
            userLoginType: 'Email',
            newPassword: password.password,
            confirmPassword: password.confirm,
            inviteCode: invitation.inviteCode,
            tenantUuid: invitation.tenantUuid,
          },
        },
        { failures: 'caller' },
      );
      // As on the register page: whoever was signed in in this browser is signed out properly first.
      if (sessionStore.get()) await endSession();
      return grant;
    },
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: (grant) => onRegistered?.(beginSession(grant)),
    onError: (error) => {
      const refused = passwordRefusal(error);
      if (refused) return setRefusal(refused);
      setMessage(registerErrorMessage(error));
    },
  });

  if (register.isSuccess) return <Done message="REGISTERATION_SUCCESS" onClose={onClose} />;

  const onSubmit = form.onSubmit((password) => {
    setSubmitted(true);
    setRefusal(null);
    setMessage(null);
    if (Object.keys(newPasswordProblems(password, config)).length > 0) return;
    register.mutate();
  });

  return (
    <FormFrame
      intro={t('setPassword.registerIntro', { name: fullName(invitation) })}
      message={message}
      refusal={refusal}
      configFailed={failed}
      config={config}
      submitLabel={t('setPassword.registerSubmit')}
      pending={register.isPending}
      onSubmit={onSubmit}
      onCancel={onClose}
    >
      {/* Read-only, and there for password managers to file the new password under. */}
      <TextInput label={t('common.email')} value={invitation.email} readOnly variant="filled" autoComplete="username" />
      <NewPasswordFields
        autoFocus
        value={form.getValues()}
        onChange={form.setValues}
        showErrors={submitted}
        config={config}
        serverProblem={serverProblem}
      />
    </FormFrame>
  );
}
