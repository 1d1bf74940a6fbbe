import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Announcement } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { TENANT_HEADER, ApiError } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, rootUser, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';
import { draftProblems, emptyDraft, isoFromLocalInput, serverErrors, toLocalInput } from './announcement-form';

const HOUR = 3_600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

const live: Announcement = {
  id: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091',
  text: 'Quarterly close: sign by Friday',
  startTime: iso(-HOUR),
  endTime: iso(HOUR),
  tenantId: TENANT_ACME,
};
const ended: Announcement = { ...live, id: '3c4d5e6f-7081-4923-8b4c-5d6e7f809102', text: 'Last week’s outage', startTime: iso(-48 * HOUR), endTime: iso(-24 * HOUR) };
const later: Announcement = { ...live, id: '4d5e6f70-8192-4a34-9c5d-6e7f80910213', text: 'Training next month', startTime: iso(24 * HOUR), endTime: iso(48 * HOUR) };

const ok = (data: unknown) => jsonResponse({ code: 1, data });

function openAnnouncements() {
  renderApp('/admin?section=announcements');
  return screen.findByRole('heading', { level: 1, name: en.announcements.title });
}

describe('the form helpers', () => {
  it('round-trips datetime-local values in the browser zone and starts a new one now, for a day', () => {
    const at = new Date(2025, 2, 10, 9, 5, 42);
    expect(toLocalInput(at)).toBe('2025-03-10T09:05');
    expect(isoFromLocalInput('2025-03-10T09:05')).toBe(new Date(2025, 2, 10, 9, 5).toISOString());
    expect(isoFromLocalInput('')).toBeNull();
    expect(isoFromLocalInput('next tuesday')).toBeNull();
    expect(emptyDraft(at.getTime())).toEqual({ text: '', start: '2025-03-10T09:05', end: '2025-03-11T09:05' });
    expect(draftProblems({ text: ' ', start: '', end: 'x' })).toEqual({
      text: 'common.required',
      start: 'common.required',
      end: 'announcements.errors.dateInvalid',
    });
  });

  it("places the server's invalid-input issues on their fields", () => {
    const invalid = new ApiError({ code: -6, httpStatus: 400, message: 'The request is invalid.', issues: [{ path: 'body.endTime', message: 'endTime must be after startTime' }] });
    expect(serverErrors(invalid)).toEqual({ fields: { end: 'announcements.errors.endBeforeStart' } });
    expect(serverErrors(new ApiError({ code: -1, httpStatus: 404, message: 'Not found.' })).message).toBe('announcements.errors.notFound');
    expect(serverErrors(new ApiError({ code: -1, httpStatus: 0, message: 'offline' })).message).toBe('common.unreachable');
    expect(serverErrors(new ApiError({ code: -2, httpStatus: 400, message: 'Odd refusal' }))).toEqual({
      fields: {},
      message: 'announcements.errors.saveFailed',
      detail: 'Odd refusal',
    });
  });
});

describe('announcements on /admin', () => {
  it('lists them with their state, for the selected tenant', async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({ 'GET /msbapi/v2/announcements': () => ok({ items: [later, live, ended] }) });
    await openAnnouncements();
    const list = await screen.findByRole('list', { name: en.announcements.listLabel });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([later.text, live.text, ended.text]);
    expect(within(items[0]!).getByText(en.announcements.status.scheduled)).toBeTruthy();
    expect(within(items[1]!).getByText(en.announcements.status.live)).toBeTruthy();
    expect(within(items[2]!).getByText(en.announcements.status.ended)).toBeTruthy();
    expect(items[1]!.querySelector('time')?.getAttribute('datetime')).toBe(live.startTime);
    expect(requestsTo('GET', '/msbapi/v2/announcements')[0]?.headers.get(TENANT_HEADER)).toBe(TENANT_ACME);
  });

  it('publishes a new one with the times entered, in the browser zone', async () => {
    sessionStore.set(signedInSession());
    let items: Announcement[] = [];
    const { requestsTo } = stubApi({
      'GET /msbapi/v2/announcements': () => ok({ items }),
      'POST /msbapi/v2/announcements': ({ body }) => {
        const input = body as { text: string; startTime: string; endTime: string };
        const made = { id: '5e6f7081-92a3-4b45-8d6e-7f8091021324', tenantId: TENANT_ACME, ...input };
        items = [made];
        return ok(made);
      },
    });
    await openAnnouncements();
    expect(await screen.findByText(en.announcements.empty)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(new RegExp(`^${en.announcements.form.text}`)), { target: { value: '  Servers move tonight  ' } });
    typeInto(en.announcements.form.start, '2030-05-01T08:00');
    typeInto(en.announcements.form.end, '2030-05-01T20:30');
    fireEvent.click(screen.getByRole('button', { name: en.announcements.form.create }));
    expect(await screen.findByRole('listitem', { name: 'Servers move tonight' })).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v2/announcements')[0]?.body).toEqual({
      text: 'Servers move tonight',
      startTime: new Date(2030, 4, 1, 8, 0).toISOString(),
      endTime: new Date(2030, 4, 1, 20, 30).toISOString(),
    });
    expect(screen.getByText(en.announcements.published)).toBeTruthy();
    // The form is ready for the next one.
    expect(inputLabelled(en.announcements.form.start).value).not.toBe('2030-05-01T08:00');
  });

  it("shows the server's verdict on the field it names, and what the form can tell alone", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      'GET /msbapi/v2/announcements': () => ok({ items: [] }),
      'POST /msbapi/v2/announcements': () =>
        jsonResponse(
          { code: -6, data: null, message: 'The request is invalid.', issues: [{ path: 'body.endTime', message: 'endTime must be after startTime' }] },
          400,
        ),
    });
    await openAnnouncements();
    fireEvent.click(await screen.findByRole('button', { name: en.announcements.form.create }));
    // Nothing to send yet: the message is missing.
    expect(await screen.findByText(en.common.required)).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v2/announcements')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(new RegExp(`^${en.announcements.form.text}`)), { target: { value: 'Backwards' } });
    typeInto(en.announcements.form.start, '2030-05-02T08:00');
    typeInto(en.announcements.form.end, '2030-05-01T08:00');
    fireEvent.click(screen.getByRole('button', { name: en.announcements.form.create }));
    expect(await screen.findByText(en.announcements.errors.endBeforeStart)).toBeTruthy();
    expect(inputLabelled(en.announcements.form.end).getAttribute('aria-invalid')).toBe('true');
    // Changing the end clears the verdict until the next try.
    typeInto(en.announcements.form.end, '2030-05-03T08:00');
    expect(screen.queryByText(en.announcements.errors.endBeforeStart)).toBeNull();
  });

  it('edits one in place and deletes one after confirming', async () => {
    sessionStore.set(signedInSession());
    let items = [live, later];
    const { requestsTo } = stubApi({
      'GET /msbapi/v2/announcements': () => ok({ items }),
      [`PUT /msbapi/v2/announcements/${live.id}`]: ({ body }) => {
        const updated = { ...live, ...(body as object) };
        items = [updated, later];
        return ok(updated);
      },
      [`DELETE /msbapi/v2/announcements/${later.id}`]: () => {
        items = items.filter((a) => a.id !== later.id);
        return ok({ id: later.id });
      },
    });
    await openAnnouncements();
    const card = await screen.findByRole('listitem', { name: live.text });
    fireEvent.click(within(card).getByRole('button', { name: en.announcements.edit }));
    expect(screen.getByRole('heading', { name: en.announcements.form.editTitle })).toBeTruthy();
    expect(inputLabelled(en.announcements.form.start).value).toBe(toLocalInput(live.startTime));
    const text = screen.getByLabelText(new RegExp(`^${en.announcements.form.text}`));
    expect((text as HTMLTextAreaElement).value).toBe(live.text);
    fireEvent.change(text, { target: { value: 'Quarterly close: sign by Thursday' } });
    fireEvent.click(screen.getByRole('button', { name: en.announcements.form.save }));
    expect(await screen.findByRole('listitem', { name: 'Quarterly close: sign by Thursday' })).toBeTruthy();
    expect(requestsTo('PUT', `/msbapi/v2/announcements/${live.id}`)[0]?.body).toMatchObject({ text: 'Quarterly close: sign by Thursday' });
    // Back to a blank form for a new one.
    expect(screen.getByRole('heading', { name: en.announcements.form.createTitle })).toBeTruthy();

    fireEvent.click(within(screen.getByRole('listitem', { name: later.text })).getByRole('button', { name: en.announcements.delete }));
    const dialog = await screen.findByRole('dialog', { name: en.announcements.confirmDelete.title });
    fireEvent.click(within(dialog).getByRole('button', { name: en.announcements.confirmDelete.confirm }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: later.text })).toBeNull());
    expect(requestsTo('DELETE', `/msbapi/v2/announcements/${later.id}`)).toHaveLength(1);
  });

  it('is not offered to a member who may not manage announcements', async () => {
    // Globex is where Asha is a signer; /admin itself is closed to signers.
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    const { requestsTo } = stubApi();
    renderApp('/admin?section=announcements');
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: en.announcements.title })).toBeNull());
    expect(screen.queryByRole('tab', { name: en.announcements.tab })).toBeNull();
    expect(requestsTo('GET', '/msbapi/v2/announcements')).toHaveLength(0);
  });

  it('sits beside the outbox section', async () => {
    sessionStore.set(signedInSession());
    stubApi({ 'GET /msbapi/v1/outbox': () => ok({ messages: [] }) });
    renderApp('/admin?section=outbox');
    expect(await screen.findByRole('heading', { level: 1, name: en.outbox.title })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: en.announcements.tab }));
    expect(await screen.findByRole('heading', { level: 1, name: en.announcements.title })).toBeTruthy();
  });
});

describe('instance-wide announcements on /root', () => {
  it('lets root manage them through the root endpoints', async () => {
    sessionStore.set(signedInSession(rootUser));
    const instance = { ...live, tenantId: null, text: 'Upgrade on Sunday night' };
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/root/tenants': () => ok({ tenants: [] }),
      'GET /msbapi/v2/root/announcements': () => ok({ items: [instance] }),
      'POST /msbapi/v2/root/announcements': () => errorResponse(-6, 400, 'The request is invalid.'),
    });
    renderApp('/root');
    fireEvent.click(await screen.findByRole('tab', { name: en.announcements.tab }));
    expect(await screen.findByRole('listitem', { name: instance.text })).toBeTruthy();
    expect(screen.getByText(en.announcements.instanceIntro)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(new RegExp(`^${en.announcements.form.text}`)), { target: { value: 'Another' } });
    fireEvent.click(screen.getByRole('button', { name: en.announcements.form.create }));
    // A refusal the form cannot place: said for the whole form, with the server's words.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(en.announcements.errors.saveFailed);
    expect(alert.textContent).toContain('The request is invalid.');
    expect(requestsTo('POST', '/msbapi/v2/root/announcements')).toHaveLength(1);
    expect(requestsTo('GET', '/msbapi/v2/announcements')).toHaveLength(0);
  });
});
