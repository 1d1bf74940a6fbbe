import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PHOTO_MAX_BYTES } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, userInfoOf } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { photoProblem } from './profile-photo-section';

const READ = 'GET /msbapi/v1/users/profile';
const PHOTO = `/msbapi/v1/users/${adminUser.id}/photo`;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const withoutPhoto = userInfoOf(adminUser);
const withPhoto = userInfoOf(adminUser, { hasPhoto: true });
const pngResponse = () => new Response(PNG, { status: 200, headers: { 'Content-Type': 'image/png' } });

/** jsdom keeps no object URLs worth showing; these names make each one recognisable. */
function trackObjectUrls() {
  let made = 0;
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:photo-${++made}`);
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return { create, revoke };
}

const section = () => screen.getByRole('region', { name: en.profile.photo.heading });
const profileImage = () => within(section()).queryByRole('img', { name: en.profile.photo.alt });
const headerImage = () => screen.getByTestId('header-avatar').querySelector('img');
const fileInput = () => section().querySelector<HTMLInputElement>('input[type="file"]')!;
const pick = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

async function openProfile() {
  const rendered = renderApp('/profile');
  await screen.findByRole('region', { name: en.profile.photo.heading });
  return rendered;
}

describe('profile photo', () => {
  it('shows the initials until a photo is uploaded, then the photo on the profile and in the header', async () => {
    sessionStore.set(signedInSession());
    trackObjectUrls();
    let stored = false;
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: stored ? withPhoto : withoutPhoto }),
      [`POST ${PHOTO}`]: () => ((stored = true), jsonResponse({ code: 1, data: withPhoto })),
      [`GET ${PHOTO}`]: () => (stored ? pngResponse() : errorResponse(-1, 404)),
    });
    await openProfile();
    expect(screen.getByTestId('profile-photo').textContent).toBe('AR');
    expect(profileImage()).toBeNull();
    expect(within(section()).queryByRole('button', { name: en.profile.photo.remove })).toBeNull();
    expect(fileInput().accept).toBe('image/png,image/jpeg,.png,.jpg,.jpeg');

    pick(new File([PNG], 'me.png', { type: 'image/png' }));

    expect((await within(section()).findByRole('status')).textContent).toBe(en.profile.photo.uploaded);
    const [upload] = requestsTo('POST', PHOTO);
    expect(upload?.headers.get('Authorization')).toBe('Bearer access-1');
    expect((upload?.body as { file: File }).file.name).toBe('me.png');
    await waitFor(() => expect(profileImage()?.getAttribute('src')).toMatch(/^blob:photo-/));
    await waitFor(() => expect(headerImage()?.getAttribute('src')).toMatch(/^blob:photo-/));
    expect(within(section()).getByRole('button', { name: en.profile.photo.change })).toBeTruthy();
    // The profile and photo are read again, so what is shown is what the server keeps.
    await waitFor(() => expect(requestsTo('GET', PHOTO).length).toBeGreaterThan(0));
    expect(requestsTo('GET', '/msbapi/v1/users/profile').length).toBeGreaterThan(1);
  });

  it('fetches a stored photo with the bearer token and frees its object URL when the page goes', async () => {
    sessionStore.set(signedInSession());
    const { revoke } = trackObjectUrls();
    const { requestsTo } = stubApi({ [READ]: () => jsonResponse({ code: 1, data: withPhoto }), [`GET ${PHOTO}`]: pngResponse });
    const { unmount } = await openProfile();
    await waitFor(() => expect(profileImage()?.getAttribute('src')).toMatch(/^blob:photo-/));
    const shown = [profileImage()!.getAttribute('src'), headerImage()!.getAttribute('src')];
    expect(requestsTo('GET', PHOTO)[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    // The header and the page share one download.
    expect(requestsTo('GET', PHOTO)).toHaveLength(1);
    unmount();
    expect(revoke.mock.calls.map(([url]) => url).sort()).toEqual(shown.sort());
  });

  it.each([
    { file: new File(['%PDF-1.7'], 'contract.pdf', { type: 'application/pdf' }), message: en.profile.photo.wrongType },
    { file: new File(['GIF89a'], 'me.gif', { type: 'image/gif' }), message: en.profile.photo.wrongType },
    { file: new File([new Uint8Array(PHOTO_MAX_BYTES + 1)], 'big.png', { type: 'image/png' }), message: en.maxSizeExceeded },
  ])('refuses $file.name before sending it', async ({ file, message }) => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({ [READ]: () => jsonResponse({ code: 1, data: withoutPhoto }) });
    await openProfile();
    pick(file);
    expect((await within(section()).findByRole('alert')).textContent).toBe(message);
    expect(requestsTo('POST', PHOTO)).toHaveLength(0);
  });

  it.each([
    { answer: () => errorResponse(-142, 413), message: en.maxSizeExceeded },
    { answer: () => errorResponse(-6, 400, 'The photo must be a PNG or JPEG image.'), message: en.profile.photo.wrongType },
    { answer: () => errorResponse(-2, 500), message: en.profile.photo.uploadFailed },
    {
      answer: () => {
        throw new TypeError('Failed to fetch');
      },
      message: en.common.unreachable,
    },
  ])('explains a refused upload: $message', async ({ answer, message }) => {
    sessionStore.set(signedInSession());
    stubApi({ [READ]: () => jsonResponse({ code: 1, data: withoutPhoto }), [`POST ${PHOTO}`]: answer });
    const { router } = await openProfile();
    pick(new File([PNG], 'me.png', { type: 'image/png' }));
    expect((await within(section()).findByRole('alert')).textContent).toBe(message);
    // The section explains; a server error does not send the person away from their profile.
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('removes the photo only after confirmation, then shows the initials again', async () => {
    sessionStore.set(signedInSession());
    trackObjectUrls();
    let stored = true;
    const { requestsTo } = stubApi({
      [READ]: () => jsonResponse({ code: 1, data: stored ? withPhoto : withoutPhoto }),
      [`GET ${PHOTO}`]: pngResponse,
      [`DELETE ${PHOTO}`]: () => ((stored = false), jsonResponse({ code: 1, data: withoutPhoto })),
    });
    await openProfile();
    await waitFor(() => expect(profileImage()).not.toBeNull());

    fireEvent.click(within(section()).getByRole('button', { name: en.profile.photo.remove }));
    let dialog = await screen.findByRole('dialog', { name: en.profile.photo.confirmTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.photo.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo('DELETE', PHOTO)).toHaveLength(0);
    expect(profileImage()).not.toBeNull();

    fireEvent.click(within(section()).getByRole('button', { name: en.profile.photo.remove }));
    dialog = await screen.findByRole('dialog', { name: en.profile.photo.confirmTitle });
    expect(within(dialog).getByText(en.profile.photo.confirmText)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.photo.confirmRemove }));

    expect((await within(section()).findByRole('status')).textContent).toBe(en.profile.photo.removed);
    expect(requestsTo('DELETE', PHOTO)).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(profileImage()).toBeNull();
    expect(screen.getByTestId('profile-photo').textContent).toBe('AR');
    expect(headerImage()).toBeNull();
    expect(within(section()).getByRole('button', { name: en.profile.photo.choose })).toBeTruthy();
  });

  it('says so when the photo cannot be removed, and keeps it', async () => {
    sessionStore.set(signedInSession());
    trackObjectUrls();
    stubApi({
      [READ]: () => jsonResponse({ code: 1, data: withPhoto }),
      [`GET ${PHOTO}`]: pngResponse,
      [`DELETE ${PHOTO}`]: () => errorResponse(-2, 500),
    });
    await openProfile();
    fireEvent.click(within(section()).getByRole('button', { name: en.profile.photo.remove }));
    const dialog = await screen.findByRole('dialog', { name: en.profile.photo.confirmTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: en.profile.photo.confirmRemove }));
    expect((await within(section()).findByRole('alert')).textContent).toBe(en.profile.photo.removeFailed);
    await waitFor(() => expect(profileImage()).not.toBeNull());
  });
});

describe('photoProblem', () => {
  it.each([
    [{ type: 'image/png', name: 'a.png', size: 10 }, null],
    [{ type: 'image/jpeg', name: 'a.jpg', size: PHOTO_MAX_BYTES }, null],
    [{ type: 'image/jpeg', name: 'a.jpg', size: PHOTO_MAX_BYTES + 1 }, 'tooLarge'],
    [{ type: 'image/webp', name: 'a.webp', size: 10 }, 'wrongType'],
    // No declared type (some systems): the name decides.
    [{ type: '', name: 'Scan.JPEG', size: 10 }, null],
    [{ type: '', name: 'scan.bmp', size: 10 }, 'wrongType'],
    // A wrong type is the more useful thing to hear about a file that is also too large.
    [{ type: 'application/pdf', name: 'a.pdf', size: PHOTO_MAX_BYTES * 5 }, 'wrongType'],
  ] as const)('%o → %s', (file, problem) => {
    expect(photoProblem(file)).toBe(problem);
  });
});
