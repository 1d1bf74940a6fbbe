import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { DOC_A, DOC_B, epakDocument, epakOf, EPAK_ID, paths, stubCeremony, tagFor } from '../../test/ceremony-fixtures';
import { adminUser, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { wideScreen } from '../../test/inbox-fixtures';
import { renderApp } from '../../test/render-app';

/**
 * Signing on a phone and with the keyboard (issue 22): the guided bar walks the signer through
 * their fields, required ones first, in reading order; the page fits the screen's width as a
 * mode, and pinching stays within the zoom limits; every field is a button a keyboard opens.
 * The test setup's matchMedia matches nothing, which the ceremony reads as a phone.
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));
const TYPED = 'data:image/png;base64,dHlwZWQ=';
vi.mock('./signature-image', () => ({
  SIGNATURE_FONT: 'cursive',
  SIGNATURE_INK: '#000',
  renderTypedSignature: vi.fn(async () => TYPED),
  trimmedSignature: vi.fn(() => null),
}));

configure({ asyncUtilTimeout: 8000 });
const SLOW = { timeout: 60_000 };

const fill = (text: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, String(value)), text);
const tagBox = (uuid: string) => screen.getAllByTestId('signing-tag').find((element) => element.getAttribute('data-field-uuid') === uuid || element.getAttribute('data-tag-uuid') === uuid)!;
const G = en.signing.guide;
const position = () => screen.getByTestId('guided-position').textContent;
const T = en.tagEditor.types;

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
}

const scrolledTo: Element[] = [];
beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  scrolledTo.length = 0;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolledTo.push(this);
  };
});

describe('the guided mode on a phone', () => {
  it('goes through the required fields first in reading order, opening each, then on to the rest; Previous goes back', SLOW, async () => {
    // Placed out of order on purpose: the bar follows the page, not the order the tags came in.
    const signature = tagFor('signature', { required: true, positionY: 300 });
    const note = tagFor('text', { positionY: 100 });
    const title = tagFor('userTitle', { required: true, positionY: 200 });
    const initials = tagFor('userInitial', { required: true, positionY: 100 });
    const { requestsTo } = stubCeremony(epakOf({ documents: [epakDocument(DOC_A, 'lease.pdf'), epakDocument(DOC_B, 'annex.pdf')] }), { [DOC_A]: [signature, note, title], [DOC_B]: [initials] });
    await openSign();
    await waitFor(() => expect(position()).toBe(fill(G.toFill_other, { count: 3 })));
    // Reading order is also the order of the fields on the page, so Tab goes the same way.
    await waitFor(() => expect(screen.getAllByTestId('signing-tag').map((box) => box.getAttribute('data-field-uuid'))).toEqual([note.uuid, title.uuid, signature.uuid]));

    const next = () => screen.getByTestId('guided-next');
    expect(next().textContent).toBe(G.start);
    fireEvent.click(next());
    // The job title, the first required field: scrolled to and opened.
    const titleInput = await screen.findByLabelText(T.userTitle, { selector: 'input' });
    expect(position()).toBe(fill(G.positionRequired, { number: 2, count: 4, field: T.userTitle }));
    expect(scrolledTo).toContain(tagBox(title.uuid));
    fireEvent.change(titleInput, { target: { value: 'Director' } });

    // The signature opens the signature dialog.
    fireEvent.click(next());
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    expect(position()).toBe(fill(G.positionRequired, { number: 3, count: 4, field: T.signature }));
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(tagBox(signature.uuid).getAttribute('data-filled')).toBe('true'));

    // On to the other document's initials.
    fireEvent.click(next());
    const initialsDialog = await screen.findByRole('dialog', { name: en.signing.signature.initialsTitle });
    expect(position()).toBe(fill(G.positionRequired, { number: 4, count: 4, field: T.userInitial }));
    expect(screen.getByRole('tab', { name: 'annex.pdf' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(within(initialsDialog).getByRole('tab', { name: en.signing.signature.type }));
    fireEvent.click(within(initialsDialog).getByRole('button', { name: en.signing.signature.adoptInitials }));
    await waitFor(() => expect(tagBox(initials.uuid).getAttribute('data-filled')).toBe('true'));

    // Every required field filled: Finish; nothing after the last field, so Previous walks back.
    const finish = await screen.findByTestId('guided-finish');
    expect(finish.textContent).toBe(G.finish);
    expect(screen.queryByTestId('guided-next')).toBeNull();
    fireEvent.click(screen.getByTestId('guided-previous'));
    await waitFor(() => expect(position()).toBe(fill(G.positionRequired, { number: 3, count: 4, field: T.signature })));
    fireEvent.click(screen.getByTestId('guided-previous'));
    await waitFor(() => expect(position()).toBe(fill(G.positionRequired, { number: 2, count: 4, field: T.userTitle })));
    fireEvent.click(screen.getByTestId('guided-previous'));
    await waitFor(() => expect(position()).toBe(fill(G.position, { number: 1, count: 4, field: T.text })));
    expect(screen.getByTestId('guided-previous').hasAttribute('disabled')).toBe(true);
    // With nothing required left, Next walks on through the rest in order.
    fireEvent.click(screen.getByTestId('guided-next'));
    await waitFor(() => expect(position()).toBe(fill(G.positionRequired, { number: 2, count: 4, field: T.userTitle })));

    fireEvent.click(screen.getByTestId('guided-finish'));
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(1);
    expect(requestsTo('POST', paths.sign(DOC_B))).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('ceremony-announcer').textContent).toBe(fill(en.signing.announce.documentSigned, { name: 'annex.pdf', number: 2, count: 2 })));
  });

  it('is not shown for a review step', SLOW, async () => {
    stubCeremony(epakOf({}, { stepType: 'REVIEW' }), { [DOC_A]: [tagFor('userTitle', { required: true })] });
    await openSign();
    expect(screen.getByRole('button', { name: en.signing.actions.review })).toBeTruthy();
    expect(screen.queryByTestId('guided-bar')).toBeNull();
  });
});

describe('on a wide screen', () => {
  let restore: () => void = () => undefined;
  beforeEach(() => {
    restore = wideScreen();
  });
  afterEach(() => restore());

  it('offers no guided bar; its button goes to the next required field and opens it', SLOW, async () => {
    const title = tagFor('userTitle', { required: true });
    stubCeremony(epakOf(), { [DOC_A]: [title] });
    await openSign();
    expect(screen.queryByTestId('guided-bar')).toBeNull();
    fireEvent.click(await screen.findByTestId('next-field'));
    expect(await screen.findByLabelText(T.userTitle, { selector: 'input' })).toBeTruthy();
    expect(scrolledTo).toContain(tagBox(title.uuid));
    // A box of its own that scrolls, reachable by keyboard.
    expect(screen.getByTestId('tag-editor-pages').getAttribute('tabindex')).toBe('0');
  });
});

describe('fit to width and zoom on a phone', () => {
  it('fits a 360 px screen exactly with no box scrolling inside the page, and pinching stays within the limits', SLOW, async () => {
    // 360 px less the app's margins: the pages' box is 336 px wide, 320 px inside its padding.
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
      return this.getAttribute('data-testid') === 'tag-editor-pages' ? 336 : 0;
    });
    const signature = tagFor('signature', { required: true, positionX: 100, positionY: 400 });
    stubCeremony(epakOf(), { [DOC_A]: [signature] });
    await openSign();
    const area = screen.getByTestId('signing-document');
    const zoom = () => Number(area.getAttribute('data-zoom'));
    await waitFor(() => expect(zoom()).toBe(0.537));
    expect(area.getAttribute('data-fits-width')).toBe('true');
    expect(screen.getByTestId('zoom-level').textContent).toBe('54%');
    const pages = screen.getByTestId('tag-editor-pages');
    expect(pages.getAttribute('data-scrolls-with-page')).toBe('true');
    expect(pages.style.overflowY).toBe('hidden');
    expect(pages.style.height).toBe('');
    const page = screen.getByTestId('tag-editor-page');
    expect(parseFloat(page.style.width)).toBeLessThanOrEqual(320);
    // The field stays where it belongs on the page at every zoom.
    const box = () => tagBox(signature.uuid);
    expect(parseFloat(box().style.left)).toBeCloseTo(100 * 0.537, 1);

    // Below the minimum already: no zooming out; zooming in leaves the mode.
    expect(screen.getByTestId('zoom-out').hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByTestId('zoom-in'));
    await waitFor(() => expect(zoom()).toBeCloseTo(0.84, 5));
    expect(area.getAttribute('data-fits-width')).toBeNull();
    expect(parseFloat(box().style.left)).toBeCloseTo(100 * 0.84, 1);
    fireEvent.click(screen.getByTestId('zoom-fit'));
    await waitFor(() => expect(zoom()).toBe(0.537));
    expect(screen.getByTestId('zoom-fit').getAttribute('aria-pressed')).toBe('true');

    const touch = (type: string, ...points: [number, number][]) => {
      const event = new Event(type, { bubbles: true });
      Object.defineProperty(event, 'touches', { value: points.map(([clientX, clientY]) => ({ clientX, clientY })) });
      area.dispatchEvent(event);
    };
    // Fingers spread ten times as far: held to the maximum of 3.
    touch('touchstart', [100, 100], [150, 100]);
    touch('touchmove', [0, 100], [500, 100]);
    expect(area.style.transform).toMatch(/^scale\(/);
    touch('touchend');
    await waitFor(() => expect(zoom()).toBe(3));
    expect(area.style.transform).toBe('');
    expect(screen.getByTestId('zoom-in').hasAttribute('disabled')).toBe(true);
    expect(parseFloat(box().style.left)).toBeCloseTo(300, 1);
    // Pinched right in, below the minimum: back to fitting the width.
    touch('touchstart', [0, 100], [500, 100]);
    touch('touchmove', [240, 100], [260, 100]);
    touch('touchend');
    await waitFor(() => expect(zoom()).toBe(0.537));
    expect(area.getAttribute('data-fits-width')).toBe('true');
  });
});

describe('with the keyboard alone', () => {
  it('reaches each field as a named button in reading order; Enter opens a signature, Space a field, and the dialog types the signature', SLOW, async () => {
    const signature = tagFor('signature', { required: true, positionY: 300 });
    const title = tagFor('userTitle', { positionY: 200 });
    stubCeremony(epakOf(), { [DOC_A]: [signature, title] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('signing-tag');
    expect(first!.getAttribute('data-field-uuid')).toBe(title.uuid);
    expect(second!.tagName).toBe('BUTTON');
    expect(second!.getAttribute('type')).toBe('button');
    const name = second!.getAttribute('aria-label')!;
    expect(name).toContain(T.signature);
    expect(name).toContain(en.signing.tag.required);
    expect(name).toContain('1');

    // A visible focus ring while it has the focus.
    second!.focus();
    expect(document.activeElement).toBe(second);
    await waitFor(() => expect(second!.getAttribute('data-focused')).toBe('true'));

    fireEvent.keyDown(second!, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    // The ways to make it are a proper tablist: arrows move between them.
    const tablist = within(dialog).getByRole('tablist');
    expect(tablist.getAttribute('aria-label')).toBe(en.signing.signature.ways);
    const draw = within(dialog).getByRole('tab', { name: en.signing.signature.draw });
    draw.focus();
    fireEvent.keyDown(draw, { key: 'ArrowRight' });
    const typeTab = within(dialog).getByRole('tab', { name: en.signing.signature.type });
    await waitFor(() => expect(typeTab.getAttribute('aria-selected')).toBe('true'));
    expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('Asha Rao');
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(second!.getAttribute('data-filled')).toBe('true'));
    expect(screen.getByTestId('ceremony-announcer').textContent).toBe(fill(en.signing.announce.signaturePlaced_one, { count: 1 }));

    fireEvent.keyDown(first!, { key: ' ' });
    expect(await screen.findByLabelText(T.userTitle, { selector: 'input' })).toBeTruthy();
  });
});
