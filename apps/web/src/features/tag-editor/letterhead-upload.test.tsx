import { LETTERHEAD_MAX_SIZE_BYTES } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { LetterheadUpload } from './letterhead-upload';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { imageFile, placed, renderEditing } from '../../test/panel-test-harness';

const copy = en.tagPanel.letterhead;
const section = () => screen.getByRole('region', { name: copy.heading });
const fileInput = () => section().querySelector<HTMLInputElement>('input[type="file"]')!;
const pick = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const preview = () => within(section()).queryByRole('img', { name: copy.preview });

function renderLetterhead(value: string | null = null) {
  return renderEditing({ ...placed('letterHead'), value }, (tag, onChange) => <LetterheadUpload tag={tag} onChange={onChange} />);
}

describe('LetterheadUpload', () => {
  it('says what it takes and offers only those files', () => {
    renderLetterhead();
    expect(within(section()).getByText(copy.hint.replace('{{size}}', '500'))).toBeTruthy();
    expect(fileInput().accept).toBe('image/png,image/jpeg,.png,.jpg,.jpeg');
    expect(fileInput().multiple).toBe(false);
  });

  it.each([
    ['a JPEG named .jpeg', imageFile('head.jpeg', { type: 'image/jpeg', content: 'jpeg' }), 'data:image/jpeg;base64,'],
    ['a JPEG named .jpg', imageFile('head.jpg', { type: 'image/jpeg', content: 'jpeg' }), 'data:image/jpeg;base64,'],
    ['a PNG exactly at 500 KB', imageFile('head.png', { type: 'image/png', size: LETTERHEAD_MAX_SIZE_BYTES }), 'data:image/png;base64,'],
  ])('keeps %s in the tag as a data URL and previews it', async (_, file, prefix) => {
    const { latest } = renderLetterhead();
    pick(file);
    await waitFor(() => expect(String(latest().value)).toMatch(new RegExp(`^${prefix}`)));
    expect(preview()?.getAttribute('src')).toBe(latest().value);
    expect(within(section()).getByRole('button', { name: en.tagPanel.upload.replace })).toBeTruthy();
  });

  it.each([
    ['a GIF', imageFile('head.gif', { type: 'image/gif' })],
    ['a PDF', imageFile('head.pdf', { type: 'application/pdf', content: 'pdf' })],
    ['a PNG declared as a PDF', imageFile('head.png', { type: 'application/pdf' })],
    ['a PDF renamed to .png', imageFile('head.png', { type: 'image/png', content: 'pdf' })],
  ])("refuses %s: 'Please select image in jpg/png/jpeg'", async (_, file) => {
    const { changes } = renderLetterhead();
    pick(file);
    expect((await within(section()).findByRole('alert')).textContent).toBe('Please select image in jpg/png/jpeg');
    expect(changes).toHaveLength(0);
  });

  it('refuses a file over 500 KB with maxSizeExceeded', async () => {
    const { changes } = renderLetterhead();
    pick(imageFile('head.png', { type: 'image/png', size: LETTERHEAD_MAX_SIZE_BYTES + 1 }));
    expect((await within(section()).findByRole('alert')).textContent).toBe(en.maxSizeExceeded);
    expect(changes).toHaveLength(0);
  });

  it('holds one file: a new pick replaces the image, a refused one leaves it', async () => {
    const { latest } = renderLetterhead();
    pick(imageFile('first.png', { size: 10 }));
    await waitFor(() => expect(preview()).not.toBeNull());
    const first = latest().value;

    pick(imageFile('second.jpg', { content: 'jpeg', size: 12 }));
    await waitFor(() => expect(latest().value).not.toBe(first));
    expect(String(latest().value)).toMatch(/^data:image\/jpeg/);

    const kept = latest().value;
    pick(imageFile('third.bmp'));
    await within(section()).findByRole('alert');
    expect(latest().value).toBe(kept);
    expect(preview()?.getAttribute('src')).toBe(kept);

    // A good pick after a refusal clears the message.
    pick(imageFile('fourth.png', { size: 20 }));
    await waitFor(() => expect(within(section()).queryByRole('alert')).toBeNull());
  });

  it('removes the image', () => {
    const { latest } = renderLetterhead('data:image/png;base64,iVBORw0KGgo=');
    expect(preview()).not.toBeNull();
    fireEvent.click(within(section()).getByRole('button', { name: en.tagPanel.upload.remove }));
    expect(latest().value).toBeNull();
    expect(preview()).toBeNull();
    expect(within(section()).getByRole('button', { name: en.tagPanel.upload.choose })).toBeTruthy();
  });

  it("puts a saved letterhead's image in the tag, asking for the list only when opened", async () => {
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:letterhead');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const id = '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
    const png = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), { status: 200, headers: { 'content-type': 'image/png' } });
    const template = { letterHeadDocId: id, name: 'acme.png', contentType: 'image/png', size: 8, width: 600, height: 100, ownerId: null, ownerName: null, deletable: false, createdOn: '2025-03-05T10:00:00.000Z' };
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/letterheadtemplate': () => jsonResponse({ code: 1, data: { letterheads: [template] } }),
      [`GET /msbapi/v1/letterheadtemplate/${id}/image`]: png,
    });
    const { latest } = renderLetterhead();
    expect(requestsTo('GET', '/msbapi/v1/letterheadtemplate')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.letterheads.showSaved }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use letterhead acme.png' }));
    await waitFor(() => expect(String(latest().value)).toBe('data:image/png;base64,iVBORw0KGgo='));
    expect(preview()?.getAttribute('src')).toBe(latest().value);
    expect(await screen.findByText(en.letterheads.inUse)).toBeTruthy();
  });
});
