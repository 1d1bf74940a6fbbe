import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { z } from 'zod';
import { callApi } from '../../api/client';
import { PUBLIC_QUERY_SCOPE } from '../../api/public-queries';
import { selectTenant, useSession, type Session } from '../../api/session-store';
import { HostedSigningCeremony } from './in-person';
import { loginReturningTo } from '../../api/return-to';
import { SigningApiProvider, type SigningApi } from '../../api/signing-api';

const EpakId = z.uuid();

/**
 * The tenant the link names (`&tenant=`), when it is one the person belongs to: mails carry the
 * ePak's tenant, so someone in several organisations lands in the right one. Null when the link
 * names none (or something that is no tenant id); `member` false when they do not belong to it.
 */
export function linkTenant(session: Pick<Session, 'user'>, raw: string | null): { readonly tenantUuid: string; readonly member: boolean } | null {
  if (!raw || !z.uuid().safeParse(raw).success) return null;
  const tenantUuid = raw.toLowerCase();
  return { tenantUuid, member: session.user.tenants.some((tenant) => tenant.tenantUuid.toLowerCase() === tenantUuid) };
}

/**
 * /sign?ePakId=…&tenant=…: a signed-in recipient's signing ceremony (or its owner's view of it,
 * with in-person signing hosted there), where notification mails send internal people. The calls
 * carry the app's own session and its selected tenant. Without a session the person signs in
 * first and comes back to this same address.
 */
export function SignPage() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const ePakId = searchParams.get('ePakId') ?? '';
  useDocumentTitle(`${t('signing.title')} · Pakt`);
  const tenantUuid = session?.tenantUuid ?? null;
  const api: SigningApi = useMemo(() => ({ callApi, scope: `tenant:${tenantUuid ?? ''}` }), [tenantUuid]);

  const wanted = session ? linkTenant(session, searchParams.get('tenant')) : null;
  // The link's tenant is taken once per link: choosing another tenant in the header afterwards is
  // the person's own choice, and must not be switched back.
  const applied = useRef<string | null>(null);
  const linkKey = `${ePakId}|${wanted?.tenantUuid ?? ''}`;
  const switching = wanted !== null && wanted.member && applied.current !== linkKey && tenantUuid?.toLowerCase() !== wanted.tenantUuid;
  useEffect(() => {
    if (!wanted?.member || applied.current === linkKey) return;
    applied.current = linkKey;
    const target = session?.user.tenants.find((tenant) => tenant.tenantUuid.toLowerCase() === wanted.tenantUuid);
    if (!target || target.tenantUuid === tenantUuid) return;
    // As the header's selector does it: the tenant is stored for the next calls, and whatever was
    // loaded for the previous one is fetched again.
    selectTenant(target.tenantUuid);
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== PUBLIC_QUERY_SCOPE });
  }, [wanted, linkKey, session, tenantUuid, queryClient]);

  if (!session) return <Navigate to={loginReturningTo(`${location.pathname}${location.search}`)} replace />;
  if (!EpakId.safeParse(ePakId).success) {
    return (
      <Alert color="gray" variant="light" role="alert" title={t('signing.notFound.title')}>
        {t('signing.badAddress')}
      </Alert>
    );
  }
  if (wanted && !wanted.member) {
    return (
      <Alert color="gray" variant="light" role="alert" title={t('signing.tenant.notMemberTitle')} data-testid="not-member">
        {t('signing.tenant.notMemberBody', { email: session.user.email })}
      </Alert>
    );
  }
  if (switching) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('signing.tenant.switching')} />
      </Center>
    );
  }
  if (!tenantUuid) {
    // Root, or someone in no tenant at all: no ePak was sent to them in one.
    return (
      <Alert color="gray" variant="light" role="alert" title={t('signing.notFound.title')}>
        {t('signing.notFound.body')}
      </Alert>
    );
  }
  const name = [session.user.firstName, session.user.middleName, session.user.lastName].filter(Boolean).join(' ');
  return (
    <Stack gap="md">
      <SigningApiProvider api={api}>
        {/* Keyed by ePak and tenant: another ePak, or the same id in another tenant, starts afresh. */}
        <HostedSigningCeremony key={`${tenantUuid}|${ePakId}`} ePakId={ePakId} tenantId={tenantUuid} person={{ email: session.user.email, name }} />
      </SigningApiProvider>
      {session.user.tenants.length > 1 && (
        <Text size="xs" c="dimmed">
          {t('signing.otherTenant')}
        </Text>
      )}
    </Stack>
  );
}
