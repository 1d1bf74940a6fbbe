import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { profileQuery } from '../../api/profile';
import { RequireRoute } from '../../api/access';
import { SetPasswordDialog } from '../../ui/set-password-dialog';
import { RubberStampsSection } from '../rubber-stamps';
import { ProfileDetailsSection } from './profile-details-section';
import { ProfilePhotoSection } from './profile-photo-section';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { TwoFactorSection } from './two-factor-section';

export function ProfilePage() {
  return (
    <RequireRoute route="profile">
      <Profile />
    </RequireRoute>
  );
}

function Profile() {
  const { t } = useTranslation();
  const profile = useQuery(profileQuery);
  useDocumentTitle(`${t('profile.title')} · Pakt`);

  let body = queryPlaceholder(profile, { loading: t('profile.loading'), loadFailed: t('profile.loadFailed'), retry: t('root.retry') });
  if (profile.isSuccess) {
    body = (
      <>
        <ProfilePhotoSection profile={profile.data} />
        <ProfileDetailsSection profile={profile.data} />
        <TwoFactorSection enabled={profile.data.totpEnabled} />
        <PasswordSection />
        <RubberStampsSection />
      </>
    );
  }

  return (
    <Stack gap="lg" maw={760} mx="auto">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {t('profile.title')}
        </Title>
        {profile.data && (
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {profile.data.email}
          </Text>
        )}
      </Stack>
      {body}
    </Stack>
  );
}

/**
 * Signed in, the person has a password already: the set-password dialog updates it (its register
 * mode is for external invitees arriving with an invitation, who have no session yet).
 */
function PasswordSection() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="password-heading">
      <Group justify="space-between" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id="password-heading">
            {t('profile.passwordHeading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('profile.passwordHint')}
          </Text>
        </Stack>
        <Button variant="light" onClick={() => setOpen(true)}>
          {t('changePassword.title')}
        </Button>
      </Group>
      <SetPasswordDialog mode="update" opened={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
