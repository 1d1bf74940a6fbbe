import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { cssVariablesResolver, themeIn } from './theme';

export function AppProviders({
  queryClient,
  children,
  env,
}: {
  readonly queryClient: QueryClient;
  readonly children: ReactNode;
  /** 'test' switches off Mantine transitions and portals, which jsdom cannot lay out. */
  readonly env?: 'default' | 'test';
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedProviders queryClient={queryClient} env={env ?? 'default'}>
        {children}
      </ThemedProviders>
    </I18nextProvider>
  );
}

/** Mantine with the theme in the interface language (its close buttons' names), rebuilt when the language changes. */
function ThemedProviders({ queryClient, env, children }: { readonly queryClient: QueryClient; readonly env: 'default' | 'test'; readonly children: ReactNode }) {
  const { t } = useTranslation();
  const closeLabel = t('shell.closeDialog');
  const theme = useMemo(() => themeIn(closeLabel), [closeLabel]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
