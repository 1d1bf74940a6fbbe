import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resolvePermissionSettings, type SigningReason } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import hi from '../../i18n/hi.json';
import { chooseLanguage } from '../../i18n/i18n';
import { BUILT_IN_REASONS } from '../../test/ceremony-fixtures';
import { jsonResponse, signedInSession, stubApi, type FakeRoute } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';
import { reasonProblem } from './use-reason-form';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

const r = en.reasonsAdmin;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const REASONS = '/msbapi/v1/reasons';
const [approve, agree, author, witness] = BUILT_IN_REASONS as [SigningReason, SigningReason, SigningReason, SigningReason];
const APPROVE = en.signing.reasons.approve;
const WITNESS = en.signing.reasons.witness;

/** A server holding this list (or the list as it is at each request); `extra` routes answer the changes. */
function stubReasons(reasons: SigningReason[] | (() => SigningReason[]), extra: Record<string, FakeRoute> = {}) {
  return stubApi({ ...extra, [`GET ${REASONS}`]: () => ok({ reasons: typeof reasons === 'function' ? reasons() : reasons }) });
}

async function openReasons() {
  sessionStore.set(signedInSession());
  const result = renderApp('/admin?section=reasons');
  await screen.findByRole('heading', { level: 1, name: r.title });
  await screen.findAllByTestId('reason');
  return result;
}

const row = (name: string) => screen.getByRole('listitem', { name });
const names = () => screen.getAllByTestId('reason').map((item) => item.getAttribute('aria-label'));

describe('reasonProblem', () => {
  it('puts words already in the list on the text field, and a vanished reason as gone', () => {
    expect(reasonProblem(new ApiError({ code: -6, httpStatus: 400, message: 'x', issues: [{ path: 'text', message: 'already in the list' }] }))).toEqual({
      key: 'reasonsAdmin.errors.taken',
      onText: true,
    });
    expect(reasonProblem(new ApiError({ code: -1, httpStatus: 404, message: 'x' }))).toEqual({ key: 'reasonsAdmin.errors.gone', gone: true });
    expect(reasonProblem(new ApiError({ code: -1, httpStatus: 0, message: 'x' })).key).toBe('common.unreachable');
    expect(reasonProblem(new ApiError({ code: -6, httpStatus: 400, message: 'server says', issues: [{ path: 'enabled', message: 'x' }] }))).toEqual({
      key: 'reasonsAdmin.errors.failed',
      detail: 'server says',
    });
  });
});

describe('edit reasons on /admin', () => {
  it('lists the reasons in order, built-in ones translated, the default marked and not to be turned off', async () => {
    const custom: SigningReason = { reasonId: '4c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c09', key: null, text: 'Checked by finance', position: 5, enabled: false, isDefault: false };
    stubReasons([approve, agree, author, witness, custom]);
    await openReasons();
    expect(screen.getByRole('tab', { name: r.tab }).getAttribute('aria-selected')).toBe('true');
    expect(names()).toEqual([APPROVE, en.signing.reasons.agree, en.signing.reasons.author, WITNESS, 'Checked by finance']);
    expect(screen.getByText('5 reasons, 4 offered')).toBeTruthy();
    expect(within(row(APPROVE)).getByTestId('reason-default')).toBeTruthy();
    expect(within(row('Checked by finance')).getByTestId('reason-disabled')).toBeTruthy();
    expect((within(row(APPROVE)).getByRole('switch', { name: `Offer “${APPROVE}” when signing` }) as HTMLInputElement).disabled).toBe(true);
    expect(within(row(APPROVE)).queryByRole('button', { name: `Make “${APPROVE}” the default` })).toBeNull();
    expect(within(row(APPROVE)).getByRole('button', { name: `Move “${APPROVE}” up` }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the built-in reasons in Hindi when the screen is in Hindi, and a reason the tenant typed as typed', async () => {
    await chooseLanguage('hi');
    const custom: SigningReason = { reasonId: '4c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c09', key: null, text: 'Checked by finance', position: 5, enabled: true, isDefault: false };
    stubReasons([approve, agree, author, witness, custom]);
    sessionStore.set(signedInSession());
    renderApp('/admin?section=reasons');
    await screen.findByRole('heading', { level: 1, name: hi.reasonsAdmin.title });
    await screen.findAllByTestId('reason');
    expect(names()).toEqual([hi.signing.reasons.approve, hi.signing.reasons.agree, hi.signing.reasons.author, hi.signing.reasons.witness, 'Checked by finance']);
  });

  it('moves, turns off and makes default, each with one PUT, showing the list the server answers', async () => {
    let reasons = [approve, agree, author, witness];
    const { requestsTo } = stubReasons(() => reasons, {
      [`PUT ${REASONS}`]: ({ body }) => {
        const change = body as { reasonId: string; position?: number; enabled?: boolean; isDefault?: true };
        if (change.position !== undefined) reasons = [{ ...approve }, { ...witness, position: 2 }, { ...agree, position: 3 }, { ...author, position: 4 }];
        if (change.enabled === false) reasons = reasons.map((reason) => (reason.reasonId === change.reasonId ? { ...reason, enabled: false } : reason));
        if (change.isDefault) reasons = reasons.map((reason) => ({ ...reason, isDefault: reason.reasonId === change.reasonId, enabled: reason.enabled || reason.reasonId === change.reasonId }));
        return ok({ reasons });
      },
    });
    await openReasons();
    // Up from 4 to 3, as the button asks; the server's answer says where it landed.
    fireEvent.click(within(row(WITNESS)).getByRole('button', { name: `Move “${WITNESS}” up` }));
    expect(await screen.findByText(`“${WITNESS}” is now number 2.`)).toBeTruthy();
    await waitFor(() => expect(names()[1]).toBe(WITNESS));

    fireEvent.click(within(row(WITNESS)).getByRole('switch', { name: `Offer “${WITNESS}” when signing` }));
    expect(await screen.findByText(`“${WITNESS}” is no longer offered when signing.`)).toBeTruthy();

    fireEvent.click(within(row(WITNESS)).getByRole('button', { name: `Make “${WITNESS}” the default` }));
    expect(await screen.findByText(`“${WITNESS}” is now the default reason.`)).toBeTruthy();
    await waitFor(() => expect(within(row(WITNESS)).getByTestId('reason-default')).toBeTruthy());
    expect(requestsTo('PUT', REASONS).map((request) => request.body)).toEqual([
      { reasonId: witness.reasonId, position: 3 },
      { reasonId: witness.reasonId, enabled: false },
      { reasonId: witness.reasonId, isDefault: true },
    ]);
  });

  it('adds a reason, refusing blank words before sending and words already in the list from the server', async () => {
    let taken = true;
    const { requestsTo } = stubReasons([approve], {
      [`POST ${REASONS}`]: ({ body }) =>
        taken
          ? jsonResponse({ code: -6, data: null, message: 'This reason is in the list already.', issues: [{ path: 'text', message: 'already in the list' }] }, 400)
          : ok({ reasonId: '4c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c10', key: null, position: 2, enabled: true, isDefault: false, ...(body as object) }),
    });
    await openReasons();
    fireEvent.click(screen.getByRole('button', { name: r.add }));
    const dialog = await screen.findByRole('dialog', { name: r.form.createTitle });
    typeInto(r.form.text, '   ');
    fireEvent.click(within(dialog).getByRole('button', { name: r.form.create }));
    expect(await within(dialog).findByText(r.errors.required)).toBeTruthy();
    expect(requestsTo('POST', REASONS)).toHaveLength(0);

    typeInto(r.form.text, ' i approve this document ');
    fireEvent.click(within(dialog).getByRole('button', { name: r.form.create }));
    expect(await within(dialog).findByText(r.errors.taken)).toBeTruthy();

    taken = false;
    typeInto(r.form.text, 'Checked by finance');
    fireEvent.click(within(dialog).getByRole('button', { name: r.form.create }));
    expect(await screen.findByText('“Checked by finance” was added at the end of the list.')).toBeTruthy();
    expect(requestsTo('POST', REASONS).map((request) => request.body)).toEqual([{ text: 'i approve this document' }, { text: 'Checked by finance' }]);
  });

  it('edits the words of a built-in reason, starting from the words shown', async () => {
    const { requestsTo } = stubReasons([approve, agree], {
      [`PUT ${REASONS}`]: ({ body }) => ok({ reasons: [{ ...approve, key: null, text: (body as { text: string }).text }, agree] }),
    });
    await openReasons();
    fireEvent.click(within(row(APPROVE)).getByRole('button', { name: `Edit “${APPROVE}”` }));
    const dialog = await screen.findByRole('dialog', { name: r.form.editTitle });
    expect((within(dialog).getByLabelText(new RegExp(`^${r.form.text}`)) as HTMLInputElement).value).toBe(APPROVE);
    typeInto(r.form.text, 'Approved');
    fireEvent.click(within(dialog).getByRole('button', { name: r.form.save }));
    expect(await screen.findByText('Saved: “Approved”.')).toBeTruthy();
    expect(requestsTo('PUT', REASONS).map((request) => request.body)).toEqual([{ reasonId: approve.reasonId, text: 'Approved' }]);
  });

  it("is not offered when the tenant's setting hides it, and the menu item leads to it otherwise", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/accessibilities': () => ok({ role: 'admin', settings: resolvePermissionSettings({ showEditReasons: false }), routes: [], menu: [] }),
      'GET /msbapi/v1/filteredusers': () =>
        ok({ filter: 'All', total: 0, pg: 0, size: 25, users: [], counts: { Signers: 0, Submitters: 0, Custodians: 0, Admin: 0, RetentionAdmin: 0, All: 0 } }),
    });
    renderApp('/admin?section=reasons');
    // An address naming the hidden section opens the first one instead.
    expect(await screen.findByRole('heading', { level: 1, name: en.users.title })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: r.tab })).toBeNull();
    expect(requestsTo('GET', REASONS)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.menu.open }));
    await screen.findByRole('menuitem', { name: en.menu.admin });
    expect(screen.queryByRole('menuitem', { name: en.menu.admin_editReasons })).toBeNull();
  });
});
