import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/** The one-off messages a page may hand the next one in its navigation state. */
const FLASHES = ['passwordChangeSuccess'] as const;
type Flash = (typeof FLASHES)[number];

function flashOf(state: unknown): Flash | null {
  const flash = (state as { flash?: unknown } | null)?.flash;
  return FLASHES.find((known) => known === flash) ?? null;
}

/**
 * Says what the previous page finished (a changed password) on whichever page it led to: the
 * landing page differs by role, so the message travels in the navigation state rather than living
 * on one page. The state belongs to that one history entry, so later visits do not repeat it.
 */
export function FlashNotice() {
  const { t } = useTranslation();
  const location = useLocation();
  const flash = flashOf(location.state);
  if (!flash) return null;
  return (
    <Alert color="teal" variant="light" role="status" mb="lg">
      {t(flash)}
    </Alert>
  );
}
