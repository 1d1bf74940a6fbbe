import { Button, Checkbox, Group, Modal, Select, Stack } from '@mantine/core';
import { type AdminUser, ASSIGNABLE_ROLES, type RoleChange } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { roleLabelKey, userName } from './user-model';
import { useRoleForm } from './use-role-form';

export function RoleDialog({ user, onClose, onSave }: { readonly user: AdminUser; readonly onClose: () => void; readonly onSave: (change: RoleChange) => void }) {
  const { t } = useTranslation();
  const { form, setRole, save } = useRoleForm(user, onSave);
  const { role } = form.values;
  return (
    <Modal opened onClose={onClose} title={t('users.roles.title', { name: userName(user) })} centered>
      <Stack gap="md">
        <Select
          label={t('users.roles.role')}
          placeholder={t('users.roles.pick')}
          data={ASSIGNABLE_ROLES.map((value) => ({ value, label: t(roleLabelKey(value)) }))}
          {...form.getInputProps('role')}
          allowDeselect={false}
          onChange={setRole}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        {role === 'admin' && <Checkbox label={t('users.roles.retentionAdmin')} {...form.getInputProps('retentionAdmin', { type: 'checkbox' })} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('users.roles.cancel')}
          </Button>
          <Button disabled={!role} onClick={save}>
            {t('users.roles.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
