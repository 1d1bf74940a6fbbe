import { fullName } from '@pakt/domain';
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { SessionUser } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { profileQuery, useProfilePhotoUrl } from '../../api/profile';
import { useLogout } from '../../api/session-lifecycle';
import { useCurrentTenant, useCurrentUser } from '../../api/session-store';
import { KeyIcon, LogoutIcon, MailIcon, UserIcon } from '../../ui/icons';

/**
 * Spec section 2, header: the user widget with profile, logout and FAQ. The FAQ item is left out
 * until the help pages exist (issue 21: it led to "Page not found"); the optional switch to the
 * newer view joins it when that view exists.
 */
export function UserWidget() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tenant = useCurrentTenant();
  const logout = useLogout();
  if (!user) return null;
  const name = fullName(user);

  return (
    // Fixed like the header it hangs from: an absolute dropdown moves with the page's scroll, and
    // on a phone, scrolling it into view moved it again (a click never found it still).
    <Menu position="bottom-end" width={240} shadow="md" withinPortal floatingStrategy="fixed">
      <Menu.Target>
        <UnstyledButton aria-label={t('shell.accountMenu', { name })} title={t('shell.signedInAs', { name })}>
          <Group gap="xs" wrap="nowrap">
            <HeaderAvatar user={user} name={name} />
            <Text size="sm" fw={500} visibleFrom="sm" truncate maw={180}>
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          <Text size="xs" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/profile" leftSection={<UserIcon size={16} />}>
          {t('shell.profile')}
        </Menu.Item>
        <Menu.Item component={Link} to="/changepassword" leftSection={<KeyIcon size={16} />}>
          {t('shell.changePassword')}
        </Menu.Item>
        {tenant?.userRole === 'admin' && (
          <Menu.Item component={Link} to="/admin?section=outbox" leftSection={<MailIcon size={16} />}>
            {t('shell.outbox')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item leftSection={<LogoutIcon size={16} />} onClick={() => void logout()}>
          {t('shell.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The profile photo when there is one, else the initials. Whether there is one comes from the
 * profile, which the profile page shares, so an upload or removal there shows here at once.
 */
function HeaderAvatar({ user, name }: { readonly user: SessionUser; readonly name: string }) {
  const profile = useQuery(profileQuery);
  // The cache could still hold someone else's profile for a moment after another tab switched accounts.
  const hasPhoto = profile.data?.id === user.id && profile.data.hasPhoto;
  const photoUrl = useProfilePhotoUrl(user.id, hasPhoto);
  return <Avatar radius="xl" size="md" color="initials" name={name} src={photoUrl} alt="" data-testid="header-avatar" />;
}
