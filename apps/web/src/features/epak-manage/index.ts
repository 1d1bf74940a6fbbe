/**
 * What other features may use from epak-manage/: they import it from here, never from its files
 * (lint: pakt/feature-index). The signing page hosts the tabs; the ePak list links to the tab.
 */
export { EpakManageTabs, manageEpakPath } from './manage-tabs';
export { useManageAbilities } from './use-manage-data';
export { EpakManageLink } from './manage-link';
