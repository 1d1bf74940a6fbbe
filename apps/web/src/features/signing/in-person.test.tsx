import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EpakDetail } from '@pakt/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { DOC_A, EPAK_ID, epakOf, paths, stubCeremony, tagFor, viewerOf } from '../../test/ceremony-fixtures';

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

const AUTH = '/msbapi/v2/epak/sign/auth';
const OTP_ID = '3f0c2a4e-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const TOKEN = 'sign-auth-token-1';
const RAVI = { recipientId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c03', userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d03', email: 'ravi@example.com', firstName: 'Ravi', lastName: 'Iyer' };
const signer = { userId: RAVI.userId, email: RAVI.email, firstName: RAVI.firstName, lastName: RAVI.lastName };

/** The host (Asha, the owner) and one in-person signer (Ravi) in the step under way. */
function inPersonEpak(status: 'Pending' | 'Signed' = 'Pending'): EpakDetail {
  return epakOf(
    {
      currentStep: status === 'Pending' ? 1 : null,
      status: status === 'Pending' ? 'InProgress' : 'Completed',
      ownerName: 'Asha Rao',
      steps: [{ order: 1, workflowStateId: '1d1c5a2e-0a6b-4c5e-9f1a-000000000004', name: 'In-person sign', type: 'INPERSONSIGN', recipients: [{ ...RAVI, type: 'external', status }] }],
    },
    { isOwner: true, recipientId: null, stepOrder: null, stepType: null, status: null, canAct: false },
  );
}

/** Ravi's own view of it, as his sign-auth token sees it. */
const signersView = (epak: EpakDetail): EpakDetail => ({ ...epak, viewer: viewerOf({ recipientId: RAVI.recipientId, stepOrder: 1, stepType: 'INPERSONSIGN' }) });

function stubInPerson(codes: Record<string, () => Response> = {}) {
  const signature = tagFor('signature', { userEmail: RAVI.email, wfsOrderId: 1, required: true });
  let signed = false;
  const bearer = (headers: Headers) => headers.get('Authorization');
  const api = stubCeremony(inPersonEpak(), { [DOC_A]: [signature] }, {
    [`GET ${paths.epak}`]: ({ headers }) => {
      const epak = inPersonEpak(signed ? 'Signed' : 'Pending');
      return jsonResponse({ code: 1, data: bearer(headers) === `Bearer ${TOKEN}` ? signersView(epak) : epak });
    },
    [`PUT ${paths.view(DOC_A)}`]: ({ headers }) => {
      const epak = inPersonEpak(signed ? 'Signed' : 'Pending');
      const viewer = bearer(headers) === `Bearer ${TOKEN}` ? signersView(epak).viewer : epak.viewer;
      return jsonResponse({ code: 1, data: { ...viewer, viewedDocumentIds: [DOC_A], isRead: true } });
    },
    [`POST ${paths.sign(DOC_A)}`]: ({ headers }) => {
      if (bearer(headers) !== `Bearer ${TOKEN}`) return errorResponse(-6, 400, 'This step is signed in person.');
      signed = true;
      return jsonResponse({ code: 1, data: { ePakId: EPAK_ID, documentId: DOC_A, documentStatus: 'Signed', signerStatus: 'Signed', epakStatus: 'Completed', remainingDocumentIds: [], revision: 1 } });
    },
    [`POST ${AUTH}`]: ({ body }) => {
      const { code } = body as { code?: string };
      if (!code) return jsonResponse({ code: 1, data: { otpId: OTP_ID, sentTo: 'ra***@ex***.com', signAuthToken: null, expiresIn: 600, signer } });
      const refusal = codes[code];
      if (refusal) return refusal();
      return jsonResponse({ code: 1, data: { otpId: null, sentTo: null, signAuthToken: TOKEN, expiresIn: 900, signer } });
    },
  });
  return { ...api, signature };
}

async function openAsHost() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  return rendered;
}

const startButton = () => screen.findByRole('button', { name: fill(en.signing.inPerson.start, { name: 'Ravi Iyer' }) });

async function sendCode() {
  fireEvent.click(await startButton());
  const dialog = await screen.findByRole('dialog', { name: fill(en.signing.inPerson.dialogTitle, { name: 'Ravi Iyer' }) });
  fireEvent.click(within(dialog).getByRole('button', { name: en.signing.inPerson.send }));
  await within(dialog).findByText(fill(en.signing.inPerson.sent, { name: 'Ravi Iyer', email: 'ra***@ex***.com' }));
  return dialog;
}

function enterCode(dialog: HTMLElement, code: string) {
  fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${en.signing.inPerson.code}`)), { target: { value: code } });
  fireEvent.click(within(dialog).getByRole('button', { name: en.signing.inPerson.confirm }));
}

describe('in-person signing at /sign', () => {
  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });

  it('offers the owner to sign in person with each waiting signer, and says the step is signed here', async () => {
    stubInPerson();
    await openAsHost();
    expect(await startButton()).toBeTruthy();
    expect(screen.getByTestId('why-not').textContent).toBe(en.signing.whyNot.hostInPerson);
  });

  it('offers nothing to a recipient, nor once the in-person step is done', async () => {
    const { state } = stubCeremony(epakOf(), { [DOC_A]: [] });
    const first = await openAsHost();
    expect(screen.queryByTestId('in-person-panel')).toBeNull();
    first.unmount();
    state.epak = inPersonEpak('Signed');
    await openAsHost();
    expect(screen.queryByTestId('in-person-panel')).toBeNull();
  });

  it('mails the code with the host’s session, then explains each refused code', async () => {
    const { requestsTo } = stubInPerson({
      '111111': () => errorResponse(-138, 400, 'The code is not correct.'),
      '222222': () => errorResponse(-217, 429, 'Too many wrong codes: sign in again.'),
      '333333': () => errorResponse(-196, 400, 'This sign-in has expired: sign in again.'),
    });
    await openAsHost();
    let dialog = await sendCode();
    const [asked] = requestsTo('POST', AUTH);
    expect(asked!.body).toEqual({ ePakId: EPAK_ID, recipientId: RAVI.recipientId });
    expect(asked!.headers.get('Authorization')).toBe('Bearer access-1');
    expect(asked!.headers.get('x-tenant-id')).toBe(TENANT_ACME);

    enterCode(dialog, '12');
    expect(await within(dialog).findByText(en.signing.inPerson.codeInvalid)).toBeTruthy();
    expect(requestsTo('POST', AUTH)).toHaveLength(1);

    enterCode(dialog, '111111');
    expect((await within(dialog).findByTestId('in-person-error')).textContent).toBe(en.signing.inPerson.errors.wrongCode);
    expect(requestsTo('POST', AUTH)[1]!.body).toEqual({ ePakId: EPAK_ID, recipientId: RAVI.recipientId, otpId: OTP_ID, code: '111111' });
    // A wrong code may be tried again with the same challenge.
    expect(within(dialog).getByLabelText(new RegExp(`^${en.signing.inPerson.code}`))).toBeTruthy();

    enterCode(dialog, '222222');
    expect((await within(dialog).findByTestId('in-person-error')).textContent).toBe(en.signing.inPerson.errors.tooMany);
    // The challenge is over: only a new code helps.
    expect(within(dialog).queryByLabelText(new RegExp(`^${en.signing.inPerson.code}`))).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.inPerson.send }));
    dialog = await screen.findByRole('dialog', { name: fill(en.signing.inPerson.dialogTitle, { name: 'Ravi Iyer' }) });
    await within(dialog).findByLabelText(new RegExp(`^${en.signing.inPerson.code}`));

    enterCode(dialog, '333333');
    expect((await within(dialog).findByTestId('in-person-error')).textContent).toBe(en.signing.inPerson.errors.expired);
    expect(within(dialog).getByRole('button', { name: en.signing.inPerson.send })).toBeTruthy();
    expect(sessionStore.get()?.accessToken).toBe('access-1');
  });

  it('hands the screen to the signer with their token, keeps the host’s session, and comes back once they have signed', async () => {
    const { requestsTo, signature } = stubInPerson();
    await openAsHost();
    enterCode(await sendCode(), '123456');

    const turn = await screen.findByTestId('in-person-turn');
    expect(within(turn).getByTestId('in-person-banner').textContent).toBe(fill(en.signing.inPerson.banner, { name: 'Ravi Iyer' }));
    // The host's session is as it was: the signer's token lives in memory only.
    expect(sessionStore.get()?.accessToken).toBe('access-1');
    expect(JSON.stringify({ ...localStorage })).not.toContain(TOKEN);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(TOKEN);

    const box = await waitFor(() => {
      const found = within(turn).getAllByTestId('signing-tag').find((element) => element.getAttribute('data-tag-uuid') === signature.uuid);
      expect(found?.tagName).toBe('BUTTON');
      return found!;
    });
    fireEvent.click(box);
    const dialog = await screen.findByRole('dialog', { name: en.signing.signature.title });
    fireEvent.click(within(dialog).getByRole('tab', { name: en.signing.signature.type }));
    expect((within(dialog).getByLabelText(en.signing.signature.typeLabel) as HTMLInputElement).value).toBe('Ravi Iyer');
    fireEvent.click(within(dialog).getByRole('button', { name: en.signing.signature.adopt }));
    await waitFor(() => expect(box.getAttribute('data-filled')).toBe('true'));
    fireEvent.click(within(turn).getByRole('button', { name: en.signing.actions.sign }));

    expect((await screen.findByTestId('in-person-ended')).textContent).toContain(fill(en.signing.inPerson.ended.signed, { name: 'Ravi Iyer' }));
    expect(screen.queryByTestId('in-person-turn')).toBeNull();
    const [signed] = requestsTo('POST', paths.sign(DOC_A));
    expect(signed!.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(signed!.headers.get('x-tenant-id')).toBe(TENANT_ACME);
    expect(signed!.body).toEqual({ action: 'SIGN', values: [{ uuid: signature.uuid, value: TYPED }], reason: en.signing.reasons.approve });
    // The host's view, fetched again with the host's session: the step is done.
    await waitFor(() => expect(screen.getByTestId('epak-status').textContent).toBe(en.compose.status.Completed));
    expect(screen.queryByRole('button', { name: fill(en.signing.inPerson.start, { name: 'Ravi Iyer' }) })).toBeNull();
    expect(sessionStore.get()?.accessToken).toBe('access-1');
  });

  it('ends the signer’s turn on request, back to the host’s view', async () => {
    stubInPerson();
    await openAsHost();
    enterCode(await sendCode(), '123456');
    const turn = await screen.findByTestId('in-person-turn');
    fireEvent.click(within(turn).getByRole('button', { name: en.signing.inPerson.end }));
    expect((await screen.findByTestId('in-person-ended')).textContent).toContain(fill(en.signing.inPerson.ended.cancelled, { name: 'Ravi Iyer' }));
    expect(screen.queryByTestId('in-person-turn')).toBeNull();
    expect(await startButton()).toBeTruthy();
  });

  it('ends the turn when the signer’s token has run out', async () => {
    stubInPerson();
    const fetchMock = vi.mocked(fetch);
    await openAsHost();
    enterCode(await sendCode(), '123456');
    const turn = await screen.findByTestId('in-person-turn');
    const rejectButton = await within(turn).findByRole('button', { name: en.signing.actions.reject });
    await waitFor(() => expect(rejectButton.hasAttribute('disabled')).toBe(false));
    // From now on the server refuses the token as expired.
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (new Headers(init?.headers).get('Authorization') === `Bearer ${TOKEN}`) return errorResponse(-27, 401, 'The access token has expired.');
      return answer(input, init);
    });
    fireEvent.click(rejectButton);
    const reject = await screen.findByRole('dialog', { name: en.signing.reject.title });
    fireEvent.change(within(reject).getByLabelText(new RegExp(en.signing.reject.comment.replace('?', '\\?'))), { target: { value: 'Not today' } });
    fireEvent.click(within(reject).getByRole('button', { name: en.signing.reject.confirm }));
    expect((await screen.findByTestId('in-person-ended')).textContent).toContain(fill(en.signing.inPerson.ended.expired, { name: 'Ravi Iyer' }));
    expect(sessionStore.get()?.accessToken).toBe('access-1');
  });
});
