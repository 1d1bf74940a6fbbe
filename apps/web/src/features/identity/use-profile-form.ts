import { useForm } from '@mantine/form';
import { ResponseCode, updateProfile, type UserInfo } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { profileQueryKey } from '../../api/profile';
import { updateSessionUser } from './update-session-user';

export type Editable = Record<'title' | 'firstName' | 'middleName' | 'lastName' | 'phone' | 'company' | 'department' | 'timeZone' | 'locale', string>;

function editableOf(profile: UserInfo): Editable {
  return {
    title: profile.title ?? '',
    firstName: profile.firstName,
    middleName: profile.middleName ?? '',
    lastName: profile.lastName,
    phone: profile.phone ?? '',
    company: profile.company ?? '',
    department: profile.department ?? '',
    timeZone: profile.timeZone ?? '',
    locale: profile.locale ?? '',
  };
}

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Asia/Kolkata'];
  }
}

const nullable = (value: string) => (value.trim() ? value.trim() : null);

/**
 * The profile form's state: @mantine/form holds the details and each field's refusal, its own
 * checks' at save or the server's, which stays until the next save (typing does not clear it).
 */
export function useProfileForm(profile: UserInfo) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initialValues] = useState<Editable>(() => editableOf(profile));
  const form = useForm<Editable>({
    mode: 'controlled',
    initialValues,
    validate: {
      firstName: (value) => (value.trim() ? null : t('common.required')),
      lastName: (value) => (value.trim() ? null : t('common.required')),
      phone: (value) => (value.trim() && !/^\+?[0-9 ()-]{6,20}$/.test(value.trim()) ? t('profile.invalid.phone') : null),
    },
    clearInputErrorOnChange: false,
  });
  const [result, setResult] = useState<'saved' | 'failed' | 'unreachable' | null>(null);
  const { timeZone } = form.getValues();
  const zones = useMemo(() => {
    const all = timeZones();
    return timeZone && !all.includes(timeZone) ? [timeZone, ...all] : all;
  }, [timeZone]);

  const save = useMutation({
    mutationFn: (value: Editable) =>
      callApi(updateProfile, {
        body: {
          title: nullable(value.title),
          firstName: value.firstName.trim(),
          middleName: nullable(value.middleName),
          lastName: value.lastName.trim(),
          phone: nullable(value.phone),
          company: nullable(value.company),
          department: nullable(value.department),
          timeZone: nullable(value.timeZone),
          locale: value.locale === 'en' || value.locale === 'hi' ? value.locale : null,
        },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(profileQueryKey, saved);
      updateSessionUser({ firstName: saved.firstName, middleName: saved.middleName, lastName: saved.lastName, locale: saved.locale });
      form.setValues(editableOf(saved));
      setResult('saved');
    },
    onError: (error, value) => {
      if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && error.issues?.length) {
        const fieldErrors: Partial<Record<keyof Editable, string>> = {};
        for (const issue of error.issues) {
          if (issue.path in value) fieldErrors[issue.path as keyof Editable] = t(`profile.invalid.${issue.path === 'phone' || issue.path === 'timeZone' ? issue.path : 'generic'}`);
        }
        form.setErrors(fieldErrors);
        if (Object.keys(fieldErrors).length > 0) return;
      }
      setResult(error instanceof ApiError && error.httpStatus === 0 ? 'unreachable' : 'failed');
    },
  });

  const onSubmit = form.onSubmit(
    (value) => {
      setResult(null);
      save.mutate(value);
    },
    () => setResult(null),
  );

  return { form, zones, result, save, onSubmit };
}
