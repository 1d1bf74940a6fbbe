import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, jsonResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { DOC_A, epakOf, EPAK_ID, ME, paths, stubCeremony, tagFor } from '../../test/ceremony-fixtures';

/**
 * The tenant's geolocation setting in the ceremony (spec §9): with OPTIONAL or MANDATORY and no
 * location field of the signer's own, the panel asks "Where are you signing?"; the browser may
 * fill in the coordinates; MANDATORY refuses to sign while it is blank.
 */
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: Promise.resolve(), cancel: () => undefined }), destroy: () => undefined })),
}));

const L = en.signing.location;
const signButton = () => screen.getByRole('button', { name: en.signing.actions.sign });
const locationInput = () => screen.getByRole('textbox', { name: new RegExp(`^${L.label.replace('?', '\\?')}`) }) as HTMLInputElement;
const tagBox = (uuid: string) => screen.getAllByTestId('signing-tag').find((element) => element.getAttribute('data-tag-uuid') === uuid)!;

async function openSign() {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  renderApp(`/sign?ePakId=${EPAK_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Office lease' });
  await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
}

/** navigator.geolocation as a browser would answer: a position, or a refusal with its code. */
function stubGeolocation(answer: { latitude: number; longitude: number } | { code: number }) {
  const getCurrentPosition = vi.fn((success: PositionCallback, failure?: PositionErrorCallback | null) => {
    if ('code' in answer) failure?.({ code: answer.code, message: 'no', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError);
    else success({ coords: { ...answer, accuracy: 20 }, timestamp: Date.now() } as unknown as GeolocationPosition);
  });
  Object.defineProperty(window.navigator, 'geolocation', { configurable: true, value: { getCurrentPosition } });
  return getCurrentPosition;
}

afterEach(() => {
  Reflect.deleteProperty(window.navigator, 'geolocation');
});

describe('where the signer signs', () => {
  it('asks nothing when the tenant does not (OFF)', async () => {
    stubCeremony(epakOf(), { [DOC_A]: [] });
    await openSign();
    expect(screen.queryByTestId('signing-location')).toBeNull();
  });

  it('MANDATORY: marks the field required, refuses to sign while it is blank, then sends what was typed', async () => {
    const { requestsTo } = stubCeremony(epakOf({}, { geolocation: 'MANDATORY' }), { [DOC_A]: [] });
    await openSign();
    expect(locationInput().required).toBe(true);
    expect(within(screen.getByTestId('signing-location')).queryByText(`(${L.optional})`)).toBeNull();

    fireEvent.click(signButton());
    expect(await screen.findByText(L.required)).toBeTruthy();
    expect(locationInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(locationInput());
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);

    // Blanks are no place either.
    fireEvent.change(locationInput(), { target: { value: '   ' } });
    fireEvent.click(signButton());
    expect(await screen.findByText(L.required)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);

    fireEvent.change(locationInput(), { target: { value: ' Pune, Maharashtra ' } });
    expect(screen.queryByText(L.required)).toBeNull();
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: en.signing.reasons.approve, location: 'Pune, Maharashtra' });
  });

  it('OPTIONAL: labelled optional, signs without it, and fills in the coordinates the browser gives', async () => {
    const { requestsTo, state } = stubCeremony(epakOf({}, { geolocation: 'OPTIONAL' }), { [DOC_A]: [] });
    const getCurrentPosition = stubGeolocation({ latitude: 18.520432, longitude: 73.856743 });
    await openSign();
    expect(locationInput().required).toBe(false);
    expect(within(screen.getByTestId('signing-location')).getByText(`(${L.optional})`)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: L.useCurrent }));
    await waitFor(() => expect(locationInput().value).toBe('18.5204, 73.8567'));
    expect(getCurrentPosition).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), { enableHighAccuracy: false, timeout: 10_000 });
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: en.signing.reasons.approve, location: '18.5204, 73.8567' });
    expect(state.epak.viewer!.signedDocumentIds).toEqual([DOC_A]);
  });

  it('OPTIONAL: signs with no location when none is given', async () => {
    const { requestsTo } = stubCeremony(epakOf({}, { geolocation: 'OPTIONAL' }), { [DOC_A]: [] });
    await openSign();
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [], reason: en.signing.reasons.approve });
  });

  it('says why the browser gave no position, and typing still works', async () => {
    stubCeremony(epakOf({}, { geolocation: 'MANDATORY' }), { [DOC_A]: [] });
    stubGeolocation({ code: 1 });
    await openSign();
    fireEvent.click(screen.getByRole('button', { name: L.useCurrent }));
    expect((await screen.findByRole('alert')).textContent).toBe(L.denied);
    expect(locationInput().value).toBe('');

    stubGeolocation({ code: 3 });
    fireEvent.click(screen.getByRole('button', { name: L.useCurrent }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(L.timeout));
    stubGeolocation({ code: 2 });
    fireEvent.click(screen.getByRole('button', { name: L.useCurrent }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(L.unavailable));

    Reflect.deleteProperty(window.navigator, 'geolocation');
    fireEvent.click(screen.getByRole('button', { name: L.useCurrent }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(L.unsupported));
    fireEvent.change(locationInput(), { target: { value: 'Nagpur' } });
    expect(locationInput().value).toBe('Nagpur');
  });

  it('leaves it to the signer’s own location field when there is one; MANDATORY points at it while blank', async () => {
    const place = tagFor('location');
    const { requestsTo } = stubCeremony(epakOf({}, { geolocation: 'MANDATORY' }), { [DOC_A]: [place] });
    await openSign();
    await waitFor(() => expect(screen.getAllByTestId('signing-tag')).toHaveLength(1));
    expect(screen.queryByTestId('signing-location')).toBeNull();

    fireEvent.click(signButton());
    expect(await screen.findByText(L.tagRequired)).toBeTruthy();
    expect(tagBox(place.uuid).getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(0);

    fireEvent.click(tagBox(place.uuid));
    fireEvent.change(await screen.findByLabelText(en.tagEditor.types.location, { selector: 'input' }), { target: { value: 'Chennai' } });
    fireEvent.click(screen.getByRole('button', { name: en.signing.fields.done }));
    fireEvent.click(signButton());
    expect(await screen.findByText(en.signing.outcome.signedCompleted)).toBeTruthy();
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toEqual({ action: 'SIGN', values: [{ uuid: place.uuid, value: 'Chennai' }], reason: en.signing.reasons.approve, location: 'Chennai' });
  });

  it('when the server asks for a location this screen did not know of, says so and shows the field', async () => {
    const { requestsTo, state } = stubCeremony(epakOf(), { [DOC_A]: [] }, {
      [`POST ${paths.sign(DOC_A)}`]: () => {
        // A super admin switched MANDATORY on since the screen was opened.
        state.epak = { ...state.epak, viewer: { ...state.epak.viewer!, geolocation: 'MANDATORY' } };
        return jsonResponse({ code: -6, data: null, message: 'Say where you are signing.', issues: [{ path: 'location', message: 'required' }] }, 400);
      },
    });
    await openSign();
    expect(screen.queryByTestId('signing-location')).toBeNull();
    fireEvent.click(signButton());
    expect(await screen.findByText(L.requiredNow)).toBeTruthy();
    await waitFor(() => expect(locationInput().required).toBe(true));
    expect(requestsTo('GET', paths.epak).length).toBeGreaterThan(1);
  });
});

describe('where the signer signs, through a signing link', () => {
  it('asks in the /emailsign ceremony too, from the ePak’s own answer', async () => {
    const token = 'pks_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const { requestsTo } = stubCeremony(epakOf({}, { geolocation: 'MANDATORY' }), { [DOC_A]: [] }, {
      [`GET /msbapi/v2/epaks/${token}/exchange`]: () =>
        jsonResponse({
          code: 1,
          data: { accessToken: 'link-access-1', expiresIn: 900, ePakId: EPAK_ID, tenantId: TENANT_ACME, user: { userId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d02', email: ME, firstName: 'Asha', lastName: 'Rao' } },
        }),
    });
    renderApp(`/emailsign?token=${token}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    await waitFor(() => expect(signButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(signButton());
    expect(await screen.findByText(L.required)).toBeTruthy();
    fireEvent.change(locationInput(), { target: { value: 'Kochi' } });
    fireEvent.click(signButton());
    await waitFor(() => expect(requestsTo('POST', paths.sign(DOC_A))).toHaveLength(1));
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.body).toMatchObject({ location: 'Kochi' });
    expect(requestsTo('POST', paths.sign(DOC_A))[0]!.headers.get('Authorization')).toBe('Bearer link-access-1');
  });
});
