import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { cssVariablesResolver, theme } from './theme';

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
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        env={env ?? 'default'}
      >
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
