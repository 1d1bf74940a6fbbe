import { act, createEvent, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { newTag, resolvePermissionSettings, RUBBER_STAMP_SUB_TYPE, type EpakDetail, type PageGeometry, type Tag } from '@pakt/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { TagEditor } from './tag-editor';

// jsdom cannot draw PDFs: the pdf.js module is replaced by a document that "renders" at once.
const renderPage = vi.fn(() => ({ promise: Promise.resolve(), cancel: vi.fn() }));
vi.mock('./pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 2, renderPage, destroy: vi.fn() })),
}));

const EPAK_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const DOC_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c60';
const BLOCKS = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_ID}/signatureblocks`;
const DOWNLOAD = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_ID}/download`;
const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };
const TURNED: PageGeometry = { ...A4, rotate: 90 };

const recipient = (n: number, email: string) => ({
  recipientId: `7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c0${n}`,
  userId: `7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d0${n}`,
  email,
  firstName: email.split('@')[0]!,
  lastName: 'Shah',
  type: 'external' as const,
  status: 'Pending' as const,
});

const epak: EpakDetail = {
  ePakId: EPAK_ID,
  subject: 'Lease',
  message: null,
  status: 'Draft',
  signingPolicy: 'QUICKSIGN',
  workflowId: null,
  documents: [{ documentId: DOC_ID, sourceDocumentId: null, name: 'lease.pdf', pageCount: 2, pages: [A4, TURNED], revisions: 0, signatureState: null }],
  steps: [
    { order: 1, workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000001', name: 'Review', type: 'REVIEW', recipients: [recipient(1, 'lawyer@example.com')] },
    {
      order: 2,
      workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000002',
      name: 'Sign',
      type: 'SIGN',
      recipients: [recipient(2, 'buyer@example.com'), recipient(3, 'seller@example.com')],
    },
  ],
  signerCount: 2,
  currentStep: null,
  expiresOn: null,
  notificationStartDate: null,
  viewEnforced: false,
  ownerId: adminUser.id,
  createdOn: '2025-03-05T10:00:00.000Z',
  modifiedOn: '2025-03-05T10:00:00.000Z',
  ownerName: 'Asha Rao',
};

const buyer = { userEmail: 'buyer@example.com', userUuid: recipient(2, '').userId, wfsOrderId: 2 };
const existing = (over: Partial<Tag> = {}): Tag => ({
  ...newTag({ uuid: '00000000-0000-4000-8000-000000000001', type: 'signature', pageNumber: 1, positionX: 50, positionY: 60, ...buyer }),
  createType: 'existing',
  ...over,
});

const ok = (data: unknown) => jsonResponse({ code: 1, data });

function stubEditor(tags: Tag[], routes: Record<string, FakeRoute> = {}) {
  return stubApi({
    [`GET ${BLOCKS}`]: () => ok({ tags }),
    [`PUT ${BLOCKS}`]: ({ body }) => ok(body),
    [`GET ${DOWNLOAD}`]: () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } }),
    ...routes,
  });
}

async function openEditor(shown: EpakDetail = epak, onUnsavedChange?: (unsaved: boolean) => void) {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <TagEditor epak={shown} {...(onUnsavedChange ? { onUnsavedChange } : {})} />
    </AppProviders>,
  );
  await screen.findByRole('region', { name: 'Pages of lease.pdf' });
  return rendered;
}

const pageElement = (n: number) => screen.getAllByTestId('tag-editor-page')[n - 1]!;
const boxes = () => screen.queryAllByTestId('tag-box');
const box = (uuid: string) => boxes().find((element) => element.getAttribute('data-tag-uuid') === uuid)!;
const palette = () => screen.getByRole('group', { name: en.tagEditor.palette.heading });
const at = (element: HTMLElement) => ({ left: element.style.left, top: element.style.top, width: element.style.width, height: element.style.height });

describe('tag editor', () => {
  beforeEach(() => renderPage.mockClear());
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('offers all 23 field types in the palette, and a page placeholder per page', async () => {
    stubEditor([]);
    await openEditor();
    expect(within(palette()).getAllByRole('button')).toHaveLength(23);
    expect(within(palette()).getByRole('button', { name: en.tagEditor.types.qrcode })).toBeTruthy();
    expect(screen.getAllByTestId('tag-editor-page')).toHaveLength(2);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    // At zoom 1 a page turned a quarter shows 842 wide.
    expect(pageElement(2).style.width).toBe('842px');
    await waitFor(() => expect(renderPage).toHaveBeenCalled());
  });

  it('reminds, without refusing, that ESIGNATURE will want a reason field beside each signature', async () => {
    stubEditor([existing()]);
    await openEditor({ ...epak, signingPolicy: 'ESIGNATURE' });
    const reminder = await screen.findByRole('status', { name: en.tagEditor.reasonsNeeded.title });
    expect(reminder.textContent).toContain('buyer Shah');
    expect(screen.queryByText(en.reasonTagNotSelected)).toBeNull();
    fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types.reason }));
    fireEvent.click(pageElement(1), { clientX: 300, clientY: 400 });
    await waitFor(() => expect(screen.queryByRole('status', { name: en.tagEditor.reasonsNeeded.title })).toBeNull());
  });

  it('tells its host when it holds unsaved fields, and when they are saved', async () => {
    stubEditor([]);
    const seen: boolean[] = [];
    await openEditor(epak, (unsaved) => seen.push(unsaved));
    fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types.text }));
    fireEvent.click(pageElement(1), { clientX: 100, clientY: 100 });
    await waitFor(() => expect(seen.at(-1)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    await waitFor(() => expect(seen.at(-1)).toBe(false));
  });

  it('draws only the pages near the visible part of a 500-page document, and releases the others', async () => {
    // jsdom has no layout: the observer is driven by hand, as the browser would on scrolling.
    let report: ((entries: { target: Element; isIntersecting: boolean }[]) => void) | null = null;
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
          report = callback;
        }
        observe(element: Element) {
          observed.push(element);
        }
        disconnect() {}
      },
    );
    const pages = Array.from({ length: 500 }, () => A4);
    stubEditor([]);
    await openEditor({ ...epak, documents: [{ ...epak.documents[0]!, pageCount: 500, pages }] });
    expect(screen.getAllByTestId('tag-editor-page')).toHaveLength(500);
    // The observer is attached in a passive effect, which React may run after the commit that
    // findByRole saw (under load it did): wait for it rather than race it.
    await waitFor(() => expect(observed).toHaveLength(500));
    await waitFor(() => expect(renderPage).toHaveBeenCalled());
    const drawn = () => new Set(renderPage.mock.calls.map((call) => (call as unknown[])[0]));
    // At first only the opening pages are drawn.
    expect([...drawn()].every((page) => (page as number) <= 2)).toBe(true);

    renderPage.mockClear();
    const at = (n: number) => observed.find((element) => (element as HTMLElement).dataset['pageNumber'] === String(n))!;
    act(() => report!([
      { target: at(1), isIntersecting: false },
      { target: at(2), isIntersecting: false },
      { target: at(250), isIntersecting: true },
      { target: at(251), isIntersecting: true },
    ]));
    await waitFor(() => expect(drawn()).toEqual(new Set([250, 251])));
    expect(pageElement(1).querySelector('canvas')).toBeNull();
    expect(pageElement(250).querySelector('canvas')).not.toBeNull();
    expect(document.querySelectorAll('canvas')).toHaveLength(2);
  });

  it('shows an uploaded image in its box, and nothing that is not a plain PNG or JPEG', async () => {
    const picture = 'data:image/png;base64,iVBORw0KGgo=';
    const image = existing({ uuid: '00000000-0000-4000-8000-000000000002', type: 'image', blockWidth: 100, blockHeight: 100, value: picture });
    const crafted = existing({ uuid: '00000000-0000-4000-8000-000000000003', type: 'letterHead', positionY: 400, blockWidth: 540, blockHeight: 90, value: 'data:image/png;base64,x"), url(https://evil.test/a' });
    stubEditor([image, crafted]);
    await openEditor();
    await waitFor(() => expect(boxes()).toHaveLength(2));
    expect(box(image.uuid).style.background).toContain(picture);
    expect(box(crafted.uuid).style.background).not.toContain('evil');
  });

  it('places an armed field where the page is clicked, for the chosen signer, and saves it', async () => {
    const { requestsTo } = stubEditor([]);
    await openEditor();
    fireEvent.change(screen.getByLabelText(en.tagEditor.for), { target: { value: '2|seller@example.com' } });
    fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types.calendar }));
    expect(screen.getByText(en.tagEditor.palette.armed.replace('{{type}}', en.tagEditor.types.calendar))).toBeTruthy();
    fireEvent.click(pageElement(1), { clientX: 100, clientY: 200 });

    const placed = await screen.findByRole('button', { name: 'Date field for seller Shah, page 1' });
    expect(at(placed)).toEqual({ left: '100px', top: '200px', width: '100px', height: '20px' });
    expect(placed.getAttribute('data-colour')).toBe('selected');
    expect(screen.queryByText(en.tagEditor.palette.armed.replace('{{type}}', en.tagEditor.types.calendar))).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    expect(await screen.findByText(en.tagEditor.saved)).toBeTruthy();
    const sent = (requestsTo('PUT', BLOCKS)[0]!.body as { tags: Tag[] }).tags;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'calendar', pageNumber: 1, positionX: 100, positionY: 200, userEmail: 'seller@example.com', wfsOrderId: 2, createType: 'new' });
  });

  it('places a rubber-stamp field while the tenant has rubber stamps on, with nothing to upload into it', async () => {
    const { requestsTo } = stubEditor([], {
      'GET /msbapi/v1/accessibilities': () => ok({ role: 'admin', settings: resolvePermissionSettings({ rubberStampEnabled: true }), routes: [], menu: [] }),
    });
    await openEditor();
    fireEvent.change(screen.getByLabelText(en.tagEditor.for), { target: { value: '2|seller@example.com' } });
    const stampName = en.rubberStamps.chooser.stampTag;
    fireEvent.click(await screen.findByRole('button', { name: stampName }));
    expect(screen.getByText(en.tagEditor.palette.armed.replace('{{type}}', stampName))).toBeTruthy();
    fireEvent.click(pageElement(1), { clientX: 100, clientY: 200 });
    const placed = await screen.findByRole('button', { name: `${stampName} field for seller Shah, page 1` });
    expect(at(placed)).toEqual({ left: '100px', top: '200px', width: '120px', height: '120px' });
    expect(screen.queryByRole('button', { name: en.tagPanel.upload.choose })).toBeNull();
    expect(screen.queryByLabelText(en.tagPanel.maxUpload)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    expect(await screen.findByText(en.tagEditor.saved)).toBeTruthy();
    expect((requestsTo('PUT', BLOCKS)[0]!.body as { tags: Tag[] }).tags[0]).toMatchObject({ type: 'image', subType: RUBBER_STAMP_SUB_TYPE, userEmail: 'seller@example.com' });
  });

  it('offers no rubber-stamp field while rubber stamps are off', async () => {
    stubEditor([]);
    await openEditor();
    expect(screen.queryByRole('button', { name: en.rubberStamps.chooser.stampTag })).toBeNull();
  });

  it('places on a turned page so the box shows its top-left corner at the click', async () => {
    const { requestsTo } = stubEditor([]);
    await openEditor();
    fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types.signature }));
    fireEvent.click(pageElement(2), { clientX: 300, clientY: 100 });
    const placed = await screen.findByRole('button', { name: 'Signature field for buyer Shah, page 2' });
    // A signature shows 150 wide and 50 high on any page, turned or not.
    expect(at(placed)).toEqual({ left: '300px', top: '100px', width: '150px', height: '50px' });
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    await screen.findByText(en.tagEditor.saved);
    // Page frame at 90°: x = shown y, y = H − shown x − shown width, and the sides swap.
    expect((requestsTo('PUT', BLOCKS)[0]!.body as { tags: Tag[] }).tags[0]).toMatchObject({
      pageNumber: 2,
      positionX: 100,
      positionY: 842 - 300 - 150,
      blockWidth: 50,
      blockHeight: 150,
    });
  });

  it('places a field dragged from the palette where it is dropped', async () => {
    stubEditor([]);
    await openEditor();
    const data = new Map<string, string>();
    const dataTransfer = {
      get types() {
        return [...data.keys()];
      },
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: 'none',
      dropEffect: 'none',
    };
    fireEvent.dragStart(within(palette()).getByRole('button', { name: en.tagEditor.types.text }), { dataTransfer });
    fireEvent.dragOver(pageElement(1), { dataTransfer });
    // jsdom has no DragEvent: its stand-in drops the coordinates, so they are put on by hand.
    const drop = createEvent.drop(pageElement(1), { dataTransfer });
    Object.defineProperties(drop, { clientX: { value: 40 }, clientY: { value: 30 } });
    fireEvent(pageElement(1), drop);
    const placed = await screen.findByRole('button', { name: 'Text field for buyer Shah, page 1' });
    expect(at(placed)).toMatchObject({ left: '40px', top: '30px' });
  });

  it('disarms on Escape', async () => {
    stubEditor([]);
    await openEditor();
    fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types.text }));
    fireEvent.keyDown(window, { key: 'Escape' });
    fireEvent.click(pageElement(1), { clientX: 40, clientY: 30 });
    expect(boxes()).toHaveLength(0);
  });

  it('nudges the selected field with the arrow keys, 10 points with Shift', async () => {
    const tag = existing();
    stubEditor([tag]);
    await openEditor();
    const element = await waitFor(() => box(tag.uuid));
    expect(element.getAttribute('aria-label')).toBe('Signature field for buyer Shah, page 1');
    fireEvent.pointerDown(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.pointerUp(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.keyDown(box(tag.uuid), { key: 'ArrowRight' });
    fireEvent.keyDown(box(tag.uuid), { key: 'ArrowDown', shiftKey: true });
    expect(at(box(tag.uuid))).toMatchObject({ left: '51px', top: '70px' });
    expect(screen.getByText(en.tagEditor.unsaved)).toBeTruthy();
  });

  it('shows the properties of the field clicked, and applies their changes to the box', async () => {
    const tag = existing();
    stubEditor([tag]);
    await openEditor();
    const element = await waitFor(() => box(tag.uuid));
    expect(screen.getByRole('tab', { name: en.tagEditor.propertiesTab }).getAttribute('aria-selected')).toBe('false');
    fireEvent.pointerDown(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.pointerUp(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    expect(screen.getByRole('tab', { name: en.tagEditor.propertiesTab }).getAttribute('aria-selected')).toBe('true');
    const width = screen.getByLabelText(en.tagPanel.width);
    fireEvent.change(width, { target: { value: '200' } });
    fireEvent.blur(width);
    await waitFor(() => expect(at(box(tag.uuid)).width).toBe('200px'));
    fireEvent.click(screen.getByRole('button', { name: en.tagPanel.delete }));
    expect(boxes()).toHaveLength(0);
  });

  it('refuses a move off the page, leaves the field where it was and says why', async () => {
    const tag = existing({ positionX: 595 - 150 });
    stubEditor([tag]);
    await openEditor();
    const element = await waitFor(() => box(tag.uuid));
    fireEvent.keyDown(element, { key: 'ArrowRight' });
    expect((await screen.findByRole('alert')).textContent).toContain('The field must lie fully inside page 1.');
    expect(at(box(tag.uuid)).left).toBe('445px');
    expect(screen.queryByText(en.tagEditor.unsaved)).toBeNull();
  });

  it('drags a field onto another page, turned, keeping its shown top-left corner where it was dropped', async () => {
    const tag = existing();
    const { requestsTo } = stubEditor([tag]);
    await openEditor();
    await waitFor(() => box(tag.uuid));
    // Lay the pages out as a browser would: page 1 at the top, page 2 (842 x 595 shown) below it.
    const pageTop = { '1': 0, '2': 900 } as Record<string, number>;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const page = this.dataset['pageNumber'];
      if (page) return new DOMRect(0, pageTop[page]!, page === '1' ? 595 : 842, page === '1' ? 842 : 595);
      const host = this.closest<HTMLElement>('[data-page-number]');
      const top = host ? pageTop[host.dataset['pageNumber']!]! : 0;
      return new DOMRect(parseFloat(this.style.left) || 0, top + (parseFloat(this.style.top) || 0), parseFloat(this.style.width) || 0, parseFloat(this.style.height) || 0);
    });
    const element = box(tag.uuid);
    fireEvent.pointerDown(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.pointerMove(element, { pointerId: 1, clientX: 120, clientY: 500 });
    fireEvent.pointerMove(element, { pointerId: 1, clientX: 160, clientY: 1000 });
    fireEvent.pointerUp(element, { pointerId: 1, clientX: 160, clientY: 1000 });

    const moved = await screen.findByRole('button', { name: 'Signature field for buyer Shah, page 2' });
    // It keeps showing 150 x 50 on the turned page.
    expect(at(moved)).toEqual({ left: '150px', top: '90px', width: '150px', height: '50px' });
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    await screen.findByText(en.tagEditor.saved);
    expect((requestsTo('PUT', BLOCKS)[0]!.body as { tags: Tag[] }).tags[0]).toMatchObject({
      pageNumber: 2,
      positionX: 90,
      positionY: 842 - 150 - 150,
      blockWidth: 50,
      blockHeight: 150,
    });
  });

  it('rolls back a resize past the limits and shows them', async () => {
    const tag = existing();
    stubEditor([tag]);
    await openEditor();
    const handle = (await waitFor(() => box(tag.uuid))).querySelector('[data-resize-handle]')!;
    fireEvent.pointerDown(handle, { button: 0, pointerId: 1, clientX: 200, clientY: 110 });
    fireEvent.pointerMove(handle, { pointerId: 1, clientX: 100, clientY: 110 });
    fireEvent.pointerUp(handle, { pointerId: 1, clientX: 100, clientY: 110 });
    expect((await screen.findByRole('alert')).textContent).toContain('The field must be between 60 × 20 and 400 × 200 points');
    expect(at(box(tag.uuid))).toMatchObject({ width: '150px', height: '50px' });
  });

  it('copies and pastes a field at +10/+8, deletes it, and undoes the delete', async () => {
    const tag = existing();
    stubEditor([tag]);
    await openEditor();
    const element = await waitFor(() => box(tag.uuid));
    fireEvent.pointerDown(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.pointerUp(element, { button: 0, pointerId: 1, clientX: 60, clientY: 70 });
    fireEvent.keyDown(element, { key: 'c', ctrlKey: true });
    fireEvent.keyDown(element, { key: 'v', ctrlKey: true });
    await waitFor(() => expect(boxes()).toHaveLength(2));
    const copy = boxes().find((candidate) => candidate.getAttribute('data-tag-uuid') !== tag.uuid)!;
    expect(at(copy)).toMatchObject({ left: '60px', top: '68px' });

    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.delete }));
    expect(boxes()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.undo }));
    expect(boxes()).toHaveLength(2);
  });

  it('shows the problems the server finds on save at the fields (-49)', async () => {
    const tag = existing();
    stubEditor([tag], {
      [`PUT ${BLOCKS}`]: () =>
        jsonResponse({ code: -49, message: 'ESIGNATURE reason tag not selected', data: { problems: [{ tagUuid: tag.uuid, messageKey: 'reasonTagNotSelected' }] } }, 422),
    });
    await openEditor();
    const element = await waitFor(() => box(tag.uuid));
    fireEvent.keyDown(element, { key: 'ArrowRight' });
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    expect((await screen.findByRole('alert')).textContent).toContain(en.tagEditor.serverRefused.replace('{{name}}', 'lease.pdf'));
    expect(screen.getByText(new RegExp(en.reasonTagNotSelected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))).toBeTruthy();
    fireEvent.click(pageElement(1), { clientX: 500, clientY: 800 });
    expect(box(tag.uuid).getAttribute('data-colour')).toBe('invalid');
  });

  it('zooms in and out by steps within the limits, and back to actual size', async () => {
    stubEditor([]);
    await openEditor();
    const level = screen.getByTestId('zoom-level');
    expect(level.textContent).toBe('100%');
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.zoom.in }));
    expect(level.textContent).toBe('130%');
    expect(pageElement(1).style.width).toBe(`${595 * 1.3}px`);
    for (let i = 0; i < 10; i++) fireEvent.click(screen.getByRole('button', { name: en.tagEditor.zoom.in }));
    expect(level.textContent).toBe('300%');
    expect((screen.getByRole('button', { name: en.tagEditor.zoom.in }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.zoom.actual }));
    expect(level.textContent).toBe('100%');
  });
});
