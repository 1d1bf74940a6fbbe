import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SigningReason } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { BUILT_IN_REASONS, DOC_A, epakOf, EPAK_ID, paths, stubCeremony } from '../../test/ceremony-fixtures';

/**
 * The tenant's signing reasons in the ceremony (issue 8): the picker lists the enabled reasons the
 * ePak's viewer carries, the default first, built-in ones in the reader's language and the
 * tenant's own as typed, then "Other". The default is chosen to start with (issue 22); "No
 * reason" stays on offer (the reason is optional).
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

// The whole app renders with its queries; on a busy machine the first answer can take more than a second.
configure({ asyncUtilTimeout: 3000 });

const R = en.signing.reasons;
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });
const picker = () => screen.getByLabelText(R.label, { selector: 'select' }) as HTMLSelectElement;

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
}

const finance: SigningReason = { reasonId: '4c1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c09', key: null, text: 'Checked by finance', position: 5, enabled: true, isDefault: true };

describe('the reason picker', () => {
  it("lists the tenant's reasons as the viewer gives them, its default chosen (issue 22), and signs with the tenant's own words", async () => {
    const [approve, , author] = BUILT_IN_REASONS;
    const { requestsTo } = stubCeremony(epakOf({}, { reasons: [finance, { ...approve!, isDefault: false }, author!] }), { [DOC_A]: [] });
    await openSign();
    expect(picker().value).toBe(finance.reasonId);
    expect([...picker().options].map((option) => option.textContent)).toEqual([R.none, 'Checked by finance', R.approve, R.author, R.other]);

    fireEvent.change(picker(), { target: { value: finance.reasonId } });
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: 'Checked by finance' });
  });

  it('keeps "Other" for the signer\'s own words, even when the tenant offers no reason at all', async () => {
    const { requestsTo } = stubCeremony(epakOf({}, { reasons: [] }), { [DOC_A]: [] });
    await openSign();
    expect([...picker().options].map((option) => option.textContent)).toEqual([R.none, R.other]);
    fireEvent.change(picker(), { target: { value: 'other' } });
    fireEvent.change(screen.getByRole('textbox', { name: R.ownWords }), { target: { value: '  As guarantor ' } });
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: 'As guarantor' });
  });
});
