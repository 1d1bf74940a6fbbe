import { ActionIcon, Tooltip } from '@mantine/core';
import type { EpakStatus } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ClipboardListIcon } from '../../ui/icons';
import { manageEpakPath } from './manage-tabs';
import { useManageAbilities } from './use-manage-data';

/**
 * A row's shortcut to the management tab of an ePak (the inbox list): shown for the ePaks the
 * policies let this person manage, once sent (a draft is managed in compose).
 */
export function EpakManageLink({ epak }: { readonly epak: { readonly id: string; readonly subject: string; readonly ownerId: string; readonly status: EpakStatus } }) {
  const { t } = useTranslation();
  const { manage } = useManageAbilities(epak);
  if (!manage || epak.status === 'Draft') return null;
  const label = t('epakManage.listLink', { subject: epak.subject });
  return (
    <Tooltip label={label} withinPortal openDelay={400}>
      <ActionIcon component={Link} to={manageEpakPath(epak.id)} variant="subtle" color="gray" aria-label={label} data-testid="epak-row-manage">
        <ClipboardListIcon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
