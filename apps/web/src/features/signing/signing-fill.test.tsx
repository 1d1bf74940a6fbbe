import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { DOC_A, DOC_B, epakDocument, epakOf, EPAK_ID, paths, stubCeremony, tagFor } from '../../test/ceremony-fixtures';
import { adminUser, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

/**
 * The signature dialog does what it says (issue 22): an adopted signature fills every signature
 * field of the signer in the ePak, dates start as today, the tenant's default reason is chosen
 * and asked once, and a signer known only by address types their name before signing.
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

// The whole app renders with its queries; on a busy machine an answer can take a few seconds.
configure({ asyncUtilTimeout: 8000 });
const SLOW = { timeout: 60_000 };

const fill = (text: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, String(value)), text);
const tagBox = (uuid: string) => screen.getAllByTestId('signing-tag').find((element) => element.getAttribute('data-tag-uuid') === uuid)!;
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });
const twoDocuments = () => ({ documents: [epakDocument(DOC_A, 'lease.pdf'), epakDocument(DOC_B, 'annex.pdf')] });

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
}

async function adoptTyped() {
  const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
  fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
  fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: en.signing.signature.title })).toBeNull());
}

describe('the adopted signature', () => {
  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });

  it('fills every signature field of the signer on every document, not initials, and asks once about the signature blocks', SLOW, async () => {
    const firstA = tagFor('signature', { required: true });
    const secondA = tagFor('signature', { required: true, pageNumber: 1, positionY: 600 });
    const initialsA = tagFor('userInitial');
    const theirs = tagFor('signature', { userEmail: 'ravi@example.com' });
    const signatureB = tagFor('signature', { required: true });
    const blockB = tagFor('composite', { positionY: 700 });
    const { requestsTo } = stubCeremony(epakOf(twoDocuments()), { [DOC_A]: [firstA, secondA, initialsA, theirs], [DOC_B]: [signatureB, blockB] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(4));

    fireEvent.click(tagBox(firstA.uuid));
    await adoptTyped();
    // The blocks are asked about once, at once: there is one on the other document.
    const offer = await screen.findByRole('dialog', { name: en.signing.autoFill.title });
    expect(within(offer).getByText(fill(en.signing.autoFill.question_one, { count: 1 }))).toBeTruthy();
    fireEvent.click(within(offer).getByRole('button', { name: en.signing.autoFill.yes }));

    await waitFor(() => expect(tagBox(secondA.uuid).getAttribute('data-filled')).toBe('true'));
    expect(tagBox(firstA.uuid).querySelector('img')?.getAttribute('src')).toBe(TYPED);
    expect(tagBox(initialsA.uuid).getAttribute('data-filled')).toBeNull();
    expect(tagBox(theirs.uuid).getAttribute('data-filled')).toBeNull();
    expect(screen.getByTestId('ceremony-announcer').textContent).toBe(fill(en.signing.announce.blocksFilled_one, { count: 1 }));

    fireEvent.click(screen.getByRole('tab', { name: 'annex.pdf' }));
    await waitFor(() => expect(tagBox(signatureB.uuid).getAttribute('data-filled')).toBe('true'));
    expect(tagBox(blockB.uuid).getAttribute('data-filled')).toBe('true');

    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    const valuesOf = (documentId: string) => (requestsTo('POST', paths.sign(documentId))[0]!.body as { values: { uuid: string; value: string }[] }).values;
    expect(valuesOf(DOC_A)).toEqual([
      { uuid: firstA.uuid, value: TYPED },
      { uuid: secondA.uuid, value: TYPED },
    ]);
    expect(valuesOf(DOC_B)).toEqual([
      { uuid: signatureB.uuid, value: TYPED },
      { uuid: blockB.uuid, value: TYPED },
    ]);
  });

  it('says how many fields the signature went into, and fills initials fields with the initials the same way', SLOW, async () => {
    const signature = tagFor('signature');
    const signatureLater = tagFor('signature', { positionY: 500 });
    const initials = tagFor('userInitial');
    const initialsLater = tagFor('userInitial', { positionY: 520 });
    stubCeremony(epakOf(), { [DOC_A]: [signature, signatureLater, initials, initialsLater] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(4));
    fireEvent.click(tagBox(signature.uuid));
    await adoptTyped();
    await waitFor(() => expect(screen.getByTestId('ceremony-announcer').textContent).toBe(fill(en.signing.announce.signaturePlaced_other, { count: 2 })));

    fireEvent.click(tagBox(initials.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.initialsTitle });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    expect((within(dialog).getByLabelText(en.signing.signature.typeInitialsLabel) as HTMLInputElement).value).toBe('AR');
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adoptInitials }));
    await waitFor(() => expect(tagBox(initialsLater.uuid).getAttribute('data-filled')).toBe('true'));
    expect(screen.getByTestId('ceremony-announcer').textContent).toBe(fill(en.signing.announce.initialsPlaced_other, { count: 2 }));
  });
});

describe('date fields', () => {
  it("start as today in the app's date format (DD MMM YYYY), are sent so, and stay the signer's to change", SLOW, async () => {
    const date = tagFor('calendar', { required: true });
    const theirs = tagFor('calendar', { userEmail: 'ravi@example.com' });
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [date, theirs] });
    const now = new Date();
    const today = `${String(now.getDate()).padStart(2, '0')} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][now.getMonth()]} ${now.getFullYear()}`;
    await openSign();
    await waitFor(() => expect(tagBox(date.uuid).textContent).toBe(today));
    expect(tagBox(theirs.uuid).textContent).not.toContain(today);
    const progress = within(screen.getByTestId('signing-progress')).getByTestId('document-progress').textContent;
    expect(progress).toBe(fill(en.signing.progress.filled, { filled: 1, total: 1 }));

    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect((requestsTo('POST', paths.sign(DOC_A))[0]!.body as { values: unknown[] }).values).toEqual([{ uuid: date.uuid, value: today }]);
  });

  it('stay as the signer sets them, cleared included', SLOW, async () => {
    const date = tagFor('calendar');
    const note = tagFor('text');
    stubCeremony(epakOf(), { [DOC_A]: [date, note] });
    await openSign();
    await waitFor(() => expect(tagBox(date.uuid).getAttribute('data-filled')).toBe('true'));
    fireEvent.click(tagBox(date.uuid));
    fireEvent.change(await screen.findByLabelText(en.tagEditor.types.calendar, { selector: 'input' }), { target: { value: '' } });
    await waitFor(() => expect(tagBox(date.uuid).getAttribute('data-filled')).toBeNull());
    // Another entry re-renders the ceremony: the date is not put back.
    fireEvent.click(tagBox(note.uuid));
    fireEvent.change(await screen.findByLabelText(en.tagEditor.types.text, { selector: 'input' }), { target: { value: 'Flat 4B' } });
    await waitFor(() => expect(tagBox(note.uuid).textContent).toBe('Flat 4B'));
    expect(tagBox(date.uuid).getAttribute('data-filled')).toBeNull();
  });
});

describe('the reason for signing', () => {
  it("starts as the tenant's default, is asked once, and goes with every document's sign request with the location", SLOW, async () => {
    const { requestsTo } = stubCeremony(epakOf(twoDocuments(), { geolocation: 'OPTIONAL' }), { [DOC_A]: [], [DOC_B]: [] });
    await openSign();
    const pickers = screen.getAllByLabelText(en.signing.reasons.label, { selector: 'select' });
    expect(pickers).toHaveLength(1);
    expect((pickers[0] as HTMLSelectElement).value).toBe('approve');
    fireEvent.change(screen.getByLabelText(new RegExp(en.signing.location.label.replace('?', '\\?')), { selector: 'input' }), { target: { value: 'Pune' } });

    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    for (const documentId of [DOC_A, DOC_B]) {
      expect(requestsTo('POST', paths.sign(documentId))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: en.signing.reasons.approve, location: 'Pune' });
    }
  });

  it('can still be left out', SLOW, async () => {
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] });
    await openSign();
    fireEvent.change(screen.getByLabelText(en.signing.reasons.label, { selector: 'select' }), { target: { value: '' } });
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [] });
  });
});

describe('a signer known only by address', () => {
  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  const nameInput = () => screen.getAllByTestId('signer-name')[0] as HTMLInputElement;

  it('cannot sign before typing their full name, which then goes with every sign request', SLOW, async () => {
    const { requestsTo } = stubCeremony(epakOf(twoDocuments(), { nameRequired: true, signerName: null }), { [DOC_A]: [], [DOC_B]: [] });
    await openSign();
    expect(nameInput().getAttribute('autocomplete')).toBe('name');
    expect(nameInput().required).toBe(true);
    expect(screen.getByLabelText(new RegExp(`^${en.signing.name.label}`), { selector: 'input' })).toBe(nameInput());

    fireEvent.click(signButton());
    expect((await screen.findAllByText(en.signing.name.required)).length).toBeGreaterThan(0);
    expect(document.activeElement).toBe(nameInput());
    expect(nameInput().getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);

    fireEvent.change(nameInput(), { target: { value: '  Nia Fernandes ' } });
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    for (const documentId of [DOC_A, DOC_B]) {
      expect(requestsTo('POST', paths.sign(documentId))[0]!.body).toMatchObject({ signerName: 'Nia Fernandes' });
    }
  });

  it('is asked for the name in the signature dialog too, whose Type tab then writes it', SLOW, async () => {
    const signature = tagFor('signature', { required: true });
    const name = tagFor('username');
    stubCeremony(epakOf({}, { nameRequired: true, signerName: null }), { [DOC_A]: [signature, name] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(2));

    // A name field has no name to show yet: the signer is pointed at the name to type.
    fireEvent.click(tagBox(name.uuid));
    expect(await screen.findByText(en.signing.name.requiredFirst)).toBeTruthy();
    expect(tagBox(name.uuid).getAttribute('data-filled')).toBeNull();

    fireEvent.click(tagBox(signature.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    const adopt = within(dialog).getByRole('button', { name: en.signing.signature.adopt });
    expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('');
    expect(adopt.hasAttribute('disabled')).toBe(true);

    fireEvent.change(within(dialog).getByTestId('signer-name'), { target: { value: 'Nia Fernandes' } });
    await waitFor(() => expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('Nia Fernandes'));
    expect(adopt.hasAttribute('disabled')).toBe(false);
    fireEvent.click(adopt);
    await waitFor(() => expect(tagBox(signature.uuid).getAttribute('data-filled')).toBe('true'));
    // The same name, in the panel and in the name field.
    expect(nameInput().value).toBe('Nia Fernandes');
    fireEvent.click(tagBox(name.uuid));
    await waitFor(() => expect(tagBox(name.uuid).textContent).toBe('Nia Fernandes'));
  });

  it('is not asked when the ePak knows their name, and sends none', SLOW, async () => {
    const signature = tagFor('signature', { required: true });
    const { requestsTo } = stubCeremony(epakOf({}, { signerName: 'Asha R. Rao' }), { [DOC_A]: [signature] });
    await openSign();
    expect(screen.queryByTestId('signer-name')).toBeNull();
    fireEvent.click(await waitFor(() => tagBox(signature.uuid)));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('Asha R. Rao');
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(tagBox(signature.uuid).getAttribute('data-filled')).toBe('true'));
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).not.toHaveProperty('signerName');
  });
});
