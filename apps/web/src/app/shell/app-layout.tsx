import { AppShell, Container, Group, Progress, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { AnnouncementBanner } from '../../features/announcements/announcement-banner';
import { useLogout, useSessionKeepAlive, useSessionTimer, useSessionUserRefresh } from '../../api/session-lifecycle';
import { useSession } from '../../api/session-store';
import { useLanguageSync } from '../../i18n/use-languages';
import { PaktMark } from '../../ui/icons';
import { FlashNotice } from '../../ui/flash-notice';
import { useLandingPath } from '../../api/access';
import { shouldShowLanguageSelector } from './header-rules';
import { firstSegment } from './global-search-rules';
import { LanguageSelector } from '../../ui/language-selector';
import { useSignedInChrome } from './use-signed-in-chrome';

const WIDE_PAGES: readonly string[] = ['epaks', 'dashboard'];

export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  // A page visited for the first time downloads its chunk before it shows (routes.tsx).
  const loadingPage = useNavigation().state === 'loading';
  const session = useSession();
  // Menus, search, account and notifications: fetched once someone is signed in.
  const chrome = useSignedInChrome(session !== null);
  const landingPath = useLandingPath().path;
  const logout = useLogout();
  useLanguageSync();
  // Spec section 4, "User session (UIS)": when it runs out the session ends and the login page says why.
  useSessionTimer(() => void logout('sessionExpired'));
  useSessionKeepAlive();
  useSessionUserRefresh();

  const showLanguage = shouldShowLanguageSelector({
    loggedIn: session !== null,
    pathname: location.pathname,
    search: location.search,
  });

  return (
    <AppShell header={{ height: 60 }} padding={{ base: 'sm', sm: 'lg' }}>
      <AppShell.Header>
        {loadingPage && <Progress value={100} animated size={3} radius={0} pos="absolute" left={0} right={0} bottom={0} aria-label={t('shell.loadingPage')} />}
        <Group h="100%" px={{ base: 'sm', sm: 'lg' }} justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="xs" wrap="nowrap">
            {/* The logo leads where sign-in does: the person's landing page (signed out, the product page). */}
            <UnstyledButton component={Link} to={landingPath} aria-label={t('shell.homeLink')}>
              <Group gap={8} wrap="nowrap">
                <PaktMark />
                <Text component="span" fw={700} size="xl" lh={1} visibleFrom={session ? 'sm' : undefined}>
                  Pakt
                </Text>
              </Group>
            </UnstyledButton>
            {chrome && <chrome.MainMenu />}
          </Group>
          <Group gap="sm" wrap="nowrap" miw={0}>
            {chrome && <chrome.GlobalSearch />}
            {showLanguage && <LanguageSelector />}
            {chrome && <chrome.TenantSelector />}
            {chrome && <chrome.UserWidget />}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        {/* The inbox and the dashboard hold a table of many columns: they get the wider page. */}
        <Container size={WIDE_PAGES.includes(firstSegment(location.pathname)) ? 'xl' : 'md'} px={0} py={{ base: 'md', sm: 'xl' }}>
          {/* Spec §2: the announcement banner, on the login, dashboard and two-factor routes. */}
          <AnnouncementBanner />
          <FlashNotice />
          <Outlet />
        </Container>
      </AppShell.Main>
      {/* A new page starts at its top (a long form submitted from its bottom would otherwise leave
          the next page scrolled); back and forward return to where the person was. */}
      <ScrollRestoration />
      {/* Spec §7: realtime notifications (toasts, desktop notifications) of the signed-in person. */}
      {chrome && <chrome.NotificationProvider />}
      {/* A minute before the UIS session ends for inactivity: stay, or sign out now. */}
      {chrome && <chrome.IdleSignOutWarning onSignOut={() => void logout('logout')} />}
    </AppShell>
  );
}
