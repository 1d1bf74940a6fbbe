import { Tabs } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EpakManageView } from './manage-view';
import { useManageAbilities } from './use-manage-data';

/** The address's parameter naming the tab (`/sign?ePakId=…&view=manage`), so a link can open it. */
export const MANAGE_VIEW_PARAM = 'view';
export const MANAGE_VIEW_VALUE = 'manage';

/** Where the owner manages an ePak: its page, on the management tab. */
export const manageEpakPath = (ePakId: string) => `/sign?ePakId=${ePakId}&${MANAGE_VIEW_PARAM}=${MANAGE_VIEW_VALUE}`;

/**
 * The owner's view of an ePak in two tabs: its documents (the ceremony, `children`) and its
 * management. Whoever may not manage it (the policies say, 'epak.manage') sees the documents
 * alone, with no tab bar. The tab is kept in the address, so reloading or sharing it stays there.
 */
export function EpakManageTabs({ epak, children }: { readonly epak: EpakDetail; readonly children: ReactNode }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { manage } = useManageAbilities(epak);
  if (!manage) return children;
  const tab = searchParams.get(MANAGE_VIEW_PARAM) === MANAGE_VIEW_VALUE ? MANAGE_VIEW_VALUE : 'documents';
  const choose = (value: string | null) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === MANAGE_VIEW_VALUE) next.set(MANAGE_VIEW_PARAM, MANAGE_VIEW_VALUE);
        else next.delete(MANAGE_VIEW_PARAM);
        return next;
      },
      { replace: true },
    );
  };
  return (
    <Tabs value={tab} onChange={choose}>
      <Tabs.List mb="md">
        <Tabs.Tab value="documents" data-testid="epak-documents-tab">
          {t('epakManage.tabs.documents')}
        </Tabs.Tab>
        <Tabs.Tab value={MANAGE_VIEW_VALUE} data-testid="epak-manage-tab">
          {t('epakManage.tabs.manage')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="documents">{children}</Tabs.Panel>
      <Tabs.Panel value={MANAGE_VIEW_VALUE}>{tab === MANAGE_VIEW_VALUE && <EpakManageView epak={epak} />}</Tabs.Panel>
    </Tabs>
  );
}
