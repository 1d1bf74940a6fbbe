import { Avatar, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../api/session-store';

/** Who is signed in. Profile, logout and FAQ join it with the login work (spec section 2). */
export function UserWidget() {
  const { t } = useTranslation();
  const user = useSession()?.user;
  if (!user) return null;
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={t('shell.signedInAs', { name: user.name })}>
      <Avatar radius="xl" size="md" color="initials" name={user.name} />
      <Text size="sm" fw={500} visibleFrom="sm" truncate maw={180}>
        {user.name}
      </Text>
    </Group>
  );
}
