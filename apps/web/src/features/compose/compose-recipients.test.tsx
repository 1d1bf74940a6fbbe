import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse } from '../../test/fake-api';
import { inputLabelled } from '../../test/render-app';
import { addAddress, EPAK, goOnTo, ok, openCompose, pendingInput, recipientTexts, SIGN, stateSelect, step, stubCompose, toRecipients, USERS } from '../../test/compose-fixtures';

/** The recipients step of a new ePak: adding people, and the server's refusals placed where they belong. */
describe('/compose, the recipients step', () => {
  it('says so when the directory cannot suggest anyone, and still takes a typed address', async () => {
    stubCompose({ [`GET ${USERS}`]: () => errorResponse(-500, 500, 'boom') });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(pendingInput(1), { target: { value: 'ra' } });
    expect(await screen.findByText(en.compose.workflow.directoryFailed, {}, { timeout: 3000 })).toBeTruthy();
    addAddress(1, 'ravi@example.com');
    expect(recipientTexts(1)).toEqual(['ravi@example.com']);
  });

  it('adds several pasted addresses at once, keeps the invalid one and refuses one already present', async () => {
    stubCompose();
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(pendingInput(1), { target: { value: 'Ravi@Example.com; meera@example.com;not-an-address' } });
    expect(recipientTexts(1)).toEqual(['ravi@example.com', 'meera@example.com']);
    expect((pendingInput(1) as HTMLInputElement).value).toBe('not-an-address');
    expect(within(step(1)).getByText(en.common.emailInvalid)).toBeTruthy();

    addAddress(1, 'RAVI@example.com');
    expect(within(step(1)).getByText(en.workflows.errors.alreadyPresent)).toBeTruthy();
    expect(recipientTexts(1)).toEqual(['ravi@example.com', 'meera@example.com']);
  });

  it('asks the directory only once two characters are typed, and adds the suggestion chosen', async () => {
    const { requestsTo } = stubCompose({
      [`GET ${USERS}`]: () =>
        ok({ users: [{ userId: '4c3b2a19-0f8e-4d7c-9b6a-5f4e3d2c1b0a', email: 'ravi@example.com', firstName: 'Ravi', lastName: 'Iyer', type: 'internal' }] }),
    });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(pendingInput(1), { target: { value: 'r' } });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(requestsTo('GET', USERS)).toHaveLength(0);
    fireEvent.change(pendingInput(1), { target: { value: 'ra' } });
    await waitFor(() => expect(requestsTo('GET', USERS)).toHaveLength(1));
    expect(new URL(requestsTo('GET', USERS)[0]!.url, 'http://x').searchParams.get('q')).toBe('ra');
    fireEvent.click(pendingInput(1));
    fireEvent.click(await screen.findByRole('option', { name: 'Ravi Iyer · ravi@example.com' }, { timeout: 3000 }));
    await waitFor(() => expect(recipientTexts(1)).toEqual(['ravi@example.com']));
  });

  it('shows a disabled recipient (-13) at that recipient, on the recipients step', async () => {
    stubCompose({
      [`POST ${EPAK}`]: () =>
        jsonResponse({ code: -13, data: { email: 'meera@example.com' }, message: 'meera@example.com is disabled: contact your administrator.' }, 403),
    });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');

    const recipients = within(step(1)).getAllByRole('listitem');
    await waitFor(() => expect(recipients[1]!.textContent).toContain(en.compose.errors.recipientDisabled), { timeout: 4000 });
    expect(recipients[1]!.getAttribute('data-invalid')).toBe('true');
    expect(recipients[0]!.textContent).toBe('ravi@example.com');
  });

  it.each([
    { code: -173, status: 403, key: 'RESPONSE_MSG_USER_INVITATION_CANCELLED' as const },
    { code: -3, status: 404, key: 'newUsersNotInvited' as const },
  ])('shows $code at the recipient the server names', async ({ code, status, key }) => {
    stubCompose({ [`POST ${EPAK}`]: () => jsonResponse({ code, data: { email: 'meera@example.com' }, message: 'refused' }, status) });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');
    const recipients = within(step(1)).getAllByRole('listitem');
    const message = key === 'newUsersNotInvited' ? en.compose.errors.newUsersNotInvited : en[key];
    await waitFor(() => expect(recipients[1]!.textContent).toContain(message), { timeout: 4000 });
    expect(recipients[0]!.getAttribute('data-invalid')).not.toBe('true');
  });

  it('explains any other failure above the buttons, keeping what was entered', async () => {
    stubCompose({ [`POST ${EPAK}`]: () => jsonResponse({ code: -2, data: null, message: 'boom' }, 500) });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');
    expect((await screen.findByRole('alert', {}, { timeout: 4000 })).textContent).toContain(en.compose.errors.saveFailed);
    expect((inputLabelled(en.compose.details.subject) as HTMLInputElement).value).toBe('NDA');
  });

  it.each([
    ['already present', en.workflows.errors.alreadyPresent, 1],
    // The organisation's filters refuse the person (invalid filter).
    ['invalid filter: domain', en.compose.errors.invalidFilter, 0],
  ] as const)('places the server issue (-6) "%s" at the recipient it names', async (issue, message, at) => {
    stubCompose({
      [`POST ${EPAK}`]: () => jsonResponse({ code: -6, data: null, message: 'Some of the ePak is not valid.', issues: [{ path: `steps.0.recipients.${at}`, message: issue }] }, 400),
    });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');
    await waitFor(() => expect(within(step(1)).getAllByRole('listitem')[at]!.textContent).toContain(message), { timeout: 4000 });
  });

  it('goes back to the documents when the server finds one chosen twice (-176)', async () => {
    stubCompose({ [`POST ${EPAK}`]: () => jsonResponse({ code: -176, data: null, message: 'twice' }, 409) });
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');
    expect(await screen.findByText(en.compose.errors.documentTwice, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('tab', { name: en.compose.tabs.drafts })).toBeTruthy();
  });
});
