import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NO_VERIFICATION, type RecipientVerification } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { EPAK_ID, epakOf, viewerOf } from '../../test/ceremony-fixtures';
import { adminUser, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { ASHA, RAVI, stubManage } from '../../test/manage-fixtures';
import { renderApp } from '../../test/render-app';

/**
 * Signer verification before delegating (issue 22): an owner whose own place waits for a
 * confirmed code is asked for it in the delegate dialog, and cannot hand the place on before.
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

configure({ asyncUtilTimeout: 3000 });

const V = en.signing.verification;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const MASKED = 'as***@ex***.com';
const pending: RecipientVerification = { ...NO_VERIFICATION, required: true, maskedEmail: MASKED };

describe('delegating a place that must verify', () => {
  it('asks for the code in the dialog first, then hands the place on', { timeout: 30_000 }, async () => {
    const delegatePath = `/msbapi/v2/epaks/${EPAK_ID}/delegate`;
    const outstanding = { ...pending, codeOutstanding: true, attemptsLeft: 5 };
    const stub = stubManage(epakOf({}, viewerOf({ isOwner: true, verification: pending })), {
      routes: {
        [`POST /msbapi/v2/epaks/${EPAK_ID}/verification/code`]: () => ok({ channel: 'email', sentTo: MASKED, expiresIn: 600, resendAfter: 60, verification: outstanding }),
        [`POST /msbapi/v2/epaks/${EPAK_ID}/verification`]: () => {
          const verified = { ...outstanding, verified: true, codeOutstanding: false, attemptsLeft: 0 };
          stub.state.epak = { ...stub.state.epak, viewer: { ...stub.state.epak.viewer!, verification: verified } };
          return ok({ verified: true, verification: verified });
        },
        [`POST ${delegatePath}`]: () => ok({ ePakId: EPAK_ID, status: 'InProgress', recipientId: ASHA, delegate: { recipientId: RAVI, userId: RAVI, email: 'kiran@example.com', status: 'Pending' } }),
      },
    });
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp(`/sign?ePakId=${EPAK_ID}&view=manage`);
    await screen.findByTestId('epak-manage');

    fireEvent.click(screen.getByTestId('manage-delegate'));
    const dialog = await screen.findByTestId('manage-delegate-dialog');
    expect(within(dialog).getByTestId('manage-delegate-verification').textContent).toContain(V.beforeDelegating);
    expect(within(dialog).getByTestId('manage-delegate-dialog-confirm').hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: V.sendMail.replace('{{to}}', MASKED) }));
    fireEvent.change(await within(dialog).findByLabelText(new RegExp(V.codeLabel)), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: V.confirm }));
    await waitFor(() => expect(within(dialog).queryByTestId('manage-delegate-verification')).toBeNull());

    fireEvent.change(within(dialog).getByTestId('manage-delegate-email'), { target: { value: 'kiran@example.com' } });
    fireEvent.click(within(dialog).getByTestId('manage-delegate-dialog-confirm'));
    await waitFor(() => expect(stub.requestsTo('POST', delegatePath)).toHaveLength(1));
  });
});
