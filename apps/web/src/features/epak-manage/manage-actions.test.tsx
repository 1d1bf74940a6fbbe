import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { EPAK_ID, epakOf, viewerOf } from '../../test/ceremony-fixtures';
import { adminUser, errorResponse, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { ASHA, managementOf, managePaths, ownersEpak, RAVI, STEP_2, stubManage } from '../../test/manage-fixtures';
import { renderApp } from '../../test/render-app';

vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

// A page with the ceremony and the management view behind it: slower than a form while the suites share the cores.
configure({ asyncUtilTimeout: 5000 });

const ok = (data: unknown) => jsonResponse({ code: 1, data });
const fill = (text: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [key, value]) => out.replaceAll(`{{${key}}}`, String(value)), text);
const row = (recipientId: string) => screen.getAllByTestId('manage-recipient').find((element) => element.getAttribute('data-recipient-id') === recipientId)!;
const notice = async (text: string) => waitFor(() => expect(screen.getByTestId('manage-notice').textContent).toBe(text));

async function openManage() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(`/sign?ePakId=${EPAK_ID}&view=manage`);
  await screen.findByTestId('epak-manage');
  return rendered;
}

describe('stopping', () => {
  it('asks for a reason, then stops the ePak with it', async () => {
    const { requestsTo } = stubManage(ownersEpak(), { routes: { [`POST ${managePaths.status}`]: () => ok({ ePakId: EPAK_ID, status: 'Stopped', signerStatus: null }) } });
    await openManage();
    fireEvent.click(screen.getByTestId('manage-stop'));
    const dialog = await screen.findByTestId('manage-stop-dialog');
    fireEvent.click(within(dialog).getByTestId('manage-stop-dialog-confirm'));
    expect(within(dialog).getByText(en.epakManage.stop.reasonRequired)).toBeTruthy();
    expect(requestsTo('POST', managePaths.status)).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('manage-stop-reason'), { target: { value: 'Sent to the wrong tenant' } });
    fireEvent.click(within(dialog).getByTestId('manage-stop-dialog-confirm'));
    await notice(en.epakManage.notices.stopped);
    expect(requestsTo('POST', managePaths.status).map((request) => request.body)).toEqual([{ ePakId: EPAK_ID, status: 'Stopped', comment: 'Sent to the wrong tenant' }]);
  });
});

describe('editing', () => {
  it('offers to reload when the ePak changed underneath (-306), then saves against the new version', async () => {
    const fresh = '2025-03-06T09:00:00.000Z';
    const server = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.edit}`]: ({ body }) => {
          const sent = body as { modifiedOn: string; subject: string };
          if (sent.modifiedOn !== fresh) {
            // Someone signed meanwhile: the stored ePak is newer than the one the editor holds.
            server.state.epak = { ...server.state.epak, subject: 'Office lease (v2)', modifiedOn: fresh };
            return jsonResponse({ code: -306, data: { modifiedOn: fresh }, message: 'changed' }, 409);
          }
          return ok({ ePakId: EPAK_ID, subject: sent.subject, message: null, expiresOn: null, modifiedOn: '2025-03-06T09:05:00.000Z' });
        },
      },
    });
    await openManage();
    fireEvent.click(screen.getByTestId('manage-edit'));
    const dialog = await screen.findByTestId('manage-edit-dialog');
    fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${en.epakManage.edit.subject}`)), { target: { value: 'Lease, final' } });
    fireEvent.click(within(dialog).getByTestId('manage-edit-dialog-confirm'));
    const stale = await within(dialog).findByTestId('manage-edit-stale');
    expect(stale.textContent).toContain(en.epakManage.errors.modified);
    fireEvent.click(within(stale).getByTestId('manage-edit-reload'));
    // The form now holds the ePak as it is; the owner makes the change again.
    const subject = await waitFor(() => {
      const input = within(dialog).getByLabelText(new RegExp(`^${en.epakManage.edit.subject}`)) as HTMLInputElement;
      expect(input.value).toBe('Office lease (v2)');
      return input;
    });
    fireEvent.change(subject, { target: { value: 'Lease, final' } });
    fireEvent.click(within(dialog).getByTestId('manage-edit-dialog-confirm'));
    await notice(en.epakManage.notices.edited);
    expect(server.requestsTo('POST', managePaths.edit).map((request) => (request.body as { modifiedOn: string }).modifiedOn)).toEqual(['2025-03-05T10:00:00.000Z', fresh]);
  });
});

describe('recipients', () => {
  it('removes one after confirming, and says why the server refused (-28)', async () => {
    let calls = 0;
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.removeRecipient}`]: () =>
          ++calls === 1
            ? errorResponse(-28, 409, 'Ravi Iyer has signed already.')
            : ok({ ePakId: EPAK_ID, status: 'InProgress', currentStep: 2 }),
      },
    });
    await openManage();
    fireEvent.click(within(row(RAVI)).getByTestId('manage-remove-recipient'));
    const dialog = await screen.findByTestId('manage-remove-dialog');
    fireEvent.click(within(dialog).getByTestId('manage-remove-dialog-confirm'));
    await waitFor(() => expect(within(dialog).getByTestId('manage-dialog-error').textContent).toBe(fill(en.epakManage.errors.notPending, { detail: 'Ravi Iyer has signed already.' })));
    fireEvent.click(within(dialog).getByTestId('manage-remove-dialog-confirm'));
    await notice(fill(en.epakManage.notices.remove, { name: 'Ravi Iyer' }));
    expect(requestsTo('POST', managePaths.removeRecipient).map((request) => request.body)).toEqual([{ recipientId: RAVI }, { recipientId: RAVI }]);
  });

  it('takes back an open delegation', async () => {
    const epak = ownersEpak();
    const dev = { recipientId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c05', userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d05', email: 'dev@example.com', firstName: 'Dev', lastName: 'Nair', type: 'internal' as const, status: 'Pending' as const };
    epak.steps[1]!.recipients = [{ ...epak.steps[1]!.recipients[1]!, status: 'Delegated' }, dev];
    const management = managementOf();
    const recall = managePaths.recall('ravi@example.com', STEP_2);
    const { requestsTo } = stubManage(epak, {
      management: { ...management, recipients: [...management.recipients, { recipientId: dev.recipientId, actedOn: null, lastRemindedOn: null, receivesSigningLink: false, delegatedFromId: RAVI }] },
      routes: { [`POST ${recall}`]: () => ok({ ePakId: EPAK_ID, status: 'InProgress', recipientId: RAVI, recipientStatus: 'Pending' }) },
    });
    await openManage();
    expect(row(RAVI).textContent).toContain(fill(en.epakManage.timeline.delegatedTo, { name: 'Dev Nair' }));
    fireEvent.click(within(row(RAVI)).getByTestId('manage-recall-delegation'));
    const dialog = await screen.findByTestId('manage-recall-dialog');
    expect(dialog.textContent).toContain('Dev Nair');
    fireEvent.click(within(dialog).getByTestId('manage-recall-dialog-confirm'));
    await notice(fill(en.epakManage.notices.recall, { name: 'Ravi Iyer' }));
    expect(requestsTo('POST', recall)).toHaveLength(1);
  });

  it("hands on the owner's own place when it waits for them", async () => {
    const path = `/msbapi/v2/epaks/${EPAK_ID}/delegate`;
    // The owner is also the signer the step under way waits for.
    const { requestsTo } = stubManage(epakOf({}, viewerOf({ isOwner: true })), {
      routes: {
        [`POST ${path}`]: () => ok({ ePakId: EPAK_ID, status: 'InProgress', recipientId: ASHA, delegate: { recipientId: RAVI, userId: RAVI, email: 'kiran@example.com', status: 'Pending' } }),
      },
    });
    await openManage();
    fireEvent.click(screen.getByTestId('manage-delegate'));
    const dialog = await screen.findByTestId('manage-delegate-dialog');
    fireEvent.change(within(dialog).getByTestId('manage-delegate-email'), { target: { value: 'not an address' } });
    fireEvent.click(within(dialog).getByTestId('manage-delegate-dialog-confirm'));
    expect(within(dialog).getByText(en.common.emailInvalid)).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('manage-delegate-email'), { target: { value: 'Kiran@Example.com' } });
    fireEvent.click(within(dialog).getByTestId('manage-delegate-dialog-confirm'));
    await notice(fill(en.epakManage.notices.delegated, { email: 'kiran@example.com' }));
    expect(requestsTo('POST', path).map((request) => request.body)).toEqual([{ email: 'kiran@example.com' }]);
  });

  it('is not offered to an owner whom the step does not wait for', async () => {
    stubManage(ownersEpak());
    await openManage();
    expect(screen.queryByTestId('manage-delegate')).toBeNull();
  });
});

describe('dates and keeping', () => {
  it('saves the notification date and the archival period while under way', async () => {
    const { requestsTo } = stubManage(ownersEpak(), {
      routes: {
        [`PUT ${managePaths.notificationDate}`]: ({ body }) => ok(body),
        [`PUT ${managePaths.archivalPeriod}`]: ({ body }) => ok({ ePakId: EPAK_ID, ...(body as object) }),
      },
    });
    await openManage();
    fireEvent.change(screen.getByTestId('manage-notification-input'), { target: { value: '2025-03-10T09:30' } });
    fireEvent.click(screen.getByTestId('manage-notification-save'));
    await notice(en.epakManage.notices.notificationDate);
    expect(requestsTo('PUT', managePaths.notificationDate).map((request) => request.body)).toEqual([{ ePakId: EPAK_ID, notificationStartDate: new Date('2025-03-10T09:30').toISOString() }]);
    fireEvent.change(screen.getByTestId('manage-archival-input'), { target: { value: '4000' } });
    fireEvent.click(screen.getByTestId('manage-archival-save'));
    expect(screen.getByTestId('manage-dates-error').textContent).toBe(fill(en.epakManage.dates.archivalInvalid, { min: 1, max: 3650 }));
    fireEvent.change(screen.getByTestId('manage-archival-input'), { target: { value: '90' } });
    fireEvent.click(screen.getByTestId('manage-archival-save'));
    await notice(fill(en.epakManage.notices.archivalPeriod_other, { count: 90 }));
    expect(requestsTo('PUT', managePaths.archivalPeriod).map((request) => request.body)).toEqual([{ archivalPeriodDays: 90 }]);
    // Archiving is for an ePak that has ended.
    expect(screen.queryByTestId('manage-archive')).toBeNull();
  });

  it('archives an ended ePak after confirming, and downloads its certificate', async () => {
    const completed = ownersEpak({ status: 'Completed', currentStep: null });
    const server = stubManage(completed, {
      routes: {
        [`POST ${managePaths.archive}`]: () => ok({ ePakId: EPAK_ID, status: 'Completed', archivedOn: '2025-03-06T10:00:00.000Z' }),
        [`GET ${managePaths.certificate}`]: () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } }),
      },
    });
    URL.createObjectURL = vi.fn(() => 'blob:certificate');
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await openManage();
    fireEvent.click(screen.getByTestId('manage-download-certificate'));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('certificate-of-completion.pdf');

    fireEvent.click(screen.getByTestId('manage-archive'));
    const dialog = await screen.findByTestId('manage-archive-dialog');
    fireEvent.click(within(dialog).getByTestId('manage-archive-dialog-confirm'));
    await notice(en.epakManage.notices.archived);
    expect(server.requestsTo('POST', managePaths.archive)).toHaveLength(1);
  });

  it('shows a refusal to download in words', async () => {
    stubManage(ownersEpak({ status: 'Stopped', currentStep: null }), { routes: { [`GET ${managePaths.certificate}`]: () => errorResponse(-228, 404, 'tampered') } });
    await openManage();
    fireEvent.click(screen.getByTestId('manage-download-certificate'));
    await waitFor(() => expect(screen.getByTestId('manage-download-error').textContent).toBe(en.epakManage.errors.documentUnavailable));
  });
});

