import { useForm } from '@mantine/form';
import { createTenant, EmailAddress, ResponseCode } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { nameProblems } from '../../ui/person-name-fields';
import { rootQueryKeys } from './queries';

type CreateFieldError = 'root.create.tenantExists' | 'root.create.tenantNameTooShort' | 'root.create.userExists' | 'common.emailInvalid';
type CreateFieldErrors = { tenantName?: CreateFieldError; email?: CreateFieldError };

/** Maps a refused creation to the field it concerns, or to a message for the whole form. */
export function createTenantErrors(error: unknown): { fields: CreateFieldErrors; message?: 'root.create.failed' | 'common.unreachable' } {
  if (!(error instanceof ApiError)) return { fields: {}, message: 'root.create.failed' };
  if (error.httpStatus === 0) return { fields: {}, message: 'common.unreachable' };
  if (error.code === ResponseCode.TENANT_ALREADY_EXISTS.code) return { fields: { tenantName: 'root.create.tenantExists' } };
  if (error.code === ResponseCode.USER_ALREADY_EXISTS.code || error.code === ResponseCode.USER_WITH_TENANT.code) {
    return { fields: { email: 'root.create.userExists' } };
  }
  if (error.code === ResponseCode.INVALID_INPUT.code && error.issues) {
    const fields: CreateFieldErrors = {};
    for (const issue of error.issues) {
      if (issue.path === 'tenantName') fields.tenantName = 'root.create.tenantNameTooShort';
      if (issue.path === 'admin.email') fields.email = 'common.emailInvalid';
    }
    if (fields.tenantName || fields.email) return { fields };
  }
  return { fields: {}, message: 'root.create.failed' };
}

export interface TenantValues {
  readonly tenantName: string;
  readonly admin: { readonly email: string; readonly firstName: string; readonly lastName: string };
}

const EMPTY: TenantValues = { tenantName: '', admin: { email: '', firstName: '', lastName: '' } };

/** What the form checks itself, by the path of the field that shows it. */
function localErrors({ tenantName, admin }: TenantValues): Partial<Record<string, ParseKeys>> {
  const email = !admin.email.trim() ? 'common.required' : !EmailAddress.safeParse(admin.email).success ? 'common.emailInvalid' : null;
  return {
    ...(tenantName.trim().length < 2 ? { tenantName: 'root.create.tenantNameTooShort' } : {}),
    ...(email ? { 'admin.email': email } : {}),
  };
}

export interface CreatedTenant {
  readonly tenantName: string;
  readonly email: string;
  readonly link: string;
}

/**
 * The new tenant's form: @mantine/form holds the tenant's name and its first admin, and the
 * server's refusals by field, which stay until the next try. From the first try on, a field's own
 * rule is said first, as it is typed; the name fields check themselves, from `submitted`.
 */
export function useCreateTenantForm(onCreated: (invite: CreatedTenant) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<'root.create.failed' | 'common.unreachable' | null>(null);
  const form = useForm<TenantValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    // A server refusal is not taken back by typing: the name stays taken until another is tried.
    clearInputErrorOnChange: false,
    enhanceGetInputProps: ({ field, form: current }) => {
      const local = submitted ? localErrors(current.getValues())[field] : undefined;
      return local ? { error: t(local) } : undefined;
    },
  });

  const create = useMutation({
    mutationFn: ({ tenantName, admin }: TenantValues) =>
      callApi(createTenant, {
        body: {
          tenantName: tenantName.trim(),
          admin: { email: admin.email.trim(), firstName: admin.firstName.trim(), lastName: admin.lastName.trim() },
        },
      }),
    onSuccess: (result, { admin }) => {
      onCreated({ tenantName: result.tenant.tenantName, email: admin.email.trim(), link: result.inviteLink });
      form.reset();
      setSubmitted(false);
      void queryClient.invalidateQueries({ queryKey: rootQueryKeys.tenants });
    },
    onError: (error) => {
      const refusal = createTenantErrors(error);
      const { tenantName, email } = refusal.fields;
      form.setErrors({ tenantName: tenantName && t(tenantName), 'admin.email': email && t(email) });
      setMessage(refusal.message ?? null);
    },
  });

  const setAdmin = (admin: TenantValues['admin']) => form.setFieldValue('admin', admin);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    form.clearErrors();
    setMessage(null);
    const values = form.getValues();
    if (Object.keys(localErrors(values)).length > 0 || Object.keys(nameProblems(values.admin)).length > 0) return;
    create.mutate(values);
  };

  return { form, submitted, message, create, setAdmin, onSubmit };
}
