import { Alert, Stack, Text } from '@mantine/core';
import { type Announcement, currentAnnouncements } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { SESSION_STORAGE_KEYS } from '../../api/storage-keys';
import { bannerState, delayUntil, isBannerRoute } from './banner-schedule';
import { announcementQueryKeys } from './queries';

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readDismissed(): Set<string> {
  try {
    const parsed: unknown = JSON.parse(tabStorage()?.getItem(SESSION_STORAGE_KEYS.dismissedAnnouncements) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeDismissed(ids: ReadonlySet<string>): void {
  try {
    tabStorage()?.setItem(SESSION_STORAGE_KEYS.dismissedAnnouncements, JSON.stringify([...ids]));
  } catch {
    // Storage full or refused: the banner stays closed until the page is reloaded, which is enough.
  }
}

/**
 * The announcements in force, shown and hidden on time: one timer waits for the next start or end
 * (capped, spec §9; a capped timer that fires early just looks again). Each can be dismissed for
 * the rest of the session (this tab; logout clears it).
 */
export function AnnouncementBannerView({ announcements }: { readonly announcements: readonly Announcement[] }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const [dismissed, setDismissed] = useState(readDismissed);
  // A fresh list may already hold one that started while the old timer waited.
  useEffect(() => setNow(Date.now()), [announcements]);
  const { visible, nextChangeAt } = useMemo(() => bannerState(announcements, now, dismissed), [announcements, now, dismissed]);

  useEffect(() => {
    if (nextChangeAt === null) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), delayUntil(nextChangeAt, Date.now()));
    return () => clearTimeout(timer);
  }, [nextChangeAt, now]);

  const dismiss = useCallback((id: string) => {
    setDismissed((previous) => {
      const next = new Set(previous).add(id);
      writeDismissed(next);
      return next;
    });
  }, []);

  if (visible.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label={t('announcements.region')} mb={{ base: 'sm', sm: 'md' }}>
      {visible.map((announcement) => (
        <Alert
          key={announcement.id}
          color="indigo"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('announcements.dismiss')}
          onClose={() => dismiss(announcement.id)}
          styles={{ root: { borderInlineStart: '4px solid var(--mantine-color-indigo-6)' } }}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {announcement.text}
          </Text>
        </Alert>
      ))}
    </Stack>
  );
}

function BannerOnRoute() {
  const session = useSession();
  const userId = session?.user.id ?? null;
  const tenantUuid = session?.tenantUuid ?? null;
  const current = useQuery({
    queryKey: announcementQueryKeys.current(userId, tenantUuid),
    queryFn: ({ signal }) => callApi(currentAnnouncements, undefined, { signal, failures: 'caller' }),
    // A banner is a courtesy: a failed check never retries into the login page's way.
    retry: false,
  });
  if (!current.data) return null;
  return <AnnouncementBannerView announcements={current.data.items} />;
}

/**
 * Mounted once in the app layout; checks the announcements on the routes of spec §2 (login,
 * dashboard, authenticate). Keyed by the path, so arriving at one of them checks again.
 */
export function AnnouncementBanner() {
  const { pathname } = useLocation();
  if (!isBannerRoute(pathname)) return null;
  return <BannerOnRoute key={pathname} />;
}
