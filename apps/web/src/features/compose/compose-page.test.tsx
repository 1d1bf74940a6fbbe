import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PASSWORD_CONFIG, DEFAULT_PERMISSION_SETTINGS } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { adminUser, TENANT_ACME } from '../../test/fake-api';
import { inputLabelled } from '../../test/render-app';
import {
  addAddress,
  annex,
  detailOf,
  EPAK,
  EPAK_ID,
  goOnTo,
  lease,
  ok,
  openCompose,
  pendingInput,
  recipientTexts,
  REVIEW,
  saleDeed,
  SIGN,
  stateSelect,
  step,
  stubCompose,
  toRecipients,
  waitForStates,
  type ComposeBody,
} from '../../test/compose-fixtures';

/** A new ePak's first two steps: its documents, then its steps and details, and the draft created on leaving them. */
describe('/compose, a new ePak', () => {
  it('opens on the documents step, and only the first two steps can be opened before the draft exists', async () => {
    stubCompose();
    await openCompose();
    const nav = screen.getByRole('navigation', { name: en.compose.flow.label });
    const stepButton = (number: number, name: string) =>
      within(nav).getByRole('button', { name: en.compose.flow.stepOf.replace('{{number}}', String(number)).replace('{{count}}', '4').replace('{{name}}', name) });
    expect(stepButton(1, en.compose.flow.steps.documents.label).getAttribute('aria-current')).toBe('step');
    expect(stepButton(3, en.compose.flow.steps.fields.label).getAttribute('aria-disabled')).toBe('true');
    expect(stepButton(4, en.compose.flow.steps.review.label).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('compose-save-status').textContent).toBe(en.compose.flow.status.new);
    // No draft yet, so nothing to save by hand either (the old button's words, gone from the bundles with it).
    expect(screen.queryByRole('button', { name: 'Save as draft' })).toBeNull();
  });

  it("fills the steps from a template: its people pre-filled, its placeholders empty slots named after them", async () => {
    stubCompose();
    await openCompose();
    await toRecipients('lease.pdf');
    fireEvent.change(screen.getByLabelText(en.compose.workflow.template, { selector: 'select' }), { target: { value: saleDeed.workflowId } });
    expect((stateSelect(1) as HTMLSelectElement).value).toBe(REVIEW);
    expect(recipientTexts(1)).toEqual(['lawyer@example.com']);
    expect((stateSelect(2) as HTMLSelectElement).value).toBe(SIGN);
    expect((within(step(2)).getByLabelText(/^Buyer/, { selector: 'input' }) as HTMLInputElement).value).toBe('');
    expect((within(step(2)).getByLabelText(/^Seller/, { selector: 'input' }) as HTMLInputElement).value).toBe('');
    // The template's policy comes with it, shown by its name with what it means.
    const policy = screen.getByLabelText(en.workflows.form.signingPolicy, { selector: 'select' }) as HTMLSelectElement;
    expect(policy.value).toBe('AADHAAR');
    expect(policy.selectedOptions[0]!.textContent).toBe(en.compose.policies.AADHAAR.name);
    expect(screen.getByText(en.compose.policies.AADHAAR.about)).toBeTruthy();
  });

  it('asks before a template replaces recipients already entered, and keeps them when told to', async () => {
    stubCompose();
    await openCompose();
    await toRecipients('lease.pdf');
    addAddress(1, 'ravi@example.com');
    const template = () => screen.getByLabelText(en.compose.workflow.template, { selector: 'select' }) as HTMLSelectElement;
    fireEvent.change(template(), { target: { value: saleDeed.workflowId } });
    const dialog = await screen.findByRole('dialog', { name: en.compose.workflow.switchTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: en.compose.workflow.switchKeep }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(recipientTexts(1)).toEqual(['ravi@example.com']);
    expect(template().value).toBe('');

    fireEvent.change(template(), { target: { value: saleDeed.workflowId } });
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: en.compose.workflow.switchConfirm }));
    await waitFor(() => expect(recipientTexts(1)).toEqual(['lawyer@example.com']));
    expect(template().value).toBe(saleDeed.workflowId);
  });

  it('keeps the recipients entered when going back to the documents and on again', async () => {
    stubCompose();
    await openCompose();
    await toRecipients('lease.pdf');
    addAddress(1, 'ravi@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.compose.flow.back }));
    expect(within(screen.getByRole('list', { name: /^Chosen/ })).getAllByRole('listitem')).toHaveLength(1);
    goOnTo('recipients');
    await waitForStates();
    expect(recipientTexts(1)).toEqual(['ravi@example.com']);
  });

  it.each([
    ['HideWithDefaultOn', false, undefined],
    // Shown and starting on; the composer turns it off.
    ['ShowWithDefaultOn', true, false],
  ] as const)("follows the tenant's view-enforce option %s", async (option, shown, sent) => {
    const { requestsTo } = stubCompose({
      ['GET /msbapi/v1/configuration']: () =>
        ok({
          tenantUuid: TENANT_ACME,
          tenantName: 'Acme',
          supportedLanguages: ['en'],
          permissionSettings: DEFAULT_PERMISSION_SETTINGS,
          passwordConfig: DEFAULT_PASSWORD_CONFIG,
          requireEmailOtp: false,
          viewEnforceOption: option,
          showUserUuidColumn: false,
        }),
    });
    await openCompose();
    await toRecipients('lease.pdf');
    if (shown) {
      const box = (await screen.findByRole('checkbox', { name: en.compose.details.viewEnforced })) as HTMLInputElement;
      expect(box.checked).toBe(true);
      fireEvent.click(box);
      expect(box.checked).toBe(false);
    } else {
      // Hidden: the choice is the tenant's, so nothing is sent for it and the server applies it.
      await waitFor(() => expect(requestsTo('GET', '/msbapi/v1/configuration')).toHaveLength(1));
      expect(screen.queryByRole('checkbox', { name: en.compose.details.viewEnforced })).toBeNull();
    }
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    goOnTo('fields');
    await waitFor(() => expect(requestsTo('POST', EPAK)).toHaveLength(1));
    expect((requestsTo('POST', EPAK)[0]!.body as { viewEnforced?: boolean }).viewEnforced).toBe(sent);
  });

  it('creates the draft on leaving the recipients step, replaces the address with it, goes on to the fields and shows it at review', async () => {
    const { requestsTo } = stubCompose();
    const { router } = await openCompose();
    await toRecipients('lease.pdf', 'annex.pdf');
    fireEvent.change(stateSelect(1), { target: { value: REVIEW } });
    addAddress(1, 'lawyer@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.workflows.form.addStep }));
    fireEvent.change(stateSelect(2), { target: { value: SIGN } });
    // Typed but not added: going on takes it.
    fireEvent.change(pendingInput(2), { target: { value: 'buyer@example.com;seller@example.com' } });
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: '  Lease of flat 4B ' } });
    fireEvent.change(screen.getByLabelText(en.compose.details.message), { target: { value: 'Please review.' } });
    fireEvent.click(screen.getByRole('checkbox', { name: en.compose.details.viewEnforced }));
    goOnTo('fields');

    await waitFor(() => expect(router.state.location.search).toBe(`?ePakId=${EPAK_ID}`));
    // Replaced, not pushed: Back leaves compose instead of returning to an empty form.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(requestsTo('POST', EPAK)).toHaveLength(1);
    expect(requestsTo('POST', EPAK)[0]!.body).toEqual({
      subject: 'Lease of flat 4B',
      message: 'Please review.',
      documentIds: [lease.documentId, annex.documentId],
      steps: [
        { workflowStateId: REVIEW, recipients: [{ email: 'lawyer@example.com' }] },
        { workflowStateId: SIGN, recipients: [{ email: 'buyer@example.com' }, { email: 'seller@example.com' }] },
      ],
      signingPolicy: 'ESIGNATURE',
      viewEnforced: true,
    });
    expect(await screen.findByText(en.compose.draft.tagsNext, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: en.compose.draft.title })).toBeTruthy();
    // ESIGNATURE wants a reason beside each signature: said before anything is placed.
    expect(screen.getByTestId('compose-reason-requirement').textContent).toContain(en.compose.policies.ESIGNATURE.name);
    expect(screen.getByTestId('compose-save-status').textContent).toBe(en.compose.flow.status.saved);

    goOnTo('review');
    const summary = await screen.findByRole('region', { name: en.compose.draft.summary }, { timeout: 4000 });
    expect(within(summary).getByText('Lease of flat 4B')).toBeTruthy();
    expect(within(summary).getByText(en.compose.status.Draft)).toBeTruthy();
    expect(within(summary).getByText(en.compose.policies.ESIGNATURE.name)).toBeTruthy();
    expect(within(summary).getByText('lease.pdf · 3 pages')).toBeTruthy();
    expect(within(summary).getByText('annex.pdf · 1 page')).toBeTruthy();
    expect(within(summary).getByText('2 signers')).toBeTruthy();
    expect(within(within(summary).getByRole('listitem', { name: 'Step 2' })).getByText('seller@example.com')).toBeTruthy();
    // Created once: the flow goes on with the draft it made.
    expect(requestsTo('POST', EPAK)).toHaveLength(1);
  });

  it('refuses to go on without a document, then without a subject or a filled placeholder', async () => {
    const { requestsTo } = stubCompose();
    await openCompose();
    goOnTo('recipients');
    expect(await screen.findByText(en.compose.errors.documentsRequired)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Step 1' })).toBeNull();

    await toRecipients('lease.pdf');
    fireEvent.change(screen.getByLabelText(en.compose.workflow.template, { selector: 'select' }), { target: { value: saleDeed.workflowId } });
    goOnTo('fields');
    expect(await screen.findByText(en.common.required)).toBeTruthy();
    expect(within(step(2)).getAllByText(en.compose.errors.slotEmpty)).toHaveLength(2);
    expect(requestsTo('POST', EPAK)).toHaveLength(0);
  });

  it('composes from a document template: its document, its workflow and its policy, for the people filled in', async () => {
    const TEMPLATE_ID = '5c4b3a29-1807-4f6e-8d5c-4b3a29180701';
    const template = {
      docTemplateId: TEMPLATE_ID,
      name: 'Sale deed, plot',
      description: null,
      documentName: 'deed.pdf',
      size: 1000,
      pageCount: 2,
      pages: [],
      tags: [],
      signingPolicy: 'AADHAAR',
      workflowId: saleDeed.workflowId,
      workflowName: saleDeed.name,
      workflowSteps: saleDeed.steps,
      ownerId: adminUser.id,
      ownerName: 'Asha Rao',
      editable: true,
      createdOn: '2025-03-05T10:00:00.000Z',
      modifiedOn: '2025-03-05T10:00:00.000Z',
    };
    const { requestsTo } = stubCompose({
      ['GET /msbapi/v1/documenttemplates']: () => ok({ templates: [template] }),
      [`POST /msbapi/v1/documenttemplates/${TEMPLATE_ID}/epak`]: ({ body }) => ok(detailOf({ ...(body as ComposeBody), documentIds: [] })),
    });
    const { router } = await openCompose();
    fireEvent.click(screen.getByRole('tab', { name: en.docTemplates.tab }));
    fireEvent.click(await screen.findByRole('button', { name: en.docTemplates.useNamed.replace('{{name}}', 'Sale deed, plot') }));
    expect(await screen.findByTestId('compose-template-document')).toBeTruthy();
    expect(within(screen.getByTestId('compose-template-document')).getByText('1. deed.pdf')).toBeTruthy();
    goOnTo('recipients');
    await waitForStates();
    expect((inputLabelled(en.compose.details.subject) as HTMLInputElement).value).toBe('Sale deed, plot');
    expect(recipientTexts(1)).toEqual(['lawyer@example.com']);
    fireEvent.change(within(step(2)).getByLabelText(/^Buyer/, { selector: 'input' }), { target: { value: 'buyer@example.com' } });
    fireEvent.change(within(step(2)).getByLabelText(/^Seller/, { selector: 'input' }), { target: { value: 'seller@example.com' } });
    goOnTo('fields');

    await waitFor(() => expect(router.state.location.search).toBe(`?ePakId=${EPAK_ID}`));
    expect(requestsTo('POST', EPAK)).toHaveLength(0);
    expect(requestsTo('POST', `/msbapi/v1/documenttemplates/${TEMPLATE_ID}/epak`)[0]!.body).toEqual({
      subject: 'Sale deed, plot',
      documentIds: [],
      steps: [
        { workflowStateId: REVIEW, recipients: [{ email: 'lawyer@example.com' }] },
        { workflowStateId: SIGN, recipients: [{ email: 'buyer@example.com' }, { email: 'seller@example.com' }] },
      ],
      signingPolicy: 'AADHAAR',
      workflowId: saleDeed.workflowId,
    });
  }, 20_000);
});
