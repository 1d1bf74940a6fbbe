import { AppShell, Button, Center, Container, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { fullName, ResponseCode } from '@pakt/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useLanguageSync } from '../../i18n/use-languages';
import { LanguageSelector } from '../../ui/language-selector';
import { createLinkClient, isEasyToken } from './link-session';
import { SigningApiProvider, type SigningApi } from '../../api/signing-api';
import { SigningCeremony } from './signing-ceremony';
import { LockIcon, PaktMark } from '../../ui/icons';
import { signingQueryKeys } from '../../api/signing-query-keys';

/**
 * /emailsign?token=…: the signing ceremony for someone who came through a signing link, with no
 * account session. The link is exchanged for a session of its own (link-session.ts), and the
 * page has its own frame: no app menu, tenant selector or user widget (which would belong to
 * whoever else may be signed in in this browser), but the language selector (spec §2).
 */
export function EmailSignPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  useDocumentTitle(`${t('signing.title')} · Pakt`);
  const client = useMemo(() => (isEasyToken(token) ? createLinkClient(token) : null), [token]);
  const link = useQuery({
    queryKey: signingQueryKeys.link(token),
    queryFn: () => client!.open(),
    enabled: client !== null,
    // A refused link stays refused; trying it again is the person's choice (the button below).
    retry: false,
    staleTime: Infinity,
  });
  const api: SigningApi | null = useMemo(
    () => (client && link.data ? { callApi: client.callApi, scope: `link:${link.data.user.userId}` } : null),
    [client, link.data],
  );

  let body: ReactNode;
  if (!client || (link.isError && link.error instanceof ApiError && link.error.code === ResponseCode.INVALID_EASY_SIGN_LINK.code)) {
    body = <InvalidLink />;
  } else if (link.isError) {
    const unreachable = link.error instanceof ApiError && link.error.httpStatus === 0;
    body = (
      <Stack align="center" ta="center" gap="sm" py="xl" role="alert">
        <Text>{unreachable ? t('common.unreachable') : t('signing.link.failed')}</Text>
        <Button variant="light" onClick={() => void link.refetch()}>
          {t('signing.retry')}
        </Button>
      </Stack>
    );
  } else if (!link.data || !api) {
    body = (
      <Center py="xl">
        <Loader size="sm" aria-label={t('signing.loading')} />
      </Center>
    );
  } else {
    const person = { email: link.data.user.email, name: fullName(link.data.user) };
    body = (
      <SigningApiProvider api={api}>
        <SigningCeremony key={link.data.ePakId} ePakId={link.data.ePakId} person={person} />
      </SigningApiProvider>
    );
  }

  return <LinkFrame withLanguage={token !== null}>{body}</LinkFrame>;
}

function LinkFrame({ withLanguage, children }: { readonly withLanguage: boolean; readonly children: ReactNode }) {
  useLanguageSync();
  return (
    <AppShell header={{ height: 60 }} padding={{ base: 'sm', sm: 'lg' }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'lg' }} justify="space-between" wrap="nowrap" gap="sm">
          <Group gap={8} wrap="nowrap">
            <PaktMark />
            <Text component="span" fw={700} size="xl" lh={1}>
              Pakt
            </Text>
          </Group>
          {withLanguage && <LanguageSelector />}
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="lg" px={0} py={{ base: 'md', sm: 'xl' }}>
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

/** -42 (spec §8): unknown, expired or revoked, or the person's part is over. */
function InvalidLink() {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center" gap="lg" maw={560} mx="auto" py={{ base: 'lg', sm: 56 }} data-testid="invalid-link">
      <ThemeIcon size={72} radius="xl" variant="light" color="gray">
        <LockIcon size={36} />
      </ThemeIcon>
      <Stack gap="sm" align="center">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {t('signing.link.invalidTitle')}
        </Title>
        <Text size="lg" c="dimmed">
          {t('signing.link.invalidBody')}
        </Text>
      </Stack>
    </Stack>
  );
}
