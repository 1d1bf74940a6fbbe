import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PASSWORD_CONFIG, DEFAULT_PERMISSION_SETTINGS, type VerificationMode } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { TENANT_ACME } from '../../test/fake-api';
import { inputLabelled } from '../../test/render-app';
import { addAddress, EPAK, goOnTo, ok, openCompose, REVIEW, SIGN, stateSelect, step, stubCompose, toRecipients } from '../../test/compose-fixtures';

/**
 * Signer verification at compose (issue 22, spec §9): with a DefaultSelective mode each signer gets
 * a "verify with a code" switch starting at the mode's default, and the choice made is sent with
 * that recipient; with ON or OFF a note says what the tenant decided, and nothing is sent.
 */
const configurationWith = (verificationMode: VerificationMode) => ({
  ['GET /msbapi/v1/configuration']: () =>
    ok({
      tenantUuid: TENANT_ACME,
      tenantName: 'Acme',
      supportedLanguages: ['en'],
      permissionSettings: DEFAULT_PERMISSION_SETTINGS,
      passwordConfig: DEFAULT_PASSWORD_CONFIG,
      requireEmailOtp: false,
      viewEnforceOption: 'ShowWithDefaultOff',
      verificationMode,
      showUserUuidColumn: false,
    }),
});

const C = en.compose.verification;
const switchFor = (email: string) => screen.getByRole('switch', { name: C.switchFor.replace('{{name}}', email) }) as HTMLInputElement;

async function saveDraft() {
  fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
  goOnTo('fields');
}

describe('/compose, signer verification', () => {
  it.each([
    ['DefaultSelectiveON', true],
    ['DefaultSelectiveOFF', false],
  ] as const)('%s: each signer has a switch starting %s, and the choice is sent', async (mode, initial) => {
    const { requestsTo } = stubCompose(configurationWith(mode));
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    await waitFor(() => expect(switchFor('ravi@example.com').checked).toBe(initial));
    expect(switchFor('meera@example.com').checked).toBe(initial);
    fireEvent.click(switchFor('meera@example.com'));
    expect(switchFor('meera@example.com').checked).toBe(!initial);
    await saveDraft();
    await waitFor(() => expect(requestsTo('POST', EPAK)).toHaveLength(1));
    // Untouched, nothing is sent for Ravi: the server applies the mode's default.
    expect((requestsTo('POST', EPAK)[0]!.body as { steps: { recipients: unknown[] }[] }).steps[0]!.recipients).toEqual([
      { email: 'ravi@example.com' },
      { email: 'meera@example.com', verify: !initial },
    ]);
  });

  it('offers no switch to a reviewer', async () => {
    stubCompose(configurationWith('DefaultSelectiveON'));
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: REVIEW } });
    addAddress(1, 'lawyer@example.com');
    await waitFor(() => expect(within(step(1)).getByText('lawyer@example.com')).toBeTruthy());
    expect(screen.queryByRole('switch', { name: C.switchFor.replace('{{name}}', 'lawyer@example.com') })).toBeNull();
  });

  it.each([
    ['ON', C.always],
    ['OFF', C.never],
  ] as const)('%s: a note instead of switches, and nothing sent', async (mode, note) => {
    const { requestsTo } = stubCompose(configurationWith(mode));
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com');
    expect((await within(step(1)).findByTestId('compose-verification-note')).textContent).toBe(note);
    expect(screen.queryByRole('switch', { name: C.switchFor.replace('{{name}}', 'ravi@example.com') })).toBeNull();
    await saveDraft();
    await waitFor(() => expect(requestsTo('POST', EPAK)).toHaveLength(1));
    expect((requestsTo('POST', EPAK)[0]!.body as { steps: { recipients: unknown[] }[] }).steps[0]!.recipients).toEqual([{ email: 'ravi@example.com' }]);
  });
});
