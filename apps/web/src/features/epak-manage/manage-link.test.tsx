import { screen } from '@testing-library/react';
import type { EpakStatus } from '@pakt/domain';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import { adminUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX } from '../../test/fake-api';
import { renderWithProviders } from '../../test/panel-test-harness';
import { EpakManageLink } from './manage-link';

const EPAK = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function renderRow(ownerId: string, status: EpakStatus, tenantUuid = TENANT_ACME) {
  stubApi();
  sessionStore.set(signedInSession(adminUser, { tenantUuid }));
  renderWithProviders(
    <MemoryRouter>
      <EpakManageLink epak={{ id: EPAK, subject: 'Office lease', ownerId, status }} />
    </MemoryRouter>,
  );
}

describe("the inbox row's shortcut to the management tab", () => {
  it.each([
    { name: "the owner's ePak under way", ownerId: adminUser.id, status: 'InProgress' as const, tenant: TENANT_ACME, shown: true },
    { name: "the owner's completed ePak", ownerId: adminUser.id, status: 'Completed' as const, tenant: TENANT_ACME, shown: true },
    { name: "the owner's draft (compose manages it)", ownerId: adminUser.id, status: 'Draft' as const, tenant: TENANT_ACME, shown: false },
    { name: "someone else's ePak", ownerId: '11111111-2222-4333-8444-555555555555', status: 'InProgress' as const, tenant: TENANT_ACME, shown: false },
    // Asha is a signer in Globex: her role composes nothing there, so nothing of hers is managed.
    { name: 'a role that may not compose', ownerId: adminUser.id, status: 'InProgress' as const, tenant: TENANT_GLOBEX, shown: false },
  ])('$name: shown $shown', ({ ownerId, status, tenant, shown }) => {
    renderRow(ownerId, status, tenant);
    const link = screen.queryByTestId('epak-row-manage');
    expect(link !== null).toBe(shown);
    if (link) expect(link.getAttribute('href')).toBe(`/sign?ePakId=${EPAK}&view=manage`);
  });
});
