import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resolvePermissionSettings, type RubberStamp, type UserInfo } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, stubApi, userInfoOf } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

/**
 * The "Rubber stamps" section of the profile (issue 8): there only while the tenant's setting is
 * on; lists own and shared stamps, warns when the member lacks the passcode flag, adds a stamp
 * (multipart name and file) and shares one with groups.
 */
configure({ asyncUtilTimeout: 3000 });

const R = en.rubberStamps;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const profile: UserInfo = userInfoOf(adminUser);
const GROUP = { groupId: '2f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c01', groupName: 'Notaries' };
const png = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } });

const stamp = (over: Partial<RubberStamp>): RubberStamp => ({
  rubberStampId: '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c71',
  name: 'Company seal',
  contentType: 'image/png',
  size: 2048,
  width: 120,
  height: 120,
  ownerId: adminUser.id,
  ownerName: 'Asha Rao',
  owned: true,
  deletable: true,
  sharedWith: { users: [], groups: [] },
  updatedOn: '2025-03-05T10:00:00.000Z',
  ...over,
});
const MINE = stamp({});
const THEIRS = stamp({ rubberStampId: '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c72', name: 'Notary seal', ownerId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d', ownerName: 'Meera Shah', owned: false, deletable: false });

function serve(stampsOn: boolean, passcodeFlag: boolean, routes: Parameters<typeof stubApi>[0] = {}) {
  sessionStore.set(signedInSession());
  return stubApi({
    ...routes,
    'GET /msbapi/v1/users/profile': () => ok(profile),
    'GET /msbapi/v1/accessibilities': () => ok({ role: 'admin', settings: resolvePermissionSettings({ rubberStampEnabled: stampsOn }), routes: [], menu: [] }),
    'GET /msbapi/v2/rubberstamp': () => ok({ stamps: [MINE, THEIRS], passcodeFlag, groups: [GROUP] }),
    [`GET /msbapi/v2/rubberstamp/${MINE.rubberStampId}/image`]: png,
    [`GET /msbapi/v2/rubberstamp/${THEIRS.rubberStampId}/image`]: png,
  });
}

describe('the rubber stamps of the profile', () => {
  it('is not offered while the tenant has rubber stamps off', { timeout: 20_000 }, async () => {
    const { requestsTo } = serve(false, true);
    renderApp('/profile');
    await screen.findByRole('heading', { level: 2, name: en.profile.passwordHeading });
    expect(screen.queryByRole('heading', { name: R.title })).toBeNull();
    expect(requestsTo('GET', '/msbapi/v2/rubberstamp')).toHaveLength(0);
  });

  it("lists own and shared stamps, and says a stamp cannot be applied without the passcode flag", { timeout: 20_000 }, async () => {
    serve(true, false);
    renderApp('/profile');
    const section = await screen.findByTestId('rubber-stamps');
    expect(await within(section).findByText(R.passcodeMissing)).toBeTruthy();
    const cards = await within(section).findAllByTestId('rubber-stamp');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Company seal', 'Notary seal']);
    expect(within(cards[0]!).getByText(R.notShared)).toBeTruthy();
    expect(within(cards[1]!).getByText(R.sharedBy.replace('{{name}}', 'Meera Shah'))).toBeTruthy();
    // Someone else's stamp is theirs to edit, share and delete.
    expect(within(cards[1]!).queryByRole('button', { name: `${R.edit}: Notary seal` })).toBeNull();
    expect(within(cards[1]!).queryByRole('button', { name: `${R.delete}: Notary seal` })).toBeNull();
  });

  it('adds a stamp with its name and image', { timeout: 20_000 }, async () => {
    const { requestsTo } = serve(true, true, { 'POST /msbapi/v2/rubberstamp': () => ok(stamp({ rubberStampId: '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c73', name: 'Round seal' })) });
    renderApp('/profile');
    const section = await screen.findByTestId('rubber-stamps');
    expect(within(section).queryByText(R.passcodeMissing)).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: R.add }));
    const dialog = await screen.findByRole('dialog', { name: R.addTitle });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], 'round-seal.png', { type: 'image/png' });
    const input = dialog.querySelector('input[type="file"]') ?? document.querySelector('input[type="file"]');
    fireEvent.change(input!, { target: { files: [file] } });
    await waitFor(() => expect((within(dialog).getByLabelText(new RegExp(`^${R.name}`)) as HTMLInputElement).value).toBe('round-seal'));
    fireEvent.click(within(dialog).getByRole('button', { name: R.create }));
    await waitFor(() => expect(requestsTo('POST', '/msbapi/v2/rubberstamp')).toHaveLength(1));
    const sent = requestsTo('POST', '/msbapi/v2/rubberstamp')[0]!.body as Record<string, unknown>;
    expect(sent.name).toBe('round-seal');
    expect(sent.file).toBeTruthy();
  });

  it('shares a stamp with a group', { timeout: 20_000 }, async () => {
    const { requestsTo } = serve(true, true, { 'POST /msbapi/v2/rubberstamp/share': () => ok(stamp({ sharedWith: { users: [], groups: [GROUP] } })) });
    renderApp('/profile');
    const section = await screen.findByTestId('rubber-stamps');
    fireEvent.click(await within(section).findByRole('button', { name: `${R.share}: Company seal` }));
    const dialog = await screen.findByRole('dialog', { name: R.shareTitle.replace('{{name}}', 'Company seal') });
    fireEvent.click(within(dialog).getByRole('combobox', { name: R.groups }));
    fireEvent.click(await screen.findByRole('option', { name: 'Notaries' }));
    fireEvent.click(within(dialog).getByRole('button', { name: R.save }));
    await waitFor(() => expect(requestsTo('POST', '/msbapi/v2/rubberstamp/share')).toHaveLength(1));
    expect(requestsTo('POST', '/msbapi/v2/rubberstamp/share')[0]!.body).toEqual({ rubberStampId: MINE.rubberStampId, userIds: [], groupIds: [GROUP.groupId] });
  });
});
