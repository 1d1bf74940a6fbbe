import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * What a first visit shows while its page's chunk downloads (React Router's HydrateFallback; see
 * routes.tsx): one small spinner in an otherwise empty screen, so nothing is drawn that the page
 * then pushes aside, and a status that screen readers announce.
 */
export function RouteLoading() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" role="status">
      <Loader size="sm" />
      <VisuallyHidden>{t('shell.loadingPage')}</VisuallyHidden>
    </Center>
  );
}
