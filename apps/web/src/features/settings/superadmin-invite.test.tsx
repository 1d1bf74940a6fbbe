import { configure, fireEvent, screen, within } from '@testing-library/react';
import type { TenantSummary } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

// On a busy machine the first answer can take more than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

const r = en.superadmins.root;
const TENANTS = '/msbapi/v1/root/tenants';
const INVITE = `/msbapi/v1/root/tenants/${TENANT_ACME}/superadmins`;
const acme: TenantSummary = { tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', tenantCreatedOn: '2025-01-15T10:30:00.000Z', status: 'ACTIVE', userCount: 1, admins: [] };
const LINK = `http://localhost:3000/register?invite=pki_abc&tenant=${TENANT_ACME}`;

describe("root's Invite super admin", () => {
  it('invites a tenant’s first super admin from its card and shows the link once', async () => {
    let refuse = true;
    const api = stubApi({
      [`GET ${TENANTS}`]: () => jsonResponse({ code: 1, data: { tenants: [acme] } }),
      [`POST ${INVITE}`]: () =>
        refuse
          ? errorResponse(-13, 403, 'disabled')
          : jsonResponse({
              code: 1,
              data: {
                superadmin: { userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c09', email: 'farah@example.com', firstName: 'Farah', middleName: null, lastName: 'First', status: 'invited', createdOn: '2025-03-01T09:00:00.000Z', lastLoginOn: null, isSelf: false },
                inviteLink: LINK,
              },
            }),
    });
    sessionStore.set(signedInSession(rootUser));
    const { router } = renderApp('/root');
    fireEvent.click(await screen.findByRole('button', { name: r.openLabel.replace('{{tenant}}', 'Acme Legal') }));
    const dialog = await screen.findByRole('dialog', { name: r.title.replace('{{tenant}}', 'Acme Legal') });
    // The create-tenant form beside it has the same labels: fill the dialog's own.
    const fill = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${label}( \\*)?$`), { selector: 'input' }), { target: { value } });
    fill(en.common.email, 'farah@example.com');
    fill(en.common.firstName, 'Farah');
    fill(en.common.lastName, 'First');
    fireEvent.click(within(dialog).getByRole('button', { name: en.superadmins.register.submit }));
    // A refusal stays on the page, on the field it concerns (-13 travels with a 403).
    expect(await within(dialog).findByText(en.superadmins.errors.disabledAccount)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/root');

    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: en.superadmins.register.submit }));
    expect(await within(dialog).findByDisplayValue(LINK)).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toContain(r.done.replace('{{email}}', 'farah@example.com').replace('{{tenant}}', 'Acme Legal'));
    expect(api.requestsTo('POST', INVITE).at(-1)!.body).toEqual({ email: 'farah@example.com', firstName: 'Farah', lastName: 'First' });
  });
});
