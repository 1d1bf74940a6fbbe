import { useForm } from '@mantine/form';
import { type AdminUser, ASSIGNABLE_ROLES, type RoleChange } from '@pakt/domain';

export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export interface RoleValues {
  /** null until a role is picked: someone whose role cannot be given here starts with none. */
  readonly role: AssignableRole | null;
  readonly retentionAdmin: boolean;
}

/** One person's role change: @mantine/form holds the role and, for an admin, the retention flag. */
export function useRoleForm(user: AdminUser, onSave: (change: RoleChange) => void) {
  const current = (ASSIGNABLE_ROLES as readonly string[]).includes(user.role) ? (user.role as AssignableRole) : null;
  const form = useForm<RoleValues>({ mode: 'controlled', initialValues: { role: current, retentionAdmin: user.retentionAdmin } });

  const setRole = (value: string | null) => form.setFieldValue('role', value as AssignableRole | null);
  const save = () => {
    const { role, retentionAdmin } = form.getValues();
    if (role) onSave({ userId: user.userId, role, ...(role === 'admin' ? { retentionAdmin } : {}) });
  };

  return { form, setRole, save };
}
