import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { RUBBER_STAMP_SUB_TYPE, type RubberStampChoice } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { DOC_A, epakOf, EPAK_ID, paths, stubCeremony, tagFor } from '../../test/ceremony-fixtures';

/**
 * The rubber-stamp chooser of the signing ceremony (issue 8): shown only when the viewer says
 * stamps are available to this signer; applying one puts it over the signer's signature (or
 * into their rubber-stamp tag) and the sign request carries it for that document.
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

configure({ asyncUtilTimeout: 3000 });

const C = en.rubberStamps.chooser;
const SEAL: RubberStampChoice = { rubberStampId: '3e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c71', name: 'Company seal', width: 200, height: 100, owned: false };
const image = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } });
const imageRoute = { [`GET /msbapi/v2/epaks/${EPAK_ID}/rubberstamps/${SEAL.rubberStampId}/image`]: image };
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
}

describe('the rubber-stamp chooser', () => {
  it('is not there when the viewer says stamps are not available to this signer', { timeout: 20_000 }, async () => {
    stubCeremony(epakOf({}, { rubberStamps: { available: false, stamps: [] } }), { [DOC_A]: [] });
    await openSign();
    expect(screen.queryByTestId('stamp-chooser')).toBeNull();
  });

  it('places the chosen stamp over the signer\'s initials, keeping its shape, and signs with it', { timeout: 20_000 }, async () => {
    const initials = tagFor('userInitial', { positionX: 100, positionY: 200 });
    const { requestsTo } = stubCeremony(epakOf({}, { rubberStamps: { available: true, stamps: [SEAL] } }), { [DOC_A]: [initials] }, imageRoute);
    await openSign();
    expect(await screen.findByRole('heading', { name: C.title })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: C.apply }));
    expect((await screen.findByTestId('stamp-applied')).textContent).toBe(C.appliedHere.replace('{{page}}', '1'));
    expect(screen.getByTestId('applied-stamp')).toBeTruthy();

    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    const body = requestsTo('POST', paths.sign(DOC_A))[0]!.body as { rubberStamps: { rubberStampId: string; placement: { positionX: number; positionY: number; blockWidth: number; blockHeight: number } }[] };
    // 200 x 100 inside the 120 x 120 stamp box: 120 x 60, centred on the initials.
    const placement = body.rubberStamps[0]!.placement;
    expect(body.rubberStamps[0]!.rubberStampId).toBe(SEAL.rubberStampId);
    expect(placement).toMatchObject({ pageNumber: 1, blockWidth: 120, blockHeight: 60 });
    expect(placement.positionX + 60).toBeCloseTo(initials.positionX + initials.blockWidth / 2, 0);
    expect(placement.positionY + 30).toBeCloseTo(initials.positionY + initials.blockHeight / 2, 0);
  });

  it('fills the rubber-stamp tag the custodian placed for the signer, and can be taken off again', { timeout: 20_000 }, async () => {
    const stampTag = tagFor('image', { subType: RUBBER_STAMP_SUB_TYPE, positionX: 300, positionY: 500, blockWidth: 100, blockHeight: 100 });
    const { requestsTo } = stubCeremony(epakOf({}, { rubberStamps: { available: true, stamps: [SEAL] } }), { [DOC_A]: [stampTag] }, imageRoute);
    await openSign();
    fireEvent.click(await screen.findByRole('button', { name: C.apply }));
    await screen.findByTestId('stamp-applied');
    fireEvent.click(screen.getByRole('button', { name: C.remove }));
    await waitFor(() => expect(screen.queryByTestId('applied-stamp')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: C.apply }));
    await screen.findByTestId('applied-stamp');
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({
      action: 'SIGN',
      values: [],
      reason: en.signing.reasons.approve,
      rubberStamps: [{ rubberStampId: SEAL.rubberStampId, tagUuid: stampTag.uuid }],
    });
  });
});
