import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OutboxMessage } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { TENANT_HEADER } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const message = (overrides: Partial<OutboxMessage> = {}): OutboxMessage => ({
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  channel: 'email',
  recipient: 'asha@example.com',
  subject: 'Reset your Pakt password',
  body: 'Hello Asha,\n\nChoose a new password: http://localhost:3000/resetpassword?token=abc123\n\nPakt',
  tenantName: null,
  kind: 'password-reset',
  createdAt: '2025-01-15T10:30:00.000Z',
  sentAt: null,
  lastError: null,
  attachments: [],
  ...overrides,
});

describe('root console outbox', () => {
  it('lists system mail with recipient, subject, time and a clickable link', async () => {
    sessionStore.set(signedInSession(rootUser));
    stubApi({
      'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }),
      'GET /msbapi/v1/root/outbox': () => jsonResponse({ code: 1, data: { messages: [message()] } }),
    });
    renderApp('/root');
    fireEvent.click(await screen.findByRole('tab', { name: en.root.tabs.outbox }));
    const item = await screen.findByRole('listitem', { name: 'Reset your Pakt password' });
    expect(within(item).getByText(en.outbox.to.replace('{{recipient}}', 'asha@example.com'), { exact: false })).toBeTruthy();
    expect(within(item).getByText(en.outbox.state.queued)).toBeTruthy();
    expect(item.querySelector('time')?.getAttribute('datetime')).toBe('2025-01-15T10:30:00.000Z');
    const link = within(item).getByRole('link', { name: 'http://localhost:3000/resetpassword?token=abc123' });
    expect(link.getAttribute('href')).toBe('http://localhost:3000/resetpassword?token=abc123');
  });

  it("names each message's tenant, since root's outbox spans them all", async () => {
    sessionStore.set(signedInSession(rootUser));
    stubApi({
      'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }),
      'GET /msbapi/v1/root/outbox': () =>
        jsonResponse({
          code: 1,
          data: {
            messages: [
              message({ id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', subject: 'You are invited to Acme', tenantName: 'Acme', kind: 'invitation' }),
              message(),
            ],
          },
        }),
    });
    renderApp('/root');
    fireEvent.click(await screen.findByRole('tab', { name: en.root.tabs.outbox }));
    const invited = await screen.findByRole('listitem', { name: 'You are invited to Acme' });
    expect(within(invited).getByText(en.outbox.tenant.replace('{{tenant}}', 'Acme'), { exact: false })).toBeTruthy();
    // Tenantless mail names no tenant.
    const reset = screen.getByRole('listitem', { name: 'Reset your Pakt password' });
    expect(within(reset).queryByText(/Tenant:/)).toBeNull();
  });

  it('asks the server for one recipient once a whole address is typed', async () => {
    sessionStore.set(signedInSession(rootUser));
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/root/tenants': () => jsonResponse({ code: 1, data: { tenants: [] } }),
      'GET /msbapi/v1/root/outbox': () => jsonResponse({ code: 1, data: { messages: [message()] } }),
    });
    renderApp('/root');
    fireEvent.click(await screen.findByRole('tab', { name: en.root.tabs.outbox }));
    await screen.findByRole('listitem', { name: 'Reset your Pakt password' });
    const filter = screen.getByRole('searchbox', { name: en.outbox.recipientFilter });
    fireEvent.change(filter, { target: { value: 'asha@' } });
    fireEvent.change(filter, { target: { value: 'Asha@Example.com' } });
    await waitFor(() => expect(requestsTo('GET', '/msbapi/v1/root/outbox').some((r) => r.url.endsWith('?recipient=asha%40example.com'))).toBe(true));
    // The half-typed address never reached the server.
    expect(requestsTo('GET', '/msbapi/v1/root/outbox').map((r) => r.url.split('?')[1] ?? '')).toEqual(['', 'recipient=asha%40example.com']);
  });
});

describe('tenant outbox (/admin)', () => {
  it('lists the tenant mail for an admin, reachable from the user menu', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/outbox': () =>
        jsonResponse({ code: 1, data: { messages: [message({ subject: 'You are invited', sentAt: '2025-01-15T10:31:00.000Z' })] } }),
    });
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: en.shell.accountMenu.replace('{{name}}', 'Asha Rao') }));
    fireEvent.click(await screen.findByRole('menuitem', { name: en.shell.outbox }));
    expect(await screen.findByRole('heading', { level: 1, name: en.outbox.title })).toBeTruthy();
    const item = await screen.findByRole('listitem', { name: 'You are invited' });
    expect(requestsTo('GET', '/msbapi/v1/outbox')[0]?.headers.get(TENANT_HEADER)).toBe(TENANT_ACME);
    expect(within(item).getByText(en.outbox.state.sent)).toBeTruthy();
  });

  it('shows to whom and what about, but says the text is for the recipient only', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      'GET /msbapi/v1/outbox': () =>
        jsonResponse({ code: 1, data: { messages: [message({ subject: 'You are invited', body: null, tenantName: 'Acme' })] } }),
    });
    renderApp('/admin?section=outbox');
    expect(await screen.findByText(en.outbox.tenantPrivacy)).toBeTruthy();
    const item = await screen.findByRole('listitem', { name: 'You are invited' });
    expect(within(item).getByText(en.outbox.to.replace('{{recipient}}', 'asha@example.com'), { exact: false })).toBeTruthy();
    expect(within(item).getByText(en.outbox.bodyWithheld)).toBeTruthy();
    expect(within(item).queryByTestId('outbox-body')).toBeNull();
    expect(within(item).queryByRole('link')).toBeNull();
    // An admin's outbox holds only their own tenant: naming it on every message would be noise.
    expect(within(item).queryByText(/Tenant:/)).toBeNull();
  });

  it('names the files a mail carries', async () => {
    sessionStore.set(signedInSession());
    stubApi({
      'GET /msbapi/v1/outbox': () =>
        jsonResponse({
          code: 1,
          data: { messages: [message({ subject: 'Documents: Lease', attachments: [{ fileName: 'Lease.pdf' }, { fileName: 'Annex.pdf' }] })] },
        }),
    });
    renderApp('/admin?section=outbox');
    const item = await screen.findByRole('listitem', { name: 'Documents: Lease' });
    const files = within(item).getByRole('list', { name: en.outbox.attachments });
    expect(within(files).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Lease.pdf', 'Annex.pdf']);
  });

  it('is refused to a signer', async () => {
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    stubApi();
    const { router } = renderApp('/admin');
    await screen.findByText(en.accessDenied.forbidden.title);
    expect(router.state.location.pathname).toBe('/accessdenied');
  });
});
