import { useForm } from '@mantine/form';
import { type TenantSettingsView, updateTenantSettings } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, callApi } from '../../api/client';
import { accessQueryKeys } from '../../api/access';
import { useCurrentTenant } from '../../api/session-store';
import { tenantQueryKeys } from '../../api/tenant-queries';
import { changeCount, changesOf, draftOf, fieldErrors, type SettingsDraft } from './settings-model';
import type { FormProps } from './settings-groups';

export const settingsQueryKey = (tenantUuid: string | undefined) => ['tenant', tenantUuid, 'settings'] as const;

/**
 * The settings draft: @mantine/form holds every setting and password rule, and the server's
 * refusals by the path of their field (`settings.<key>`, `passwordConfig.<key>`). A refusal stays
 * beside its field until the next save or a discard, whatever is typed meanwhile.
 */
export function useSettingsForm(view: TenantSettingsView) {
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const form = useForm<SettingsDraft>({ mode: 'controlled', initialValues: draftOf(view), clearInputErrorOnChange: false });
  const [saved, setSaved] = useState(false);
  const { setValues } = form;
  useEffect(() => setValues(draftOf(view)), [view, setValues]);

  const save = useMutation({
    mutationFn: () => callApi(updateTenantSettings, { body: changesOf(view, form.getValues())! }, { failures: 'caller' }),
    onSuccess: async (next) => {
      form.clearErrors();
      setSaved(true);
      queryClient.setQueryData(settingsQueryKey(tenant?.tenantUuid), next);
      // The menu, the routes and every screen's configuration follow the new values at once.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accessQueryKeys.all }),
        queryClient.invalidateQueries({ queryKey: tenantQueryKeys.all(tenant?.tenantUuid) }),
      ]);
    },
    onError: (error) => {
      setSaved(false);
      form.setErrors(error instanceof ApiError ? fieldErrors(error.issues) : {});
    },
  });

  const set: FormProps['set'] = (key, value) => {
    setSaved(false);
    form.setFieldValue('settings', (current) => ({ ...current, [key]: value }));
  };
  const setPassword: FormProps['setPassword'] = (key, value) => {
    setSaved(false);
    form.setFieldValue('passwordConfig', (current) => ({ ...current, [key]: value }));
  };
  const discard = () => {
    form.setValues(draftOf(view));
    form.clearErrors();
    save.reset();
  };

  const draft = form.values;
  const changes = changeCount(view, draft);
  const props: FormProps = { view, draft, errors: form.errors as Record<string, string>, set, setPassword };
  return { form, saved, save, changes, props, discard };
}
