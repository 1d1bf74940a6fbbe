import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { EPAK_ID } from '../../test/ceremony-fixtures';
import { adminUser, configurationData, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { managePaths, ownersEpak, RAVI, RAVI_USER, stubManage } from '../../test/manage-fixtures';
import { renderApp } from '../../test/render-app';

vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

// A page with the ceremony and the management view behind it: slower than a form while the suites share the cores.
configure({ asyncUtilTimeout: 5000 });

/**
 * Issue 22, mail with no SMTP: the owner who reminds someone or resends their link on an install
 * whose mail only waits in the outbox is told so, never that the mail went.
 */
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const fill = (text: string, values: Record<string, string>) => Object.entries(values).reduce((out, [key, value]) => out.replaceAll(`{{${key}}}`, value), text);
const row = (recipientId: string) => screen.getAllByTestId('manage-recipient').find((element) => element.getAttribute('data-recipient-id') === recipientId)!;
const noMail = { 'GET /msbapi/public/configuration': () => ok({ ...configurationData, mailDelivery: 'outbox' }) };

async function openManage() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}&view=manage`);
  await screen.findByTestId('epak-manage');
}

describe('managing an ePak on an install without a mail server', () => {
  it('says a reminder is in the outbox, not sent', async () => {
    stubManage(ownersEpak(), {
      routes: { ...noMail, [`POST ${managePaths.remind(RAVI_USER, 'Pending', 2)}`]: () => ok({ ePakId: EPAK_ID, recipientId: RAVI, remindedOn: new Date().toISOString() }) },
    });
    await openManage();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-remind'));
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(fill(en.epakManage.notices.remindedOutbox, { name: 'Ravi Iyer' })));
  });

  it('says before and after resending that the new link goes to the outbox for root to pass on', async () => {
    stubManage(ownersEpak(), {
      routes: { ...noMail, [`POST ${managePaths.resend(RAVI)}`]: () => ok({ ePakId: EPAK_ID, recipientId: RAVI, email: 'ravi@example.com', sentOn: new Date().toISOString() }) },
    });
    await openManage();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-resend-link'));
    const dialog = await screen.findByTestId('manage-resend-dialog');
    expect(dialog.textContent).toContain(en.epakManage.confirm.resend.bodyOutbox.split('{{email}}')[0]!);
    expect(dialog.textContent).not.toContain(en.epakManage.confirm.resend.body.split('{{email}}')[0]!);
    fireEvent.click(within(dialog).getByTestId('manage-resend-dialog-confirm'));
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(fill(en.epakManage.notices.resendOutbox, { name: 'Ravi Iyer' })));
  });
});
