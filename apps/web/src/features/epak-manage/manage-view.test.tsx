import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { EPAK_ID, epakOf } from '../../test/ceremony-fixtures';
import { adminUser, errorResponse, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { activityEntry, ASHA, managementOf, managePaths, ownersEpak, RAVI, RAVI_USER, stubManage } from '../../test/manage-fixtures';
import { renderApp } from '../../test/render-app';

// jsdom cannot draw PDFs: pdf.js "renders" at once.
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

// A page with the ceremony and the management view behind it: slower than a form while the suites share the cores.
configure({ asyncUtilTimeout: 5000 });

const fill = (text: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [key, value]) => out.replaceAll(`{{${key}}}`, String(value)), text);
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const row = (recipientId: string) => screen.getAllByTestId('manage-recipient').find((element) => element.getAttribute('data-recipient-id') === recipientId)!;

async function openManage(path = `/sign?ePakId=${EPAK_ID}&view=manage`) {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(path);
  await screen.findByTestId('epak-manage');
  return rendered;
}

describe('the management tab', () => {
  it('is offered to the owner beside the documents, and kept in the address', async () => {
    stubManage(ownersEpak());
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    const { router } = renderApp(`/sign?ePakId=${EPAK_ID}`);
    fireEvent.click(await screen.findByTestId('epak-manage-tab'));
    await screen.findByTestId('epak-manage');
    expect(router.state.location.search).toContain('view=manage');
    fireEvent.click(screen.getByTestId('epak-documents-tab'));
    await waitFor(() => expect(router.state.location.search).not.toContain('view=manage'));
  });

  it('is not there for a recipient who does not own the ePak', async () => {
    stubManage(epakOf({ ownerId: '11111111-2222-4333-8444-555555555555' }));
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&view=manage`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(screen.queryByTestId('epak-manage-tab')).toBeNull();
    expect(screen.queryByTestId('epak-manage')).toBeNull();
  });
});

describe('the recipients timeline', () => {
  it('shows every step and recipient with status, time and, once rejected, the comment and the ending', async () => {
    const rejected = ownersEpak({ status: 'Rejected', currentStep: null });
    rejected.steps[1]!.recipients[1] = { ...rejected.steps[1]!.recipients[1]!, status: 'Rejected' };
    const rejection = activityEntry(3, 'rejected', { actor: { userId: RAVI_USER, name: 'Ravi Iyer', email: 'ravi@example.com' }, details: { comment: 'The rent is wrong', status: 'Rejected' } });
    stubManage(rejected, { management: managementOf([{ recipientId: RAVI, actedOn: '2025-03-05T13:00:00.000Z' }]), activity: [activityEntry(1, 'composed'), activityEntry(2, 'started'), rejection] });
    await openManage();
    expect(screen.getAllByTestId('manage-step').map((step) => step.getAttribute('data-step-state'))).toEqual(['done', 'done']);
    expect(screen.getAllByTestId('manage-recipient').map((r) => r.getAttribute('data-status'))).toEqual(['Reviewed', 'Pending', 'Rejected']);
    expect(within(row(RAVI)).getByTestId('manage-recipient-comment').textContent).toContain('The rent is wrong');
    expect(within(row(RAVI)).getByText(/^Acted /)).toBeTruthy();
    expect(screen.getByTestId('manage-ending').textContent).toContain('Rejected by Ravi Iyer');
    expect(screen.getByTestId('manage-ending-comment').textContent).toContain('The rent is wrong');
    // Nothing to remind or stop once it has ended.
    expect(screen.queryByTestId('manage-remind')).toBeNull();
    expect(screen.queryByTestId('manage-stop')).toBeNull();
  });

  it('reminds one recipient, and shows the refusal of a reminder sent too soon', async () => {
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.remind(RAVI_USER, 'Pending', 2)}`]: () => ok({ ePakId: EPAK_ID, recipientId: RAVI, remindedOn: new Date().toISOString() }),
        [`POST ${managePaths.remind('7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d02', 'Pending', 2)}`]: () =>
          jsonResponse({ code: -6, data: null, message: 'asha was reminded at …', issues: [{ path: 'userId', message: 'reminded recently' }] }, 400),
      },
    });
    await openManage();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-remind'));
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(fill(en.epakManage.notices.reminded, { name: 'Ravi Iyer' })));
    expect(requestsTo('POST', managePaths.remind(RAVI_USER, 'Pending', 2))).toHaveLength(1);

    fireEvent.click(within(row(ASHA)).getByTestId('manage-remind'));
    await waitFor(() => expect(within(row(ASHA)).getByTestId('manage-remind-error').textContent).toBe(en.epakManage.errors.remindedRecently));
  });

  it('holds a reminder back within the hour, and "remind all" reminds only those due', async () => {
    const { requestsTo } = stubManage(ownersEpak(), {
      management: managementOf([{ recipientId: ASHA, lastRemindedOn: new Date(Date.now() - 10 * 60_000).toISOString() }]),
      routes: { [`POST ${managePaths.remind(RAVI_USER, 'Pending', 2)}`]: () => ok({ ePakId: EPAK_ID, recipientId: RAVI, remindedOn: new Date().toISOString() }) },
    });
    await openManage();
    expect(within(row(ASHA)).getByTestId('manage-remind').hasAttribute('disabled')).toBe(true);
    expect(within(row(ASHA)).getByTestId('manage-remind-wait')).toBeTruthy();
    const all = screen.getByTestId('manage-remind-all');
    expect(all.textContent).toBe(fill(en.epakManage.toolbar.remindAll_one, { count: 1 }));
    fireEvent.click(all);
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toContain('Ravi Iyer'));
    expect(requestsTo('POST', managePaths.remind(RAVI_USER, 'Pending', 2))).toHaveLength(1);
    expect(requestsTo('POST', managePaths.remind('7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d02', 'Pending', 2))).toHaveLength(0);
  });
});

describe("an outsider's signing link", () => {
  it('is shown to the owner only when asked, after saying the showing is logged, and copied', async () => {
    const link = 'http://localhost:3000/emailsign?token=pks_abcdefghijklmnopqrstuvwxyz';
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: { [`POST ${managePaths.link(RAVI)}`]: () => ok({ ePakId: EPAK_ID, recipientId: RAVI, email: 'ravi@example.com', link, expiresOn: '2025-04-05T10:00:00.000Z' }) },
    });
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await openManage();
    // Asha is a member: she signs in, so no link is offered for her.
    expect(within(row(ASHA)).queryByTestId('manage-link')).toBeNull();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-link'));
    const dialog = await screen.findByTestId('manage-link-dialog');
    expect(dialog.textContent).toContain(en.epakManage.link.logged);
    expect(requestsTo('POST', managePaths.link(RAVI))).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('manage-link-show'));
    await waitFor(() => expect((within(dialog).getByTestId('manage-link-value') as HTMLInputElement).value).toBe(link));
    fireEvent.click(within(dialog).getByTestId('manage-link-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link));
    expect(requestsTo('POST', managePaths.link(RAVI))).toHaveLength(1);
  });

  it('is resent by mail after confirming; a refusal stays in the dialog', async () => {
    let answers = 0;
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.resend(RAVI)}`]: () =>
          ++answers === 1
            ? errorResponse(-46, 410, 'This ePak was deleted.')
            : ok({ ePakId: EPAK_ID, recipientId: RAVI, email: 'ravi@example.com', sentOn: new Date().toISOString() }),
      },
    });
    await openManage();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-resend-link'));
    const dialog = await screen.findByTestId('manage-resend-dialog');
    fireEvent.click(within(dialog).getByTestId('manage-resend-dialog-confirm'));
    await waitFor(() => expect(within(dialog).getByTestId('manage-dialog-error').textContent).toBe(en.epakManage.errors.deleted));
    fireEvent.click(within(dialog).getByTestId('manage-resend-dialog-confirm'));
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(fill(en.epakManage.notices.resend, { name: 'Ravi Iyer' })));
    expect(requestsTo('POST', managePaths.resend(RAVI))).toHaveLength(2);
  });
});

describe('the activity log', () => {
  it.each([
    [true, en.epakManage.activity.chainValid],
    [false, en.epakManage.activity.chainBroken],
  ])('says whether its hash chain verifies (%s)', async (chainValid, title) => {
    stubManage(ownersEpak(), { chainValid, activity: [activityEntry(1, 'composed'), activityEntry(2, 'started'), activityEntry(3, 'linkShown')] });
    await openManage();
    const status = await screen.findByTestId('manage-chain-status');
    expect(status.getAttribute('data-valid')).toBe(String(chainValid));
    expect(status.textContent).toContain(title);
    // Newest first, each in words, with the address it came from (the owner sees it).
    expect(screen.getAllByTestId('manage-activity-entry').map((entry) => entry.getAttribute('data-action'))).toEqual(['linkShown', 'started', 'composed']);
    expect(screen.getAllByTestId('manage-activity-entry')[0]!.textContent).toContain(en.epakManage.activity.actions.linkShown);
    expect(screen.getAllByTestId('manage-activity-entry')[0]!.textContent).toContain('203.0.113.7');
  });
});

describe('attachments', () => {
  it('lists the files with a download each, and attaches a new one while under way', async () => {
    const attachment = { attachmentId: '3c3c3c3c-3c3c-4c3c-8c3c-3c3c3c3c3c3c', name: 'id-proof.pdf', size: 2048, documentId: null, tagUuid: null, uploadedBy: null, createdOn: '2025-03-05T12:00:00.000Z' };
    let listed = [attachment];
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: {
        [`GET ${managePaths.attachments}`]: () => ok({ attachments: listed }),
        [`POST ${managePaths.attachments}`]: () => {
          const added = { ...attachment, attachmentId: '4d4d4d4d-4d4d-4d4d-8d4d-4d4d4d4d4d4d', name: 'annex.pdf' };
          listed = [...listed, added];
          return ok(added);
        },
      },
    });
    await openManage();
    await waitFor(() => expect(screen.getAllByTestId('manage-attachment').map((item) => item.textContent)).toEqual([expect.stringContaining('id-proof.pdf')]));
    const picker = screen.getByTestId('manage-attachments').querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(picker, { target: { files: [new File(['%PDF-1.7'], 'annex.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(fill(en.epakManage.notices.attached, { name: 'annex.pdf' })));
    await waitFor(() => expect(screen.getAllByTestId('manage-attachment')).toHaveLength(2));
    expect(requestsTo('POST', managePaths.attachments)).toHaveLength(1);
  });
});
