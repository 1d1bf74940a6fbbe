import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { DOC_A, DOC_B, DOC_C, epakDocument, epakOf, EPAK_ID, paths, stubCeremony, tagFor } from '../../test/ceremony-fixtures';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, TENANT_GLOBEX, tokenGrant } from '../../test/fake-api';
import { renderApp, typeInto } from '../../test/render-app';

// jsdom cannot draw PDFs or canvases: pdf.js "renders" at once, and the typed signature is a fixed PNG.
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

const fill = (text: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, String(value)), text);
const tagBox = (uuid: string) => screen.getAllByTestId('signing-tag').find((element) => element.getAttribute('data-tag-uuid') === uuid)!;
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  return rendered;
}

describe('/sign', () => {
  beforeEach(() => {
    // Drawing needs a canvas jsdom does not have; the dialog then offers typing and upload.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });

  it('shows the subject, sender, message and every recipient with their status', async () => {
    stubCeremony(epakOf(), { [DOC_A]: [] });
    await openSign();
    expect(screen.getByText(fill(en.signing.from, { name: 'Meera Shah' }))).toBeTruthy();
    expect(screen.getByText('Please sign by Friday.')).toBeTruthy();
    const recipients = screen.getAllByTestId('step-recipient').map((row) => row.textContent);
    expect(recipients).toEqual([`Lata Menon${en.compose.recipientStatus.Reviewed}`, `Asha Rao (you)${en.compose.recipientStatus.Pending}`, `Ravi Iyer${en.compose.recipientStatus.Pending}`]);
  });

  it("makes the signer's own fields editable and everyone else's read-only", async () => {
    const mine = tagFor('text');
    const theirs = tagFor('signature', { userEmail: 'ravi@example.com' });
    const custodians = tagFor('text', { tagFor: 'custodian' });
    const stamp = tagFor('timeStamp');
    const earlierStep = tagFor('text', { wfsOrderId: 1 });
    stubCeremony(epakOf(), { [DOC_A]: [mine, theirs, custodians, stamp, earlierStep] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(5));

    expect(tagBox(mine.uuid).tagName).toBe('BUTTON');
    for (const other of [theirs, custodians, earlierStep]) expect(tagBox(other.uuid).getAttribute('role')).toBe('note');
    expect(tagBox(theirs.uuid).getAttribute('aria-label')).toContain('Ravi Iyer');
    // spec §6: time stamps are always read-only; the server sets them.
    expect(tagBox(stamp.uuid).getAttribute('role')).toBe('note');
    expect(tagBox(stamp.uuid).textContent).toBe(en.signing.tag.setWhenSigned);

    fireEvent.click(tagBox(mine.uuid));
    const input = await screen.findByLabelText(en.tagEditor.types.text, { selector: 'input' });
    fireEvent.change(input, { target: { value: 'Flat 4B' } });
    fireEvent.click(screen.getByRole('button', { name: en.signing.fields.done }));
    await waitFor(() => expect(tagBox(mine.uuid).textContent).toBe('Flat 4B'));
  });

  it('applies the signature on click: made once in the dialog, then reused for the next field', async () => {
    const first = tagFor('signature', { required: true });
    const second = tagFor('signature', { required: true });
    const name = tagFor('username');
    stubCeremony(epakOf(), { [DOC_A]: [first, second, name] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(3));
    expect(tagBox(first.uuid).textContent).toContain(en.signing.tag.clickToSign);

    fireEvent.click(tagBox(first.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('Asha Rao');
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(tagBox(first.uuid).querySelector('img')?.getAttribute('src')).toBe(TYPED));
    expect(screen.queryByRole('dialog', { name: en.signing.signature.title })).toBeNull();

    // The second signature field takes the same signature at a click, without asking again.
    fireEvent.click(tagBox(second.uuid));
    await waitFor(() => expect(tagBox(second.uuid).querySelector('img')?.getAttribute('src')).toBe(TYPED));
    expect(screen.queryByRole('dialog', { name: en.signing.signature.title })).toBeNull();

    // A name field takes the full name.
    fireEvent.click(tagBox(name.uuid));
    await waitFor(() => expect(tagBox(name.uuid).textContent).toBe('Asha Rao'));
  });

  it('offers to fill the other signature blocks once one is complete; declining turns auto-fill off', async () => {
    const blocks = [tagFor('composite'), tagFor('composite', { positionY: 300 }), tagFor('composite', { positionY: 500 })];
    stubCeremony(epakOf(), { [DOC_A]: blocks });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(3));
    const toggle = () => screen.getByRole('switch', { name: new RegExp(en.signing.autoFill.toggle) }) as HTMLInputElement;
    expect(toggle().checked).toBe(true);

    fireEvent.click(tagBox(blocks[0]!.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    const offer = await screen.findByRole('dialog', { name: en.signing.autoFill.title });
    expect(within(offer).getByText(fill(en.signing.autoFill.question_other, { count: 2 }))).toBeTruthy();
    fireEvent.click(within(offer).getByRole('button', { name: en.signing.autoFill.no }));
    await waitFor(() => expect(toggle().checked).toBe(false));
    expect(tagBox(blocks[1]!.uuid).getAttribute('data-filled')).toBeNull();

    // With the toggle off, completing another block asks nothing.
    fireEvent.click(tagBox(blocks[1]!.uuid));
    await waitFor(() => expect(tagBox(blocks[1]!.uuid).getAttribute('data-filled')).toBe('true'));
    expect(screen.queryByRole('dialog', { name: en.signing.autoFill.title })).toBeNull();
  });

  it('fills the remaining signature blocks when the signer accepts', async () => {
    const blocks = [tagFor('composite'), tagFor('composite', { positionY: 300 }), tagFor('composite', { positionY: 500 })];
    stubCeremony(epakOf(), { [DOC_A]: blocks });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(3));
    fireEvent.click(tagBox(blocks[0]!.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: en.signing.autoFill.title })).getByRole('button', { name: en.signing.autoFill.yes }));
    await waitFor(() => expect(blocks.map((block) => tagBox(block.uuid).getAttribute('data-filled'))).toEqual(['true', 'true', 'true']));
  });

  it('uploads the file of an attachment field at once, and shows its name', async () => {
    const attachment = tagFor('attachment', { required: true });
    const attach = `/msbapi/v2/epak/${EPAK_ID}/document/${DOC_A}/tag/${attachment.uuid}/attach`;
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [attachment] }, {
      [`POST ${attach}`]: () =>
        new Response(
          JSON.stringify({ code: 1, data: { attachmentId: '0f0e0d0c-0b0a-4909-8807-060504030201', name: 'payslip.pdf', size: 4, documentId: DOC_A, tagUuid: attachment.uuid, uploadedBy: null, createdOn: '2025-03-05T10:00:00.000Z' } }),
          { headers: { 'Content-Type': 'application/json' } },
        ),
    });
    await openSign();
    await waitFor(() => expect(tagBox(attachment.uuid).textContent).toContain(en.signing.tag.clickToAttach));
    fireEvent.click(tagBox(attachment.uuid));
    await screen.findByRole('button', { name: en.signing.fields.chooseFile });
    // Mantine's FileButton picks through a hidden file input beside the button.
    const picker = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(picker, { target: { files: [new File(['%PDF'], 'payslip.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(tagBox(attachment.uuid).textContent).toBe('payslip.pdf'));
    expect((requestsTo('POST', attach)[0]!.body as Record<string, unknown>)['file']).toBeInstanceOf(File);

    // A file of another kind is refused before anything is sent.
    fireEvent.change(picker, { target: { files: [new File(['x'], 'notes.exe')] } });
    expect(await screen.findByText(new RegExp(en.signing.fields.attachmentWrongType.split('{{')[0]!))).toBeTruthy();
    expect(requestsTo('POST', attach)).toHaveLength(1);
  });

  it('keeps a field’s editor open while it is used: a multiple choice takes several clicks', async () => {
    const choice = tagFor('multiSelect', { dataSource: JSON.stringify(['Parking', 'Storage', 'Garden']) });
    stubCeremony(epakOf(), { [DOC_A]: [choice] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(1));
    fireEvent.click(tagBox(choice.uuid));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Parking' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Garden' }));
    await waitFor(() => expect(tagBox(choice.uuid).textContent).toBe('Parking, Garden'));
    expect(screen.getByRole('checkbox', { name: 'Storage' })).toBeTruthy();
  });

  it('counts the required fields filled, per document', async () => {
    const signature = tagFor('signature', { required: true });
    const title = tagFor('userTitle', { required: true });
    const optional = tagFor('text');
    stubCeremony(epakOf(), { [DOC_A]: [signature, title, optional] });
    await openSign();
    const progress = () => within(screen.getByTestId('signing-progress')).getByTestId('document-progress').textContent;
    await waitFor(() => expect(progress()).toBe(fill(en.signing.progress.filled, { filled: 0, total: 2 })));

    fireEvent.click(tagBox(title.uuid));
    fireEvent.change(await screen.findByLabelText(en.tagEditor.types.userTitle, { selector: 'input' }), { target: { value: 'Director' } });
    await waitFor(() => expect(progress()).toBe(fill(en.signing.progress.filled, { filled: 1, total: 2 })));
  });

  it('refuses to sign with a required field empty, and highlights it', async () => {
    const title = tagFor('userTitle', { required: true });
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [title] });
    await openSign();
    await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(signButton());
    expect(await screen.findByText(fill(en.signing.errors.fillRequired_one, { count: 1 }))).toBeTruthy();
    expect(tagBox(title.uuid).getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);
  });

  it('keeps the actions disabled, saying why, until every document has been opened', async () => {
    const epak = epakOf({ viewEnforced: true, documents: [epakDocument(DOC_A, 'lease.pdf'), epakDocument(DOC_B, 'annex.pdf')] }, { isRead: false, eligibleForAction: false });
    const { requestsTo } = stubCeremony(epak, { [DOC_A]: [], [DOC_B]: [] });
    await openSign();
    expect(screen.getByTestId('view-enforcement').textContent).toBe(fill(en.signing.viewEnforced, { opened: 0, count: 2 }));
    expect(signButton().hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: en.signing.actions.reject }).hasAttribute('disabled')).toBe(true);

    // Shown, the first document is reported viewed; the second still waits.
    await waitFor(() => expect(requestsTo('PUT', paths.view(DOC_A))).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('view-enforcement').textContent).toBe(fill(en.signing.viewEnforced, { opened: 1, count: 2 })));
    expect(signButton().hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('tab', { name: 'annex.pdf' }));
    await waitFor(() => expect(requestsTo('PUT', paths.view(DOC_B))).toHaveLength(1));
    await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
    expect(screen.queryByTestId('view-enforcement')).toBeNull();
  });

  it('signs every document not yet signed, in order, with its values and the reason, then says so', async () => {
    const signatureA = tagFor('signature', { required: true });
    const signatureC = tagFor('signature', { required: true });
    const epak = epakOf({ documents: [epakDocument(DOC_A, 'lease.pdf'), epakDocument(DOC_B, 'annex.pdf'), epakDocument(DOC_C, 'schedule.pdf')] }, { signedDocumentIds: [DOC_B] });
    const { requestsTo, fetchMock } = stubCeremony(epak, { [DOC_A]: [signatureA], [DOC_B]: [], [DOC_C]: [signatureC] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(1));

    fireEvent.click(tagBox(signatureA.uuid));
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(tagBox(signatureA.uuid).getAttribute('data-filled')).toBe('true'));
    fireEvent.click(screen.getByRole('tab', { name: 'schedule.pdf' }));
    await waitFor(() => expect(tagBox(signatureC.uuid)).toBeTruthy());
    fireEvent.click(tagBox(signatureC.uuid));
    await waitFor(() => expect(tagBox(signatureC.uuid).getAttribute('data-filled')).toBe('true'));

    fireEvent.change(screen.getByLabelText(en.signing.reasons.label, { selector: 'select' }), { target: { value: 'approve' } });
    fireEvent.click(signButton());

    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    const signs = fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`).filter((call) => call.endsWith('/sign'));
    expect(signs).toEqual([`POST ${paths.sign(DOC_A)}`, `POST ${paths.sign(DOC_C)}`]);
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [{ uuid: signatureA.uuid, value: TYPED }], reason: en.signing.reasons.approve });
    expect(requestsTo('POST', paths.sign(DOC_C))[0]!.body).toEqual({ action: 'SIGN', values: [{ uuid: signatureC.uuid, value: TYPED }], reason: en.signing.reasons.approve });
    expect(requestsTo('POST', paths.sign(DOC_B))).toHaveLength(0);
    // Where everyone stands now: the buttons are gone with nothing left to do.
    await waitFor(() => expect(screen.queryByRole('button', { name: en.signing.actions.sign })).toBeNull());
    expect(screen.getByTestId('epak-status').textContent).toBe(en.compose.status.Completed);
  });

  it('says the next person has been notified when the step moves on', async () => {
    const { state } = stubCeremony(epakOf(), { [DOC_A]: [] }, {
      [`POST ${paths.sign(DOC_A)}`]: () => {
        state.epak = { ...state.epak, currentStep: 3, viewer: { ...state.epak.viewer!, canAct: false, status: 'Signed', signedDocumentIds: [DOC_A] } };
        return new Response(JSON.stringify({ code: 1, data: { ePakId: EPAK_ID, documentId: DOC_A, documentStatus: 'Signed', signerStatus: 'Signed', epakStatus: 'InProgress', remainingDocumentIds: [], revision: 2 } }), { headers: { 'Content-Type': 'application/json' } });
      },
    });
    await openSign();
    await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedNext)).toBeTruthy();
  });

  it('highlights the fields a refusal (-6) names, with its message', async () => {
    const title = tagFor('userTitle');
    stubCeremony(epakOf(), { [DOC_A]: [title] }, {
      [`POST ${paths.sign(DOC_A)}`]: () =>
        // As the server words it: one issue per field, its path naming the tag.
        new Response(JSON.stringify({ code: -6, data: null, message: 'Fill in every required field of yours before signing.', issues: [{ path: `values.${title.uuid}`, message: 'required' }] }), {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    await openSign();
    await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.errors.requiredMissing)).toBeTruthy();
    expect(tagBox(title.uuid).getAttribute('aria-invalid')).toBe('true');
  });

  it('marks a review step reviewed', async () => {
    const { requestsTo } = stubCeremony(epakOf({}, { stepType: 'REVIEW' }), { [DOC_A]: [] });
    await openSign();
    expect(screen.queryByRole('button', { name: en.signing.actions.sign })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.signing.actions.review }));
    expect(await screen.findByText(en.signing.outcome.reviewedNext)).toBeTruthy();
    expect(requestsTo('POST', paths.status)[0]!.body).toEqual({ ePakId: EPAK_ID, status: 'Reviewed' });
  });

  it('rejects only with a comment, after confirming', async () => {
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] });
    await openSign();
    fireEvent.click(screen.getByRole('button', { name: en.signing.actions.reject }));
    const dialog = await screen.findByRole('dialog', { name: en.signing.reject.title });
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.reject.confirm }));
    expect(await within(dialog).findByText(en.signing.reject.commentRequired)).toBeTruthy();
    expect(requestsTo('POST', paths.reject)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(new RegExp(en.signing.reject.comment.replace('?', '\\?'))), { target: { value: 'Wrong rent amount' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.reject.confirm }));
    expect(await screen.findByText(en.signing.outcome.rejected)).toBeTruthy();
    expect(requestsTo('POST', paths.reject)[0]!.body).toEqual({ comment: 'Wrong rent amount' });
  });

  it('says why nothing can be done when it is not the signer’s turn, with no buttons', async () => {
    stubCeremony(epakOf({ currentStep: 1 }, { canAct: false }), { [DOC_A]: [] });
    await openSign();
    expect(screen.getByTestId('why-not').textContent).toBe(en.signing.whyNot.notYourTurn);
    expect(screen.queryByRole('button', { name: en.signing.actions.sign })).toBeNull();
    expect(screen.queryByRole('button', { name: en.signing.actions.reject })).toBeNull();
  });

  it('says so when the signer has signed already, or the ePak is completed or rejected', async () => {
    const { state } = stubCeremony(epakOf({}, { canAct: false, status: 'Signed' }), { [DOC_A]: [] });
    const first = await openSign();
    expect(screen.getByTestId('why-not').textContent).toBe(en.signing.whyNot.signed);
    first.unmount();
    state.epak = epakOf({ status: 'Rejected' }, { canAct: false });
    await openSign();
    expect(screen.getByTestId('why-not').textContent).toBe(en.signing.whyNot.rejected);
  });

  it('downloads the ePak with the session, named after its subject: a zip once it has ended', async () => {
    const download = `/msbapi/v2/epaks/${EPAK_ID}/download`;
    const { requestsTo } = stubCeremony(epakOf({ status: 'Completed', currentStep: null }, { canAct: false, status: 'Signed' }), { [DOC_A]: [] }, {
      [`GET ${download}`]: () => new Response(new Uint8Array([0x50, 0x4b, 0x05, 0x06]), { headers: { 'Content-Type': 'application/zip' } }),
    });
    const saved: { name: string; href: string }[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:epak');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    await openSign();
    fireEvent.click(screen.getByRole('button', { name: en.signing.download.button }));
    await waitFor(() => expect(saved).toEqual([{ name: 'Office lease.zip', href: 'blob:epak' }]));
    expect(requestsTo('GET', download)[0]!.headers.get('Authorization')).toBe('Bearer access-1');
    expect(screen.getByText(en.signing.download.hintEnded)).toBeTruthy();
  });

  it('says an ePak it cannot see does not exist', async () => {
    stubCeremony(epakOf(), {}, { [`GET ${paths.epak}`]: () => errorResponse(-1, 404, 'No such ePak.') });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}`);
    expect(await screen.findByText(en.signing.notFound.body)).toBeTruthy();
  });

  it('sends a visitor without a session to sign in, and back to the same address afterwards', async () => {
    const address = `/sign?ePakId=${EPAK_ID}&tenant=${TENANT_ACME}`;
    stubCeremony(epakOf(), { [DOC_A]: [] }, { 'POST /msbapi/v1/authenticate': () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { router } = renderApp(address);
    expect(await screen.findByRole('heading', { level: 1, name: en.login.title })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('returnTo')).toBe(address);
    expect(screen.getByText(en.login.returnTo)).toBeTruthy();

    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Office lease' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(address);
  });

  it('comes back through the two-factor step too', async () => {
    const address = `/sign?ePakId=${EPAK_ID}`;
    const challenge = { otpId: '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6', method: 'totp', maskedEmail: 'as***@ex***.com', maskedPhone: null, expiresIn: 300 };
    stubCeremony(epakOf(), { [DOC_A]: [] }, {
      'POST /msbapi/v1/authenticate': () => jsonResponse({ code: -200, data: challenge, message: 'Enter the code' }, 401),
      'POST /msbapi/v2/auth/otp/validate': () => jsonResponse({ code: 1, data: { ...challenge, attemptsLeft: 5 } }),
      'POST /msbapi/v2/authentication/otp/verify': () => jsonResponse({ code: 1, data: tokenGrant() }),
    });
    const { router } = renderApp(address);
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
    await screen.findByRole('heading', { level: 1, name: en.authenticate.title });
    expect(router.state.location.pathname).toBe('/authenticate');
    typeInto(en.authenticate.appCode, '123456');
    fireEvent.click(screen.getByRole('button', { name: en.authenticate.submit }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Office lease' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(address);
  });

  it('never follows a return address to another site', async () => {
    stubApi({ 'POST /msbapi/v1/authenticate': () => jsonResponse({ code: 1, data: tokenGrant() }) });
    const { router } = renderApp(`/login?returnTo=${encodeURIComponent('//evil.example/sign')}`);
    await screen.findByRole('heading', { level: 1, name: en.login.title });
    expect(screen.queryByText(en.login.returnTo)).toBeNull();
    typeInto(en.common.email, 'asha@example.com');
    typeInto(en.common.password, 'Correct-horse-1');
    fireEvent.click(screen.getByRole('button', { name: en.login.submit }));
    // The dashboard waits for the tenant's permission settings before it shows.
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Asha' }, { timeout: 3000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('/sign and the tenant in the link', () => {
  it('switches to the tenant the link names when the person belongs to it, before asking for the ePak', async () => {
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&tenant=${TENANT_GLOBEX}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(sessionStore.get()?.tenantUuid).toBe(TENANT_GLOBEX);
    const tenants = requestsTo('GET', paths.epak).map((request) => request.headers.get('x-tenant-id'));
    expect(tenants.length).toBeGreaterThan(0);
    expect(new Set(tenants)).toEqual(new Set([TENANT_GLOBEX]));
    // The header's selector says where the person now acts.
    expect((screen.getByRole('combobox', { name: en.shell.tenant }) as HTMLSelectElement).value).toBe(TENANT_GLOBEX);
  });

  it('leaves a later choice in the header alone', async () => {
    stubCeremony(epakOf(), { [DOC_A]: [] });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&tenant=${TENANT_GLOBEX}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    fireEvent.change(screen.getByRole('combobox', { name: en.shell.tenant }), { target: { value: TENANT_ACME } });
    await waitFor(() => expect(sessionStore.get()?.tenantUuid).toBe(TENANT_ACME));
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(sessionStore.get()?.tenantUuid).toBe(TENANT_ACME);
  });

  it('says so when the link names a tenant the person is not in, and asks nothing of the server', async () => {
    const { requestsTo } = stubCeremony(epakOf(), { [DOC_A]: [] });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&tenant=11111111-2222-4333-8444-555555555555`);
    expect(await screen.findByText(en.signing.tenant.notMemberTitle)).toBeTruthy();
    expect(screen.getByText(fill(en.signing.tenant.notMemberBody, { email: adminUser.email }))).toBeTruthy();
    expect(sessionStore.get()?.tenantUuid).toBe(TENANT_ACME);
    expect(requestsTo('GET', paths.epak)).toHaveLength(0);
  });

  it('ignores a tenant that is no tenant id', async () => {
    stubCeremony(epakOf(), { [DOC_A]: [] });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&tenant=acme`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    expect(sessionStore.get()?.tenantUuid).toBe(TENANT_ACME);
  });
});
