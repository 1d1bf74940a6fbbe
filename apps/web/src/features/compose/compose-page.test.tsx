import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PASSWORD_CONFIG, DEFAULT_PERMISSION_SETTINGS, type DocumentSummary, type EpakDetail, type WorkflowStateDefinition, type WorkflowTemplate } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from '../../test/fake-api';
import { inputLabelled, renderApp } from '../../test/render-app';

const DOCUMENTS = '/msbapi/v1/documents';
const WORKFLOWS = '/msbapi/v2/workflows';
const STATES = '/msbapi/v1/workflow/states';
const EPAK = '/msbapi/v2/epak';
const USERS = '/msbapi/v1/users';
const EPAK_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const REVIEW = '1d1c5a2e-0a6b-4c5e-9f1a-000000000001';
const SIGN = '1d1c5a2e-0a6b-4c5e-9f1a-000000000002';
const states: WorkflowStateDefinition[] = [
  { workflowStateId: REVIEW, name: 'Legal review', type: 'REVIEW', order: 1, description: null },
  { workflowStateId: SIGN, name: 'Sign', type: 'SIGN', order: 2, description: null },
];

const saleDeed: WorkflowTemplate = {
  workflowId: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f60',
  name: 'Sale deed',
  description: null,
  signingPolicy: 'AADHAAR',
  steps: [
    { order: 1, workflowStateId: REVIEW, name: 'Legal review', type: 'REVIEW', recipients: [{ type: 'user', email: 'lawyer@example.com' }] },
    {
      order: 2,
      workflowStateId: SIGN,
      name: 'Sign',
      type: 'SIGN',
      recipients: [
        { type: 'placeholder', label: 'Buyer' },
        { type: 'placeholder', label: 'Seller' },
      ],
    },
  ],
  signerCount: 2,
  ownerId: adminUser.id,
  ownerName: 'Asha Rao',
  createdOn: '2025-03-01T09:00:00.000Z',
  modifiedOn: '2025-03-04T10:00:00.000Z',
};

function documentOf(n: number, name: string, pageCount: number): DocumentSummary {
  return {
    documentId: `2f3e4d5c-6b7a-4891-a2b3-c4d5e6f7a80${n}`,
    name,
    sourceFormat: 'pdf',
    size: 1000,
    sha256: 'a'.repeat(64),
    pageCount,
    pages: Array.from({ length: pageCount }, () => ({ width: 595, height: 842, x: 0, y: 0, rotate: 0 as const })),
    encrypted: false,
    formFieldCount: 0,
    signatureState: null,
    createdOn: '2025-03-05T10:00:00.000Z',
  };
}

const lease = documentOf(1, 'lease.pdf', 3);
const annex = documentOf(2, 'annex.pdf', 1);

function detailOf(body: { subject: string; documentIds: string[]; steps: { workflowStateId: string; recipients: { email: string }[] }[] }): EpakDetail {
  return {
    ePakId: EPAK_ID,
    subject: body.subject,
    message: null,
    status: 'Draft',
    signingPolicy: 'ESIGNATURE',
    workflowId: null,
    documents: [lease, annex]
      .filter((document) => body.documentIds.includes(document.documentId))
      .map((document, index) => ({
        documentId: `9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6${index}`,
        sourceDocumentId: document.documentId,
        name: document.name,
        pageCount: document.pageCount,
        pages: document.pages,
        revisions: 0,
        signatureState: null,
      })),
    steps: body.steps.map((step, index) => {
      const state = states.find((candidate) => candidate.workflowStateId === step.workflowStateId)!;
      return {
        order: index + 1,
        workflowStateId: state.workflowStateId,
        name: state.name,
        type: state.type,
        recipients: step.recipients.map((recipient, at) => ({
          recipientId: `7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c${index}${at}`,
          userId: `7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d${index}${at}`,
          email: recipient.email,
          firstName: recipient.email.split('@')[0]!,
          lastName: '',
          type: 'external' as const,
          status: 'Pending' as const,
        })),
      };
    }),
    signerCount: body.steps.filter((step) => step.workflowStateId === SIGN).reduce((sum, step) => sum + step.recipients.length, 0),
    currentStep: null,
    expiresOn: null,
    notificationStartDate: null,
    viewEnforced: false,
    ownerId: adminUser.id,
    createdOn: '2025-03-05T10:00:00.000Z',
    modifiedOn: '2025-03-05T10:00:00.000Z',
    ownerName: 'Asha Rao',
  };
}

const ok = (data: unknown) => jsonResponse({ code: 1, data });

function stubCompose(routes: Record<string, FakeRoute> = {}) {
  let saved: EpakDetail | null = null;
  // Spread last: a test's answer replaces the default one for the same request.
  const api = stubApi({
    [`GET ${WORKFLOWS}`]: () => ok({ workflows: [saleDeed] }),
    [`GET ${STATES}`]: () => ok({ states }),
    [`GET ${DOCUMENTS}`]: () => ok({ documents: [lease, annex], total: 2, pageSize: 50 }),
    [`GET ${USERS}`]: () => ok({ users: [] }),
    [`POST ${EPAK}`]: ({ body }) => {
      saved = detailOf(body as Parameters<typeof detailOf>[0]);
      return ok(saved);
    },
    [`GET /msbapi/v2/epaks/${EPAK_ID}`]: () => (saved ? ok(saved) : errorResponse(-1, 404, 'Not found')),
    ...routes,
  });
  return api;
}

async function openCompose(path = '/compose') {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(path);
  await screen.findByRole('heading', { level: 1 });
  return rendered;
}

const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const form = () => screen.getByRole('form', { name: en.compose.title });
const step = (number: number) => within(form()).getByRole('group', { name: withNumber(en.workflows.form.step, number) });
const stateSelect = (number: number) => within(step(number)).getByLabelText(new RegExp(`^${en.workflows.form.state}`), { selector: 'select' });
const pendingInput = (number: number) => within(step(number)).getByLabelText(withNumber(en.compose.workflow.addRecipient, number), { selector: 'input' });
const recipientTexts = (number: number) =>
  within(step(number))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

async function chooseFromDrafts(...names: string[]) {
  fireEvent.click(screen.getByRole('tab', { name: en.compose.tabs.drafts }));
  for (const name of names) fireEvent.click(await screen.findByRole('checkbox', { name }));
}

function addAddress(number: number, text: string) {
  fireEvent.change(pendingInput(number), { target: { value: text } });
  fireEvent.click(within(step(number)).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, number) }));
}

async function waitForStates() {
  await waitFor(() => expect(within(stateSelect(1)).getAllByRole('option').length).toBeGreaterThan(1));
}

describe('/compose', () => {
  it('uploads several files one by one and shows a refusal with the server message', async () => {
    const { requestsTo } = stubCompose({
      [`POST ${DOCUMENTS}`]: ({ body }) => {
        const file = (body as { file: File }).file;
        return file.name === 'lease.pdf' ? ok(lease) : errorResponse(-59, 422, 'The file is damaged and cannot be read.');
      },
    });
    const { container } = await openCompose();
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.multiple).toBe(true);
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'lease.pdf', { type: 'application/pdf' }), new File(['x'], 'broken.pdf', { type: 'application/pdf' })] },
    });
    const uploads = await screen.findByRole('list', { name: en.compose.upload.list });
    await within(uploads).findByText(en.compose.upload.done_other.replace('{{count}}', '3'));
    const refusal = await within(uploads).findByRole('alert');
    expect(refusal.textContent).toBe(`${en.compose.upload.invalid} The file is damaged and cannot be read.`);
    expect(requestsTo('POST', DOCUMENTS)).toHaveLength(2);
    // The uploaded one is chosen for the ePak, with its page count; the refused one is not.
    const chosen = screen.getByRole('list', { name: en.compose.documents.chosen_one.replace('{{count}}', '1') });
    expect(within(chosen).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['1. lease.pdf3 pages']);
  });

  it('picks documents from the drafts tab, in order, and moves and removes them', async () => {
    stubCompose();
    await openCompose();
    await chooseFromDrafts('lease.pdf', 'annex.pdf');
    const chosenList = () => screen.getByRole('list', { name: /^Chosen/ });
    const names = () => within(chosenList()).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'));
    expect(names()).toEqual(['lease.pdf', 'annex.pdf']);
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.moveUp.replace('{{name}}', 'annex.pdf') }));
    expect(names()).toEqual(['annex.pdf', 'lease.pdf']);
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.remove.replace('{{name}}', 'annex.pdf') }));
    expect(names()).toEqual(['lease.pdf']);
    expect((screen.getByRole('checkbox', { name: 'annex.pdf' }) as HTMLInputElement).checked).toBe(false);
  });

  it("fills the steps from a template: its people pre-filled, its placeholders empty slots named after them", async () => {
    stubCompose();
    await openCompose();
    await waitForStates();
    fireEvent.change(screen.getByLabelText(en.compose.workflow.template, { selector: 'select' }), { target: { value: saleDeed.workflowId } });
    expect((stateSelect(1) as HTMLSelectElement).value).toBe(REVIEW);
    expect(recipientTexts(1)).toEqual(['lawyer@example.com']);
    expect((stateSelect(2) as HTMLSelectElement).value).toBe(SIGN);
    expect((within(step(2)).getByLabelText(/^Buyer/, { selector: 'input' }) as HTMLInputElement).value).toBe('');
    expect((within(step(2)).getByLabelText(/^Seller/, { selector: 'input' }) as HTMLInputElement).value).toBe('');
    // The template's policy comes with it.
    expect((screen.getByLabelText(en.workflows.form.signingPolicy, { selector: 'select' }) as HTMLSelectElement).value).toBe('AADHAAR');
  });

  it('asks before a template replaces recipients already entered, and keeps them when told to', async () => {
    stubCompose();
    await openCompose();
    await waitForStates();
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

  it('says so when the directory cannot suggest anyone, and still takes a typed address', async () => {
    stubCompose({ [`GET ${USERS}`]: () => errorResponse(-500, 500, 'boom') });
    await openCompose();
    await waitForStates();
    fireEvent.change(pendingInput(1), { target: { value: 'ra' } });
    expect(await screen.findByText(en.compose.workflow.directoryFailed, {}, { timeout: 3000 })).toBeTruthy();
    addAddress(1, 'ravi@example.com');
    expect(recipientTexts(1)).toEqual(['ravi@example.com']);
  });

  it('uploads files dropped on the upload area', async () => {
    const { requestsTo } = stubCompose({ [`POST ${DOCUMENTS}`]: () => ok(lease) });
    await openCompose();
    const zone = screen.getByTestId('upload-drop-zone');
    const file = new File(['%PDF'], 'lease.pdf', { type: 'application/pdf' });
    fireEvent.dragOver(zone, { dataTransfer: { types: ['Files'], files: [file], dropEffect: 'none' } });
    expect(zone.getAttribute('data-drag-over')).toBe('true');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [file] } });
    const uploads = await screen.findByRole('list', { name: en.compose.upload.list });
    await within(uploads).findByText(en.compose.upload.done_other.replace('{{count}}', '3'));
    expect(requestsTo('POST', DOCUMENTS)).toHaveLength(1);
    expect(zone.getAttribute('data-drag-over')).toBeNull();
  });

  it('sends a saved draft, spelling out -107 (who lacks a signature field) before it succeeds', async () => {
    const draftDetail = detailOf({
      subject: 'Lease',
      documentIds: [lease.documentId],
      steps: [{ workflowStateId: SIGN, recipients: [{ email: 'ravi@example.com' }, { email: 'meera@example.com' }] }],
    });
    let attempts = 0;
    const { requestsTo } = stubCompose({
      [`GET /msbapi/v2/epaks/${EPAK_ID}`]: () => ok(draftDetail),
      [`GET /msbapi/v2/epaks/${EPAK_ID}/documents/${draftDetail.documents[0]!.documentId}/signatureblocks`]: () => ok({ tags: [] }),
      [`POST /msbapi/v2/epaks/${EPAK_ID}/start`]: () =>
        ++attempts === 1
          ? jsonResponse(
              {
                code: -107,
                message: 'mismatch',
                data: { documentSigners: 1, workflowSigners: 2, withoutSignatureField: ['meera@example.com'], notInWorkflow: [], unassignedFields: [] },
              },
              422,
            )
          : ok({
              ...draftDetail,
              status: 'InProgress',
              currentStep: 1,
            }),
    });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: en.compose.start.send }));
    const refusal = await screen.findByRole('alert', { name: en.compose.start.refused });
    expect(refusal.textContent).toContain(en.compose.start.withoutSignatureField.replace('{{email}}', 'meera@example.com'));
    fireEvent.click(screen.getByRole('button', { name: en.compose.start.send }));
    expect(await screen.findByText(en.compose.start.sent)).toBeTruthy();
    expect(screen.queryByRole('button', { name: en.compose.start.send })).toBeNull();
    // The page no longer speaks of a draft.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(en.compose.sent.title);
    expect(screen.queryByText(en.compose.draft.tagsNext)).toBeNull();
    // Each person's standing shows once it is sent.
    expect(screen.getAllByText(en.compose.recipientStatus.Pending)).toHaveLength(2);
    expect(requestsTo('POST', `/msbapi/v2/epaks/${EPAK_ID}/start`)).toHaveLength(2);
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
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
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
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    await waitFor(() => expect(requestsTo('POST', EPAK)).toHaveLength(1));
    expect((requestsTo('POST', EPAK)[0]!.body as { viewEnforced?: boolean }).viewEnforced).toBe(sent);
  });

  it('adds several pasted addresses at once, keeps the invalid one and refuses one already present', async () => {
    stubCompose();
    await openCompose();
    await waitForStates();
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
    await waitForStates();
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

  it('sends the ePak as composed and shows the saved draft, again after a reload', async () => {
    const { requestsTo } = stubCompose();
    const { router } = await openCompose();
    await chooseFromDrafts('lease.pdf', 'annex.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: REVIEW } });
    addAddress(1, 'lawyer@example.com');
    fireEvent.click(screen.getByRole('button', { name: en.workflows.form.addStep }));
    fireEvent.change(stateSelect(2), { target: { value: SIGN } });
    // Typed but not added: Save takes it.
    fireEvent.change(pendingInput(2), { target: { value: 'buyer@example.com;seller@example.com' } });
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: '  Lease of flat 4B ' } });
    fireEvent.change(screen.getByLabelText(en.compose.details.message), { target: { value: 'Please review.' } });
    fireEvent.click(screen.getByRole('checkbox', { name: en.compose.details.viewEnforced }));
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));

    await waitFor(() => expect(router.state.location.search).toBe(`?ePakId=${EPAK_ID}`));
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

    const summary = await screen.findByRole('region', { name: en.compose.draft.summary }, { timeout: 4000 });
    expect(screen.getByRole('heading', { level: 1, name: en.compose.draft.title })).toBeTruthy();
    expect(within(summary).getByText('Lease of flat 4B')).toBeTruthy();
    expect(within(summary).getByText(en.compose.status.Draft)).toBeTruthy();
    expect(within(summary).getByText('lease.pdf · 3 pages')).toBeTruthy();
    expect(within(summary).getByText('annex.pdf · 1 page')).toBeTruthy();
    expect(within(summary).getByText('2 signers')).toBeTruthy();
    expect(within(within(summary).getByRole('listitem', { name: 'Step 2' })).getByText('seller@example.com')).toBeTruthy();
    expect(screen.getByText(en.compose.draft.tagsNext)).toBeTruthy();
  });

  it('shows a disabled recipient (-13) at that recipient', async () => {
    stubCompose({
      [`POST ${EPAK}`]: () =>
        jsonResponse({ code: -13, data: { email: 'meera@example.com' }, message: 'meera@example.com is disabled: contact your administrator.' }, 403),
    });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));

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
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    const recipients = within(step(1)).getAllByRole('listitem');
    const message = key === 'newUsersNotInvited' ? en.compose.errors.newUsersNotInvited : en[key];
    await waitFor(() => expect(recipients[1]!.textContent).toContain(message), { timeout: 4000 });
    expect(recipients[0]!.getAttribute('data-invalid')).not.toBe('true');
  });

  it('explains any other failure above the form, keeping what was entered', async () => {
    stubCompose({ [`POST ${EPAK}`]: () => jsonResponse({ code: -2, data: null, message: 'boom' }, 500) });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    expect((await screen.findByRole('alert', {}, { timeout: 4000 })).textContent).toContain(en.compose.errors.saveFailed);
    expect((inputLabelled(en.compose.details.subject) as HTMLInputElement).value).toBe('NDA');
  });

  it('places the server issues (-6) at the recipient they name', async () => {
    stubCompose({
      [`POST ${EPAK}`]: () =>
        jsonResponse({ code: -6, data: null, message: 'Some of the ePak is not valid.', issues: [{ path: 'steps.0.recipients.1', message: 'already present' }] }, 400),
    });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'ravi@example.com;meera@example.com');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    const recipients = within(step(1)).getAllByRole('listitem');
    await waitFor(() => expect(recipients[1]!.textContent).toContain(en.workflows.errors.alreadyPresent), { timeout: 4000 });
  });

  it("says at the recipient when the organisation's filters refuse them (invalid filter)", async () => {
    stubCompose({
      [`POST ${EPAK}`]: () =>
        jsonResponse({ code: -6, data: null, message: 'Some of the ePak is not valid.', issues: [{ path: 'steps.0.recipients.0', message: 'invalid filter: domain' }] }, 400),
    });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    await waitForStates();
    fireEvent.change(stateSelect(1), { target: { value: SIGN } });
    addAddress(1, 'someone@elsewhere.test');
    fireEvent.change(inputLabelled(en.compose.details.subject), { target: { value: 'NDA' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    await waitFor(() => expect(within(step(1)).getAllByRole('listitem')[0]!.textContent).toContain(en.compose.errors.invalidFilter), { timeout: 4000 });
  });

  it('refuses to send without a subject, a document or a filled placeholder', async () => {
    const { requestsTo } = stubCompose();
    await openCompose();
    await waitForStates();
    fireEvent.change(screen.getByLabelText(en.compose.workflow.template, { selector: 'select' }), { target: { value: saleDeed.workflowId } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));
    expect(await screen.findByText(en.compose.errors.documentsRequired)).toBeTruthy();
    expect(screen.getByText(en.common.required)).toBeTruthy();
    expect(within(step(2)).getAllByText(en.compose.errors.slotEmpty)).toHaveLength(2);
    expect(requestsTo('POST', EPAK)).toHaveLength(0);
  });

  it('composes from a document template in one step: its document, its workflow and its policy, for the people filled in', async () => {
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
      [`POST /msbapi/v1/documenttemplates/${TEMPLATE_ID}/epak`]: ({ body }) => ok(detailOf({ ...(body as Parameters<typeof detailOf>[0]), documentIds: [] })),
    });
    const { router } = await openCompose();
    await waitForStates();
    fireEvent.click(screen.getByRole('tab', { name: en.docTemplates.tab }));
    fireEvent.click(await screen.findByRole('button', { name: en.docTemplates.useNamed.replace('{{name}}', 'Sale deed, plot') }));
    expect(await screen.findByTestId('compose-template-document')).toBeTruthy();
    expect(within(screen.getByTestId('compose-template-document')).getByText('1. deed.pdf')).toBeTruthy();
    expect((inputLabelled(en.compose.details.subject) as HTMLInputElement).value).toBe('Sale deed, plot');
    expect(recipientTexts(1)).toEqual(['lawyer@example.com']);
    fireEvent.change(within(step(2)).getByLabelText(/^Buyer/, { selector: 'input' }), { target: { value: 'buyer@example.com' } });
    fireEvent.change(within(step(2)).getByLabelText(/^Seller/, { selector: 'input' }), { target: { value: 'seller@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.saveDraft }));

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

  it('shows a saved draft when opened by its address', async () => {
    stubCompose({ [`GET /msbapi/v2/epaks/${EPAK_ID}`]: () => ok(detailOf({ subject: 'Lease', documentIds: [lease.documentId], steps: [{ workflowStateId: SIGN, recipients: [{ email: 'a@example.com' }] }] })) });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    const summary = await screen.findByRole('region', { name: en.compose.draft.summary }, { timeout: 4000 });
    expect(within(summary).getByText('Lease')).toBeTruthy();
    expect(within(summary).getByText('1 signer')).toBeTruthy();
  });
});
