import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type AnchorSuggestion, type AnchorSuggestions, type EpakDetail, newTag, type PageGeometry, type Tag } from '@pakt/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { AppProviders } from '../../app/providers';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { ANCHOR_EXAMPLE } from './anchor-suggestions';
import { TagEditor } from './tag-editor';

// jsdom cannot draw PDFs: the pdf.js module is replaced by a document that "renders" at once.
vi.mock('./pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 2, renderPage: () => ({ promise: Promise.resolve(), cancel: vi.fn() }), destroy: vi.fn() })),
}));

const EPAK_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const DOC_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c60';
const BLOCKS = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_ID}/signatureblocks`;
const ANCHORS = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_ID}/anchors`;
const DOWNLOAD = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_ID}/download`;
const A4: PageGeometry = { width: 595, height: 842, x: 0, y: 0, rotate: 0 };

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
  documents: [{ documentId: DOC_ID, sourceDocumentId: null, name: 'lease.pdf', pageCount: 2, pages: [A4, A4], revisions: 0, signatureState: null }],
  steps: [
    { order: 1, workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000001', name: 'Review', type: 'REVIEW', recipients: [recipient(1, 'lawyer@example.com')] },
    { order: 2, workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000002', name: 'Sign', type: 'SIGN', recipients: [recipient(2, 'buyer@example.com'), recipient(3, 'seller@example.com')] },
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

const seller = { userEmail: 'seller@example.com', userUuid: recipient(3, '').userId, wfsOrderId: 2 };

let next = 0;
/** A suggestion as the server answers it: a new tag of the editing model and what was found there. */
function suggestion(type: 'signature' | 'calendar', x: number, y: number, over: Partial<AnchorSuggestion> = {}, tag: Partial<Tag> = {}): AnchorSuggestion {
  next += 1;
  return {
    tag: { ...newTag({ uuid: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`, type, pageNumber: 1, positionX: x, positionY: y }), ...tag },
    source: 'signatureLine',
    kind: type === 'signature' ? 'signature' : 'date',
    confidence: type === 'signature' ? 0.95 : 0.7,
    text: type === 'signature' ? 'Signature' : 'Date',
    signerSlot: null,
    anchorBox: { x, y: y + 40, width: 150, height: 0 },
    ...over,
  };
}

const answer = (suggestions: AnchorSuggestion[], over: Partial<AnchorSuggestions> = {}): AnchorSuggestions => ({
  suggestions,
  pageCount: 2,
  pagesScanned: 2,
  truncated: null,
  unrecognised: [],
  unmatchedSlots: [],
  ...over,
});

const ok = (data: unknown) => jsonResponse({ code: 1, data });

function stubEditor(tags: Tag[], anchors: FakeRoute) {
  return stubApi({
    [`GET ${BLOCKS}`]: () => ok({ tags }),
    [`PUT ${BLOCKS}`]: ({ body }) => ok(body),
    [`POST ${ANCHORS}`]: anchors,
    [`GET ${DOWNLOAD}`]: () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } }),
  });
}

async function openEditor() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <TagEditor epak={epak} />
    </AppProviders>,
  );
  await screen.findByRole('region', { name: 'Pages of lease.pdf' });
  // The fields are loaded once the pages show.
  await waitFor(() => expect(screen.getAllByTestId('tag-editor-page')).toHaveLength(2));
}

const rows = () => screen.queryAllByTestId('anchor-suggestion');
const row = (uuid: string) => rows().find((element) => element.getAttribute('data-suggestion-uuid') === uuid)!;
const boxes = () => screen.queryAllByTestId('tag-box');
const suggestedBoxes = () => screen.queryAllByTestId('suggested-box');
const at = (element: HTMLElement) => ({ left: element.style.left, top: element.style.top, width: element.style.width, height: element.style.height });
const fill = (template: string, values: Record<string, string | number>) => template.replace(/{{(\w+)}}/g, (_, name: string) => String(values[name]));

describe('suggested fields in the tag editor', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('finds signature lines, shows each where it would go, and places an accepted one for its signer; saving sends it', async () => {
    const signature = suggestion('signature', 100, 200);
    const date = suggestion('calendar', 300, 230);
    const { requestsTo } = stubEditor([], () => ok(answer([signature, date])));
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));

    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(requestsTo('POST', ANCHORS)[0]!.body).toEqual({ find: 'signatureLines' });
    expect(screen.getByText(fill(en.tagEditor.anchors.suggested_other, { count: 2 }))).toBeTruthy();
    expect(row(signature.tag.uuid).textContent).toContain(fill(en.tagEditor.anchors.confidence, { percent: 95 }));
    // Dashed outlines on the page, where each would go; not fields yet.
    expect(suggestedBoxes().map(at)).toEqual([
      { left: '100px', top: '200px', width: '150px', height: '50px' },
      { left: '300px', top: '230px', width: '100px', height: '20px' },
    ]);
    expect(boxes()).toHaveLength(0);

    // Signature lines name nobody: they start for the signer chosen under For (the buyer), and can go to someone else.
    const dateRow = within(row(date.tag.uuid));
    const dateFor = dateRow.getByRole('combobox') as HTMLSelectElement;
    expect(dateFor.value).toBe('2|buyer@example.com');
    fireEvent.change(dateFor, { target: { value: '2|seller@example.com' } });

    fireEvent.click(within(row(signature.tag.uuid)).getByRole('button', { name: new RegExp(`^${en.tagEditor.anchors.accept}`) }));
    const placed = await screen.findByRole('button', { name: 'Signature field for buyer Shah, page 1' });
    expect(at(placed)).toEqual({ left: '100px', top: '200px', width: '150px', height: '50px' });
    expect(rows()).toHaveLength(1);
    expect(suggestedBoxes()).toHaveLength(1);

    fireEvent.click(dateRow.getByRole('button', { name: new RegExp(`^${en.tagEditor.anchors.accept}`) }));
    await screen.findByRole('button', { name: 'Date field for seller Shah, page 1' });
    expect(rows()).toHaveLength(0);
    expect(screen.getByText(en.tagEditor.anchors.allPlaced)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.save }));
    expect(await screen.findByText(en.tagEditor.saved)).toBeTruthy();
    const sent = (requestsTo('PUT', BLOCKS)[0]!.body as { tags: Tag[] }).tags;
    expect(sent.map((tag) => [tag.uuid, tag.type, tag.positionX, tag.positionY, tag.userEmail, tag.wfsOrderId, tag.createType])).toEqual([
      [signature.tag.uuid, 'signature', 100, 200, 'buyer@example.com', 2, 'new'],
      [date.tag.uuid, 'calendar', 300, 230, 'seller@example.com', 2, 'new'],
    ]);
  });

  it('accepts all at once, as one edit that one undo takes back, and dismisses', async () => {
    stubEditor([], () => ok(answer([suggestion('signature', 100, 100), suggestion('signature', 100, 300), suggestion('calendar', 100, 500)])));
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(within(rows()[2]!).getByRole('button', { name: new RegExp(`^${en.tagEditor.anchors.dismiss}`) }));
    expect(rows()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.acceptAll }));
    await waitFor(() => expect(boxes()).toHaveLength(2));
    expect(rows()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.actions.undo }));
    await waitFor(() => expect(boxes()).toHaveLength(0));

    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.dismissAll }));
    expect(rows()).toHaveLength(0);
    expect(suggestedBoxes()).toHaveLength(0);
    expect(boxes()).toHaveLength(0);
  });

  it('does not suggest again a place that already has a field', async () => {
    const existing: Tag = { ...newTag({ uuid: '00000000-0000-4000-8000-0000000000aa', type: 'signature', pageNumber: 1, positionX: 100, positionY: 200, ...seller }), createType: 'existing' };
    stubEditor([existing], () => ok(answer([suggestion('signature', 120, 210), suggestion('calendar', 100, 400)])));
    await openEditor();
    await waitFor(() => expect(boxes()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(row(rows()[0]!.getAttribute('data-suggestion-uuid')!).textContent).toContain(en.tagEditor.types.calendar);
  });

  it('places at anchors: sends the text to look for, and says what the document does not contain (-125)', async () => {
    const { requestsTo } = stubEditor([], () =>
      jsonResponse({ code: -125, data: { notFound: ['Signature:'] }, message: 'Not found in the document: "Signature:".' }, 422),
    );
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.placeAtAnchors }));
    const dialog = await screen.findByRole('dialog', { name: en.tagEditor.anchors.dialog.title });
    expect(dialog.textContent).toContain(ANCHOR_EXAMPLE);
    fireEvent.change(within(dialog).getByLabelText(en.tagEditor.anchors.dialog.text, { exact: false }), { target: { value: ' Signature: ' } });
    fireEvent.change(within(dialog).getByLabelText(en.tagEditor.anchors.dialog.placement), { target: { value: 'below' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.tagEditor.anchors.dialog.find }));

    const note = await screen.findByText(fill(en.tagEditor.anchors.notFound, { texts: '“Signature:”' }));
    expect(note).toBeTruthy();
    expect(requestsTo('POST', ANCHORS)[0]!.body).toEqual({ find: 'anchors', strings: [{ text: 'Signature:', type: 'signature', placement: 'below', signer: 1 }] });
    expect(rows()).toHaveLength(0);
  });

  it('keeps the signer an anchor names, and says which anchors it could not use', async () => {
    const forSeller = suggestion('signature', 100, 100, { source: 'anchor', confidence: 1, text: '{{signature:signer2}}', signerSlot: 2 }, seller);
    const forNobody = suggestion('signature', 100, 400, { source: 'anchor', confidence: 1, text: '{{signature:signer3}}', signerSlot: 3 });
    const { requestsTo } = stubEditor([], () => ok(answer([forSeller, forNobody], { unrecognised: ['{{stamp:signer1}}'], unmatchedSlots: [3], truncated: 'pages', pagesScanned: 1 })));
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.placeAtAnchors }));
    const dialog = await screen.findByRole('dialog', { name: en.tagEditor.anchors.dialog.title });
    fireEvent.click(within(dialog).getByRole('button', { name: en.tagEditor.anchors.dialog.find }));

    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(requestsTo('POST', ANCHORS)[0]!.body).toEqual({ find: 'anchors', strings: [] });
    expect((within(row(forSeller.tag.uuid)).getByRole('combobox') as HTMLSelectElement).value).toBe('2|seller@example.com');
    // signer3 is nobody in this workflow: its field waits for someone.
    expect((within(row(forNobody.tag.uuid)).getByRole('combobox') as HTMLSelectElement).value).toBe('');
    expect(screen.getByText(fill(en.tagEditor.anchors.unrecognised, { anchors: '{{stamp:signer1}}' }))).toBeTruthy();
    expect(screen.getByText(fill(en.tagEditor.anchors.unmatched, { slots: 'signer3' }))).toBeTruthy();
    expect(screen.getByText(fill(en.tagEditor.anchors.partly, { scanned: 1, count: 2 }))).toBeTruthy();
  });

  it('says when nothing was found, and when the search failed', async () => {
    let fail = false;
    stubEditor([], () => (fail ? errorResponse(-59, 422) : ok(answer([]))));
    await openEditor();
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));
    expect(await screen.findByText(en.tagEditor.anchors.noneLines)).toBeTruthy();
    fail = true;
    fireEvent.click(screen.getByRole('button', { name: en.tagEditor.anchors.findLines }));
    expect(await screen.findByText(en.tagEditor.anchors.failed)).toBeTruthy();
  });
});
