import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { inviteTenantSuperadmin, ResponseCode, SuperadminInvitee } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useMailDelivered } from '../../api/public-queries';
import { CheckIcon, CopyIcon, UserPlusIcon } from '../../ui/icons';

type Field = 'email' | 'firstName' | 'lastName';

/** What a refused super-admin call means: a field's own message when it concerns one, else the form's. */
export interface SuperadminProblem {
  readonly key: ParseKeys;
  readonly field?: Field;
  /** The server's own words, for refusals the screen has no message of its own for. */
  readonly detail?: string;
}

export function superadminProblem(error: unknown): SuperadminProblem {
  if (!(error instanceof ApiError)) return { key: 'superadmins.errors.failed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  switch (error.code) {
    case ResponseCode.USER_WITH_TENANT.code:
      return { key: 'superadmins.errors.alreadyMember', field: 'email' };
    case ResponseCode.USER_DISABLED.code:
      return { key: 'superadmins.errors.disabledAccount', field: 'email' };
    case ResponseCode.NOT_AUTHORIZED.code:
      return { key: 'superadmins.errors.notAllowed' };
    case ResponseCode.INVALID_INPUT.code: {
      const fields = (error.issues ?? []).map((issue) => issue.path.replace(/^body\./, ''));
      if (fields.includes('email')) return { key: 'common.emailInvalid', field: 'email' };
      if (fields.includes('firstName')) return { key: 'common.required', field: 'firstName' };
      if (fields.includes('lastName')) return { key: 'common.required', field: 'lastName' };
      // Without issues the address itself was refused: the instance administrator's.
      if (fields.length === 0) return { key: 'superadmins.errors.cannotInvite', field: 'email' };
      break;
    }
  }
  if (error.httpStatus === 404) return { key: 'superadmins.errors.notFound' };
  return { key: 'superadmins.errors.failed', ...(error.message ? { detail: error.message } : {}) };
}

const EMPTY = { email: '', firstName: '', middleName: '', lastName: '' };
type Values = typeof EMPTY;

/** The invitee as the domain reads it: a blank middle name is none. */
const parseInvitee = (values: Values) => SuperadminInvitee.safeParse({ ...values, middleName: values.middleName.trim() || undefined });

/** What the domain's schema says of each field, in the screen's words. */
function localErrors(values: Values): Partial<Record<Field, ParseKeys>> {
  const parsed = parseInvitee(values);
  if (parsed.success) return {};
  const errors: Partial<Record<Field, ParseKeys>> = {};
  for (const field of ['email', 'firstName', 'lastName'] as const) {
    if (!parsed.error.issues.some((issue) => issue.path[0] === field)) continue;
    errors[field] = field === 'email' && values.email.trim() ? 'common.emailInvalid' : 'common.required';
  }
  return errors;
}

/**
 * The person to invite as a super admin: the domain's schema checks the fields before anything
 * is sent, and the server's refusals land on the field they concern. `send` makes the call.
 */
export function SuperadminInviteForm<T>({
  send,
  onSent,
  onCancel,
}: {
  readonly send: (invitee: SuperadminInvitee) => Promise<T>;
  readonly onSent: (result: T, invitee: SuperadminInvitee) => void;
  readonly onCancel: () => void;
}) {
  const { t } = useTranslation();
  // Each field shows its own rule from the first try on, as it is typed; a server refusal on a
  // field lasts until that field changes.
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: (values) => Object.fromEntries(Object.entries(localErrors(values)).map(([field, key]) => [field, t(key)])),
  });
  const [submitted, setSubmitted] = useState(false);
  // A refusal no field shows, above the fields.
  const [problem, setProblem] = useState<SuperadminProblem | null>(null);

  const invite = useMutation({
    mutationFn: send,
    onSuccess: (result, invitee) => {
      form.reset();
      setSubmitted(false);
      onSent(result, invitee);
    },
    onError: (error) => {
      const found = superadminProblem(error);
      if (!found.field) return setProblem(found);
      // The field's own rule goes first, should it have been broken meanwhile.
      if (!localErrors(form.getValues())[found.field]) form.setFieldError(found.field, t(found.key));
    },
  });

  const set = (field: keyof Values) => (value: string) => {
    form.setFieldValue(field, value);
    if (submitted && field !== 'middleName') form.validateField(field);
    setProblem(null);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setProblem(null);
    form.validate();
    const parsed = parseInvitee(form.getValues());
    if (parsed.success) invite.mutate(parsed.data);
  };
  const field = (name: keyof Values) => ({
    ...form.getInputProps(name),
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(name)(event.currentTarget.value),
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {t(problem.key)}
            {problem.detail && (
              <Text size="xs" mt={4}>
                {problem.detail}
              </Text>
            )}
          </Alert>
        )}
        <TextInput
          label={t('common.email')}
          type="email"
          inputMode="email"
          autoComplete="off"
          required
          maxLength={254}
          {...field('email')}
          data-autofocus
        />
        <TextInput label={t('common.firstName')} required maxLength={100} {...field('firstName')} />
        <TextInput label={t('common.middleName')} maxLength={100} {...field('middleName')} />
        <TextInput label={t('common.lastName')} required maxLength={100} {...field('lastName')} />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onCancel}>
            {t('superadmins.register.cancel')}
          </Button>
          <Button type="submit" loading={invite.isPending} leftSection={<UserPlusIcon size={16} />}>
            {t('superadmins.register.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Root's "Invite super admin" for one tenant: the tenant's first super admin can only come from
 * here. The link is shown once, as for a new tenant's admin, so the person can be reached before
 * mail is configured.
 */
export function RootSuperadminDialog({
  tenant,
  onClose,
  onInvited,
}: {
  readonly tenant: { readonly tenantUuid: string; readonly tenantName: string };
  readonly onClose: () => void;
  readonly onInvited?: () => void;
}) {
  const { t } = useTranslation();
  const mailDelivered = useMailDelivered();
  const [invited, setInvited] = useState<{ email: string; link: string } | null>(null);
  return (
    <Modal opened onClose={onClose} title={t('superadmins.root.title', { tenant: tenant.tenantName })} centered>
      {invited ? (
        <Stack gap="sm">
          <Alert color="teal" variant="light" role="status" icon={<CheckIcon size={20} />}>
            {t('superadmins.root.done', { email: invited.email, tenant: tenant.tenantName })}
          </Alert>
          <TextInput label={t('superadmins.root.link')} value={invited.link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <Group justify="flex-end" gap="xs">
            <CopyButton value={invited.link}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy} color={copied ? 'teal' : undefined} leftSection={copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}>
                  {copied ? t('superadmins.root.copied') : t('superadmins.root.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>{t('superadmins.root.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t(mailDelivered ? 'superadmins.root.intro' : 'superadmins.root.introOutbox')}
          </Text>
          <SuperadminInviteForm
            send={(invitee) => callApi(inviteTenantSuperadmin, { params: { tenantId: tenant.tenantUuid }, body: invitee }, { failures: 'caller' })}
            onSent={(result, invitee) => {
              setInvited({ email: invitee.email, link: result.inviteLink });
              onInvited?.();
            }}
            onCancel={onClose}
          />
        </Stack>
      )}
    </Modal>
  );
}
