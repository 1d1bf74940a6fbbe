import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { NO_VERIFICATION, type RecipientVerification } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { DOC_A, epakOf, EPAK_ID, paths, stubCeremony } from '../../test/ceremony-fixtures';

/**
 * Signer verification in the ceremony (issue 22): while the signer's place waits for a confirmed
 * code, the ceremony shows the verification panel and Sign leads to it instead of signing; the
 * code is asked for, typed into a one-time-code field, refused with words when wrong, and once
 * right the ePak is fetched again and signing goes ahead.
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

configure({ asyncUtilTimeout: 3000 });

const V = en.signing.verification;
const MASKED = 'as***@ex***.com';
const pending: RecipientVerification = { ...NO_VERIFICATION, required: true, maskedEmail: MASKED };
const sendPath = `/msbapi/v2/epaks/${EPAK_ID}/verification/code`;
const confirmPath = `/msbapi/v2/epaks/${EPAK_ID}/verification`;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
}

describe('the verification panel', () => {
  it('is not there when the place asks for no code', { timeout: 20_000 }, async () => {
    stubCeremony(epakOf({}, { verification: NO_VERIFICATION }), { [DOC_A]: [] });
    await openSign();
    expect(screen.queryByRole('heading', { name: V.heading })).toBeNull();
  });

  it('holds Sign until the mailed code is confirmed, says what went wrong, then signs', { timeout: 20_000 }, async () => {
    const now = Date.now();
    const outstanding: RecipientVerification = {
      ...pending,
      codeOutstanding: true,
      attemptsLeft: 5,
      codeExpiresAt: new Date(now + 600_000).toISOString(),
      resendAt: new Date(now + 60_000).toISOString(),
    };
    const stub = stubCeremony(epakOf({}, { verification: pending }), { [DOC_A]: [] }, {
      [`POST ${sendPath}`]: () => ok({ channel: 'email', sentTo: MASKED, expiresIn: 600, resendAfter: 60, verification: outstanding }),
      [`POST ${confirmPath}`]: ({ body }) => {
        if ((body as { code: string }).code !== '123456') return jsonResponse({ code: -138, data: { attemptsLeft: 4 }, message: 'The code is not correct.' }, 400);
        const verified = { ...outstanding, verified: true, codeOutstanding: false, codeExpiresAt: null, attemptsLeft: 0 };
        stub.state.epak = { ...stub.state.epak, viewer: { ...stub.state.epak.viewer!, verification: verified } };
        return ok({ verified: true, verification: verified });
      },
    });
    await openSign();
    expect(await screen.findByRole('heading', { name: V.heading })).toBeTruthy();

    // Sign leads to the panel; nothing is signed.
    fireEvent.click(signButton());
    expect(document.activeElement?.id).toBe('signer-verification');
    expect(stub.requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);
    // No phone on record: only the mail is offered.
    expect(screen.queryByTestId('verification-send-text')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: V.sendMail.replace('{{to}}', MASKED) }));
    expect((await screen.findByTestId('verification-sent')).textContent).toBe(V.sentByMail.replace('{{to}}', MASKED));
    expect(stub.requestsTo('POST', sendPath)[0]!.body).toEqual({ channel: 'email' });
    // A new code waits a minute: the resend button says so and cannot be pressed yet.
    expect(screen.getByTestId('verification-countdown').textContent).toMatch(/You can ask for a new code in \d+ seconds?\./);
    expect(screen.getByTestId('verification-send-mail').hasAttribute('disabled')).toBe(true);

    const field = screen.getByLabelText(new RegExp(V.codeLabel)) as HTMLInputElement;
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    const confirmButton = screen.getByRole('button', { name: V.confirm });
    // Anything but digits is left out; five digits are not yet a code.
    fireEvent.change(field, { target: { value: '11-111' } });
    expect(field.value).toBe('11111');
    expect(confirmButton.hasAttribute('disabled')).toBe(true);

    fireEvent.change(field, { target: { value: '111111' } });
    fireEvent.click(confirmButton);
    expect((await screen.findByTestId('verification-error')).textContent).toBe(V.errors.wrong_other.replace('{{count}}', '4'));
    expect(field.value).toBe('');

    fireEvent.change(field, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: V.confirm }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: V.heading })).toBeNull());
    expect(stub.requestsTo('POST', confirmPath).map((request) => request.body)).toEqual([{ code: '111111' }, { code: '123456' }]);

    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(stub.requestsTo('POST', paths.sign(DOC_A))).toHaveLength(1);
  });

  it('offers a text when there is a phone, and tells of a lock with its wait', { timeout: 20_000 }, async () => {
    const stub = stubCeremony(epakOf({}, { verification: { ...pending, maskedPhone: '******3210' } }), { [DOC_A]: [] }, {
      [`POST ${sendPath}`]: () => jsonResponse({ code: -217, data: { retryAfter: 840, lockedUntil: new Date(Date.now() + 840_000).toISOString() }, message: 'Too many wrong codes.' }, 429),
    });
    await openSign();
    fireEvent.click(await screen.findByRole('button', { name: V.sendText.replace('{{to}}', '******3210') }));
    expect((await screen.findByTestId('verification-error')).textContent).toBe(V.errors.locked_other.replace('{{count}}', '14'));
    expect(stub.requestsTo('POST', sendPath)[0]!.body).toEqual({ channel: 'sms' });
  });
});
