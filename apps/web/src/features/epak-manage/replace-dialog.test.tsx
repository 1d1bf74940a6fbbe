import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { EPAK_ID } from '../../test/ceremony-fixtures';
import { adminUser, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { LATA, managePaths, ownersEpak, RAVI, stubManage } from '../../test/manage-fixtures';
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

const OPENED = '2025-03-05T10:00:00.000Z';
const FRESH = '2025-03-06T09:00:00.000Z';
const MEERA = '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c09';

const replaced = (modifiedOn = '2025-03-06T09:05:00.000Z') =>
  ok({
    ePakId: EPAK_ID,
    status: 'InProgress',
    currentStep: 2,
    modifiedOn,
    replacedRecipientId: RAVI,
    recipient: { recipientId: MEERA, userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d09', email: 'meera.shah@example.org', firstName: 'Meera', lastName: 'Shah', type: 'external', status: 'Pending' },
  });

async function openManage() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(`/sign?ePakId=${EPAK_ID}&view=manage`);
  await screen.findByTestId('epak-manage');
  return rendered;
}

async function openDialogFor(recipientId: string) {
  fireEvent.click(within(row(recipientId)).getByTestId('manage-replace-recipient'));
  return screen.findByTestId('manage-replace-dialog');
}

const type = (dialog: HTMLElement, testId: string, value: string) => fireEvent.change(within(dialog).getByTestId(testId), { target: { value } });
const confirmButton = (dialog: HTMLElement) => within(dialog).getByTestId('manage-replace-dialog-confirm');

describe('changing a recipient', () => {
  it('is offered only on people who have not acted, and gives the place to the person named', async () => {
    const { requestsTo } = stubManage(ownersEpak(), { routes: { [`POST ${managePaths.replace(RAVI)}`]: () => replaced() } });
    await openManage();
    // Lata reviewed already: her place stays hers.
    expect(within(row(LATA)).queryByTestId('manage-replace-recipient')).toBeNull();
    expect(within(row(RAVI)).getByTestId('manage-replace-recipient').textContent).toBe(en.epakManage.actions.replaceRecipient);

    const dialog = await openDialogFor(RAVI);
    expect(dialog.textContent).toContain(fill(en.epakManage.replace.intro, { name: 'Ravi Iyer', email: 'ravi@example.com', step: 'Sign' }));
    // Step 2 is under way: the new person is asked at once.
    expect(dialog.textContent).toContain(fill(en.epakManage.replace.introUnderWay, { name: 'Ravi Iyer' }));
    type(dialog, 'manage-replace-email', 'not an address');
    fireEvent.click(confirmButton(dialog));
    expect(within(dialog).getByText(en.common.emailInvalid)).toBeTruthy();
    expect(requestsTo('POST', managePaths.replace(RAVI))).toHaveLength(0);

    type(dialog, 'manage-replace-email', ' Meera.Shah@Example.org ');
    type(dialog, 'manage-replace-first-name', ' Meera ');
    type(dialog, 'manage-replace-last-name', 'Shah');
    fireEvent.click(confirmButton(dialog));
    await notice(fill(en.epakManage.notices.replaced, { name: 'Ravi Iyer', newName: 'Meera Shah' }));
    expect(requestsTo('POST', managePaths.replace(RAVI)).map((request) => request.body)).toEqual([
      { modifiedOn: OPENED, email: 'meera.shah@example.org', firstName: 'Meera', lastName: 'Shah' },
    ]);
    await waitFor(() => expect(screen.queryByTestId('manage-replace-dialog')).toBeNull());
  });

  it('sends no names when none are given (a known person keeps theirs)', async () => {
    const { requestsTo } = stubManage(ownersEpak(), { routes: { [`POST ${managePaths.replace(RAVI)}`]: () => replaced() } });
    await openManage();
    const dialog = await openDialogFor(RAVI);
    type(dialog, 'manage-replace-email', 'kiran@example.com');
    fireEvent.click(confirmButton(dialog));
    await waitFor(() => expect(requestsTo('POST', managePaths.replace(RAVI))).toHaveLength(1));
    expect(requestsTo('POST', managePaths.replace(RAVI))[0]!.body).toEqual({ modifiedOn: OPENED, email: 'kiran@example.com' });
  });

  it('offers to reload when the ePak changed underneath (-306), then changes it against the new version', async () => {
    const server = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.replace(RAVI)}`]: ({ body }) => {
          if ((body as { modifiedOn: string }).modifiedOn !== FRESH) {
            // Someone else acted meanwhile: the stored ePak is newer than the one the dialog holds.
            server.state.epak = { ...server.state.epak, modifiedOn: FRESH };
            return jsonResponse({ code: -306, data: { modifiedOn: FRESH }, message: 'changed' }, 409);
          }
          return replaced();
        },
      },
    });
    await openManage();
    const dialog = await openDialogFor(RAVI);
    type(dialog, 'manage-replace-email', 'meera.shah@example.org');
    fireEvent.click(confirmButton(dialog));
    const stale = await within(dialog).findByTestId('manage-replace-stale');
    expect(stale.textContent).toContain(en.epakManage.errors.modified);
    expect(confirmButton(dialog).hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(stale).getByTestId('manage-replace-reload'));
    await waitFor(() => expect(within(dialog).queryByTestId('manage-replace-stale')).toBeNull());
    // What the owner typed is still what they mean.
    expect((within(dialog).getByTestId('manage-replace-email') as HTMLInputElement).value).toBe('meera.shah@example.org');
    expect(confirmButton(dialog).hasAttribute('disabled')).toBe(false);
    fireEvent.click(confirmButton(dialog));
    await notice(fill(en.epakManage.notices.replaced, { name: 'Ravi Iyer', newName: 'Meera Shah' }));
    expect(server.requestsTo('POST', managePaths.replace(RAVI)).map((request) => (request.body as { modifiedOn: string }).modifiedOn)).toEqual([OPENED, FRESH]);
  });

  it('says so when, reloaded, the person turns out to have acted meanwhile', async () => {
    const server = stubManage(ownersEpak(), {
      routes: {
        [`POST ${managePaths.replace(RAVI)}`]: () => {
          const steps = server.state.epak.steps.map((step) => ({ ...step, recipients: step.recipients.map((r) => (r.recipientId === RAVI ? { ...r, status: 'Signed' as const } : r)) }));
          server.state.epak = { ...server.state.epak, steps, modifiedOn: FRESH };
          return jsonResponse({ code: -306, data: { modifiedOn: FRESH }, message: 'changed' }, 409);
        },
      },
    });
    await openManage();
    const dialog = await openDialogFor(RAVI);
    type(dialog, 'manage-replace-email', 'meera.shah@example.org');
    fireEvent.click(confirmButton(dialog));
    fireEvent.click(await within(dialog).findByTestId('manage-replace-reload'));
    await waitFor(() => expect(within(dialog).getByTestId('manage-replace-gone').textContent).toBe(fill(en.epakManage.replace.gone, { name: 'Ravi Iyer' })));
    expect(confirmButton(dialog).hasAttribute('disabled')).toBe(true);
    expect(server.requestsTo('POST', managePaths.replace(RAVI))).toHaveLength(1);
  });

  it.each([
    ['someone already in the step (-6)', jsonResponse({ code: -6, data: null, message: 'x is already a recipient of this step', issues: [{ path: 'email', message: 'already in this step' }] }, 400), en.epakManage.errors.alreadyInStep],
    ['a disabled person (-13)', jsonResponse({ code: -13, data: { email: 'x@example.org' }, message: 'disabled' }, 403), en.epakManage.errors.disabled],
    ['someone who acted meanwhile (-28)', jsonResponse({ code: -28, data: null, message: 'Ravi Iyer has already acted (Signed).' }, 409), fill(en.epakManage.errors.notPending, { detail: 'Ravi Iyer has already acted (Signed).' })],
  ])('shows the refusal of %s in words', async (_name, answer, expected) => {
    stubManage(ownersEpak(), { routes: { [`POST ${managePaths.replace(RAVI)}`]: () => answer } });
    await openManage();
    const dialog = await openDialogFor(RAVI);
    type(dialog, 'manage-replace-email', 'someone@example.org');
    fireEvent.click(confirmButton(dialog));
    await waitFor(() => expect(within(dialog).getByTestId('manage-dialog-error').textContent).toBe(expected));
  });

  it('is not offered once the ePak has ended', async () => {
    stubManage(ownersEpak({ status: 'Stopped', currentStep: null }));
    await openManage();
    expect(screen.queryByTestId('manage-replace-recipient')).toBeNull();
  });

  it('is named by the edit dialog as the way to change who signs', async () => {
    stubManage(ownersEpak());
    await openManage();
    fireEvent.click(screen.getByTestId('manage-edit'));
    const dialog = await screen.findByTestId('manage-edit-dialog');
    expect(dialog.textContent).toContain(en.epakManage.edit.recipientsHint);
  });
});
