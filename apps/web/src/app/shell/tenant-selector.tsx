import { NativeSelect } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PUBLIC_QUERY_SCOPE, usePublicConfiguration } from '../../api/public-queries';
import { selectTenant, useSession } from '../../api/session-store';
import { pathAfterTenantSwitch, permissionSettingsFrom } from '../../api/access';
import { BuildingIcon } from '../../ui/icons';

/**
 * Spec section 2, header: the tenant selector. The chosen tenant is sent with every call as the
 * tenant header. Shown even for a single tenant, so the header always says where one is acting;
 * root, who belongs to no tenant, has none.
 */
export function TenantSelector() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const configuration = usePublicConfiguration();
  const tenants = session?.user.tenants ?? [];
  if (!session || tenants.length === 0) return null;

  return (
    <NativeSelect
      aria-label={t('shell.tenant')}
      title={t('shell.tenant')}
      size="sm"
      w={{ base: 150, xs: 200 }}
      leftSection={<BuildingIcon size={16} />}
      value={session.tenantUuid ?? ''}
      data={tenants.map((tenant) => ({ value: tenant.tenantUuid, label: tenant.tenantName }))}
      onChange={(event) => {
        const tenantUuid = event.currentTarget.value;
        const switchNow = () => {
          selectTenant(tenantUuid);
          // Whatever was loaded belongs to the previous tenant.
          void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== PUBLIC_QUERY_SCOPE });
        };
        const leaveFor = pathAfterTenantSwitch(
          { ...session, tenantUuid },
          location.pathname,
          permissionSettingsFrom(configuration.data?.features),
        );
        // Leaving first: the open page must never render for a role that may not see it (it
        // would bounce to access denied); the switch happens once the new page is there.
        if (leaveFor) void Promise.resolve(navigate(leaveFor)).then(switchNow);
        else switchNow();
      }}
    />
  );
}
