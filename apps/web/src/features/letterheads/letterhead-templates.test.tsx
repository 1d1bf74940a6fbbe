import { LETTERHEAD_MAX_SIZE_BYTES, type LetterheadTemplate } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { imageFile, renderWithProviders } from '../../test/panel-test-harness';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { LetterheadTemplates } from './letterhead-templates';

const copy = en.letterheads;
const LIST = '/msbapi/v1/letterheadtemplate';
const ID_A = '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
const ID_B = '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c42';

function template(id: string, name: string, deletable: boolean): LetterheadTemplate {
  return {
    letterHeadDocId: id,
    name,
    contentType: 'image/png',
    size: 20480,
    width: 1200,
    height: 200,
    ownerId: adminUser.id,
    ownerName: 'Asha Rao',
    deletable,
    createdOn: '2025-03-05T10:00:00.000Z',
  };
}

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const imageResponse = () => new Response(PNG_BYTES, { status: 200, headers: { 'content-type': 'image/png' } });

function stub(initial: LetterheadTemplate[], overrides: Parameters<typeof stubApi>[0] = {}) {
  let letterheads = [...initial];
  return stubApi({
    [`GET ${LIST}`]: () => jsonResponse({ code: 1, data: { letterheads } }),
    [`POST ${LIST}`]: () => {
      const created = template(ID_B, 'new.png', true);
      letterheads = [created, ...letterheads];
      return jsonResponse({ code: 1, data: created });
    },
    [`DELETE ${LIST}/${ID_A}`]: () => {
      letterheads = letterheads.filter((l) => l.letterHeadDocId !== ID_A);
      return jsonResponse({ code: 1, data: { deleted: true } });
    },
    [`GET ${LIST}/${ID_A}/image`]: () => imageResponse(),
    [`GET ${LIST}/${ID_B}/image`]: () => imageResponse(),
    // Spread last: a test's own answer replaces the healthy one.
    ...overrides,
  });
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const pick = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

beforeEach(() => {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:letterhead');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('LetterheadTemplates', () => {
  it('lists the tenant’s letterheads with thumbnails, sizes and delete only where allowed', async () => {
    stub([template(ID_A, 'acme.png', true), { ...template('3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c43', 'theirs.png', false) }]);
    renderWithProviders(<LetterheadTemplates />);
    const list = await screen.findByRole('list', { name: copy.listLabel });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['acme.png', 'theirs.png']);
    expect(within(items[0]!).getByText('1200 × 200 px · 20 KB')).toBeTruthy();
    await waitFor(() => expect(within(items[0]!).getByRole('img', { name: 'Letterhead acme.png' })).toBeTruthy());
    expect(within(items[0]!).getByRole('button', { name: 'Delete letterhead acme.png' })).toBeTruthy();
    expect(within(items[1]!).queryByRole('button', { name: /Delete/ })).toBeNull();
    // Without a tag to put it on, there is nothing to "use".
    expect(screen.queryByRole('button', { name: /^Use letterhead/ })).toBeNull();
  });

  it('checks the file before sending: type by extension and bytes, 500 KB, one file', async () => {
    const api = stub([]);
    renderWithProviders(<LetterheadTemplates />);
    await screen.findByText(copy.empty);
    expect(fileInput().multiple).toBe(false);
    expect(fileInput().accept).toBe('image/png,image/jpeg,.png,.jpg,.jpeg');

    pick(imageFile('head.gif', { type: 'image/gif' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please select image in jpg/png/jpeg');
    pick(imageFile('head.png', { type: 'image/png', content: 'pdf' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please select image in jpg/png/jpeg'));
    pick(imageFile('head.png', { type: 'image/png', size: LETTERHEAD_MAX_SIZE_BYTES + 1 }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(en.maxSizeExceeded));
    expect(api.requestsTo('POST', LIST)).toHaveLength(0);

    pick(imageFile('head.png', { type: 'image/png', size: LETTERHEAD_MAX_SIZE_BYTES }));
    await screen.findByRole('listitem', { name: 'new.png' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.requestsTo('POST', LIST)).toHaveLength(1);
    expect((api.requestsTo('POST', LIST)[0]!.body as Record<string, unknown>)['file']).toBeInstanceOf(File);
  });

  it('shows the server’s refusals in the spec’s words', async () => {
    stub([], { [`POST ${LIST}`]: () => jsonResponse({ code: -142, data: null, message: 'too large', issues: [{ path: 'file', message: 'maxSizeExceeded' }] }, 413) });
    renderWithProviders(<LetterheadTemplates />);
    await screen.findByText(copy.empty);
    pick(imageFile('head.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe(en.maxSizeExceeded);
  });

  it('deletes a letterhead and keeps the list when the server refuses', async () => {
    const api = stub([template(ID_A, 'acme.png', true)], {
      [`DELETE ${LIST}/${ID_B}`]: () => errorResponse(-11, 403),
    });
    renderWithProviders(<LetterheadTemplates />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete letterhead acme.png' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'acme.png' })).toBeNull());
    expect(api.requestsTo('DELETE', `${LIST}/${ID_A}`)).toHaveLength(1);
    expect(await screen.findByText(copy.empty)).toBeTruthy();
  });

  it('hands the chosen letterhead’s image over as a data URL and marks it in use', async () => {
    stub([template(ID_A, 'acme.png', true)]);
    const onChoose = vi.fn();
    function Harness() {
      const [chosenId, setChosenId] = useState<string | null>(null);
      return (
        <LetterheadTemplates
          chosenId={chosenId}
          onChoose={(chosen, dataUrl) => {
            onChoose(chosen, dataUrl);
            setChosenId(chosen.letterHeadDocId);
          }}
        />
      );
    }
    renderWithProviders(<Harness />);
    fireEvent.click(await screen.findByRole('button', { name: 'Use letterhead acme.png' }));
    await waitFor(() => expect(onChoose).toHaveBeenCalledTimes(1));
    const [chosen, dataUrl] = onChoose.mock.calls[0]!;
    expect(chosen.letterHeadDocId).toBe(ID_A);
    expect(dataUrl).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(await screen.findByText(copy.inUse)).toBeTruthy();
  });
});
