import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SessionUser, WorkflowStateDefinition, WorkflowTemplate } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { apiClient } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import hi from '../../i18n/hi.json';
import { chooseLanguage } from '../../i18n/i18n';
import {
  adminUser,
  errorResponse,
  jsonResponse,
  signedInSession,
  stubApi,
  TENANT_ACME,
  TENANT_GLOBEX,
  type FakeRoute,
} from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

const LIST = '/msbapi/v2/workflows';
const STATES = '/msbapi/v1/workflow/states';
const one = (path: string) => `${LIST}/${path}`;

const REVIEW = '1d1c5a2e-0a6b-4c5e-9f1a-000000000001';
const SIGN = '1d1c5a2e-0a6b-4c5e-9f1a-000000000002';
const EMAIL = '1d1c5a2e-0a6b-4c5e-9f1a-000000000003';
const IN_PERSON = '1d1c5a2e-0a6b-4c5e-9f1a-000000000004';

const states: WorkflowStateDefinition[] = [
  { workflowStateId: REVIEW, name: 'Legal review', type: 'REVIEW', order: 1, description: null },
  { workflowStateId: SIGN, name: 'Sign', type: 'SIGN', order: 2, description: null },
  { workflowStateId: EMAIL, name: 'Email', type: 'EMAIL', order: 3, description: null },
  { workflowStateId: IN_PERSON, name: 'In-person sign', type: 'INPERSONSIGN', order: 4, description: null },
];

const custodianUser: SessionUser = {
  ...adminUser,
  id: '3a9f1c2e-7b4d-4e8a-9c1f-2d3e4f5a6b7c',
  email: 'meera@example.com',
  firstName: 'Meera',
  lastName: 'Shah',
  tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'custodian', userLoginType: 'Email' }],
};
const submitterUser: SessionUser = {
  ...custodianUser,
  tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'submitter', userLoginType: 'Email' }],
};

function template(overrides: Partial<WorkflowTemplate> = {}): WorkflowTemplate {
  return {
    workflowId: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f60',
    name: 'Sale deed',
    description: 'Property sales in Pune',
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
    ...overrides,
  };
}

const ok = (data: unknown) => jsonResponse({ code: 1, data });

/** A tenant's workflows as the server keeps them; `routes` add or override answers. */
function stubWorkflows(initial: WorkflowTemplate[], routes: Record<string, FakeRoute> = {}) {
  let workflows = initial;
  const api = stubApi({
    [`GET ${LIST}`]: () => ok({ workflows }),
    [`GET ${STATES}`]: () => ok({ states }),
    ...routes,
  });
  return { ...api, set: (next: WorkflowTemplate[]) => (workflows = next) };
}

async function openWorkflows(user: SessionUser = adminUser, tenantUuid = TENANT_ACME) {
  sessionStore.set(signedInSession(user, { tenantUuid }));
  const rendered = renderApp('/workflows');
  await screen.findByRole('heading', { level: 1, name: en.workflows.title });
  return rendered;
}

const card = (name: string) => screen.getByRole('listitem', { name });
const form = () => screen.getByRole('form', { name: /./ });
const step = (number: number) => within(form()).getByRole('group', { name: en.workflows.form.step.replace('{{number}}', String(number)) });
const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
const stateSelect = (number: number) => within(step(number)).getByLabelText(new RegExp(`^${en.workflows.form.state}`), { selector: 'select' });

function addRecipient(number: number, kind: 'user' | 'placeholder', text: string) {
  fireEvent.click(within(step(number)).getByRole('radio', { name: en.workflows.form.kind[kind] }));
  const label = kind === 'user' ? en.workflows.form.emailLabel : en.workflows.form.placeholderLabel;
  fireEvent.change(within(step(number)).getByLabelText(label), { target: { value: text } });
  fireEvent.click(within(step(number)).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, number) }));
}

function recipientsOf(number: number) {
  return within(step(number)).queryAllByRole('listitem');
}

/** Fills the form as "Sale deed": a review by one address, then two placeholders sign. */
async function fillSaleDeed() {
  fireEvent.change(within(form()).getByLabelText(new RegExp(`^${en.workflows.form.name}`)), { target: { value: '  Sale deed ' } });
  fireEvent.change(within(form()).getByLabelText(en.workflows.form.description), { target: { value: 'Property sales' } });
  fireEvent.change(within(form()).getByLabelText(new RegExp(`^${en.workflows.form.signingPolicy}`), { selector: 'select' }), {
    target: { value: 'AADHAAR' },
  });
  fireEvent.change(stateSelect(1), { target: { value: REVIEW } });
  addRecipient(1, 'user', ' Lawyer@Example.com ');
  fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.addStep }));
  fireEvent.change(stateSelect(2), { target: { value: SIGN } });
  addRecipient(2, 'placeholder', 'Buyer');
  addRecipient(2, 'placeholder', 'Seller');
  await waitFor(() => expect(recipientsOf(2)).toHaveLength(2));
}

describe('/workflows', () => {
  it("lists the tenant's templates: steps with their recipient counts, policy, owner and date", async () => {
    stubWorkflows([template(), template({ workflowId: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f61', name: 'NDA', description: null, steps: [template().steps[1]!] })]);
    await openWorkflows();
    const saleDeed = await screen.findByRole('listitem', { name: 'Sale deed' });
    expect(within(saleDeed).getByRole('heading', { name: 'Sale deed' })).toBeTruthy();
    expect(within(saleDeed).getByText('Property sales in Pune')).toBeTruthy();
    expect(within(saleDeed).getByText('AADHAAR')).toBeTruthy();
    // The catalogue's state names as the server gives them, each with its recipient count, in order.
    const sequence = within(saleDeed).getByRole('list', { name: en.workflows.list.steps });
    expect(within(sequence).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Legal review · 1Step 1: Legal review (Review), 1 recipient',
      '→Sign · 2Step 2: Sign (Sign), 2 recipients',
    ]);
    expect(within(saleDeed).getByText('By Asha Rao · Modified Mar 4, 2025 · 2 signers')).toBeTruthy();
    expect(screen.getByText('2 workflows')).toBeTruthy();
    expect(card('NDA')).toBeTruthy();
  });

  it('shows the built-in step names in Hindi and the names admins typed as typed', async () => {
    await chooseLanguage('hi');
    stubWorkflows([template()]);
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
    renderApp('/workflows');
    const saleDeed = await screen.findByRole('listitem', { name: 'Sale deed' });
    const sequence = within(saleDeed).getByRole('list', { name: hi.workflows.list.steps });
    const badges = within(sequence).getAllByRole('listitem').map((item) => item.querySelector('.mantine-Badge-label')?.textContent);
    expect(badges).toEqual([
      hi.workflows.list.stepBadge.replace('{{name}}', 'Legal review').replace('{{count}}', '1'),
      hi.workflows.list.stepBadge.replace('{{name}}', hi.workflowStateTypes.SIGN).replace('{{count}}', '2'),
    ]);

    // The state choices of the form: a built-in state once, in Hindi; a named one with its type.
    fireEvent.click(within(saleDeed).getByRole('button', { name: hi.workflows.list.editAria.replace('{{name}}', 'Sale deed') }));
    await screen.findByRole('form', { name: hi.workflows.form.editTitle });
    const select = within(form()).getAllByRole('combobox').find((element) => element.querySelector(`option[value="${SIGN}"]`));
    const options = [...(select?.querySelectorAll('option') ?? [])].map((option) => option.textContent);
    expect(options).toContain(hi.workflowStateTypes.SIGN);
    expect(options).toContain(hi.workflowStateTypes.INPERSONSIGN);
    expect(options).toContain(`Legal review (${hi.workflowStateTypes.REVIEW})`);
    expect(options).not.toContain('Sign');
  });

  it('offers to create the first workflow when there is none', async () => {
    stubWorkflows([]);
    await openWorkflows();
    expect(await screen.findByText(en.workflows.empty.title)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.workflows.empty.action }));
    expect(await screen.findByRole('form', { name: en.workflows.form.createTitle })).toBeTruthy();
  });

  it('says when the list cannot be loaded and tries again on request', async () => {
    let down = true;
    const { requestsTo } = stubWorkflows([template()], {
      [`GET ${LIST}`]: () => {
        if (down) throw new TypeError('Failed to fetch');
        return ok({ workflows: [template()] });
      },
    });
    await openWorkflows();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(en.workflows.loadFailed)).toBeTruthy();
    down = false;
    fireEvent.click(within(alert).getByRole('button', { name: en.workflows.retry }));
    expect(await screen.findByRole('listitem', { name: 'Sale deed' })).toBeTruthy();
    expect(requestsTo('GET', LIST).length).toBeGreaterThan(1);
  });

  it('is linked from the header menu', async () => {
    stubWorkflows([]);
    await openWorkflows();
    fireEvent.click(screen.getByRole('button', { name: en.menu.open }));
    expect((await screen.findByRole('menuitem', { name: en.menu.workflows })).getAttribute('href')).toBe('/workflows');
  });

  it('creates a template with the body the contract asks for, then shows it listed', async () => {
    const created = template();
    const api = stubWorkflows([], {
      [`POST ${LIST}`]: () => (api.set([created]), ok(created)),
    });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.empty.action }));
    // Each state shows its type beside the name the catalogue gives it, unless the name says it already.
    expect(within(stateSelect(1)).getByRole('option', { name: 'Legal review (Review)' })).toBeTruthy();
    expect(within(stateSelect(1)).getByRole('option', { name: 'In-person sign' })).toBeTruthy();
    await fillSaleDeed();
    expect(within(step(1)).getByText('lawyer@example.com')).toBeTruthy();
    expect(within(step(2)).getByText(en.workflowStateTypes.SIGN, { selector: '.mantine-Badge-label' })).toBeTruthy();

    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));

    expect(await screen.findByRole('status')).toHaveProperty('textContent', en.workflows.saved.replace('{{name}}', 'Sale deed'));
    expect(api.requestsTo('POST', LIST).map((request) => request.body)).toEqual([
      {
        name: 'Sale deed',
        description: 'Property sales',
        signingPolicy: 'AADHAAR',
        steps: [
          { workflowStateId: REVIEW, recipients: [{ type: 'user', email: 'lawyer@example.com' }] },
          {
            workflowStateId: SIGN,
            recipients: [
              { type: 'placeholder', label: 'Buyer' },
              { type: 'placeholder', label: 'Seller' },
            ],
          },
        ],
      },
    ]);
    expect(screen.queryByRole('form')).toBeNull();
    expect(await screen.findByRole('listitem', { name: 'Sale deed' })).toBeTruthy();
  });

  it('checks the form before sending: a name, a state and a recipient for every step, valid addresses', async () => {
    const { requestsTo } = stubWorkflows([template()]);
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.new }));
    addRecipient(1, 'user', 'not-an-address');
    expect(within(step(1)).getByText(en.common.emailInvalid)).toBeTruthy();
    fireEvent.change(within(step(1)).getByLabelText(en.workflows.form.emailLabel), { target: { value: '' } });

    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));

    expect(await within(form()).findByText(en.common.required)).toBeTruthy();
    expect(within(step(1)).getByText(en.workflows.errors.stateRequired)).toBeTruthy();
    expect(within(step(1)).getByText(en.workflows.errors.recipientsRequired)).toBeTruthy();
    // The same person twice in one step is refused as it is added.
    addRecipient(1, 'placeholder', 'Buyer');
    addRecipient(1, 'placeholder', 'buyer');
    expect(within(step(1)).getByText(en.workflows.errors.alreadyPresent)).toBeTruthy();
    expect(recipientsOf(1)).toHaveLength(1);
    // Removing the only step leaves nothing to send.
    fireEvent.click(within(step(1)).getByRole('button', { name: withNumber(en.workflows.form.removeStep, 1) }));
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));
    expect(await within(form()).findByText(en.workflows.errors.stepsRequired)).toBeTruthy();
    expect(requestsTo('POST', LIST)).toHaveLength(0);
  });

  it('adds a valid address still in its field when the form is sent', async () => {
    const { requestsTo } = stubWorkflows([], { [`POST ${LIST}`]: () => ok(template()) });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.empty.action }));
    fireEvent.change(within(form()).getByLabelText(new RegExp(`^${en.workflows.form.name}`)), { target: { value: 'Quick' } });
    fireEvent.change(stateSelect(1), { target: { value: EMAIL } });
    fireEvent.change(within(step(1)).getByLabelText(en.workflows.form.emailLabel), { target: { value: 'records@example.com' } });
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));
    await screen.findByRole('status');
    expect(requestsTo('POST', LIST)[0]?.body).toEqual({
      name: 'Quick',
      description: null,
      signingPolicy: 'ESIGNATURE',
      steps: [{ workflowStateId: EMAIL, recipients: [{ type: 'user', email: 'records@example.com' }] }],
    });
  });

  it('shows a taken name (-63) at the name field and keeps the form open', async () => {
    stubWorkflows([], { [`POST ${LIST}`]: () => errorResponse(-63, 409, 'A workflow template with this name exists already.') });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.empty.action }));
    await fillSaleDeed();
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));
    const name = within(form()).getByLabelText(new RegExp(`^${en.workflows.form.name}`));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ').find((id) => id.includes('error'))!)?.textContent).toBe(
      en.workflows.errors.nameTaken,
    );
    expect(within(form()).queryByRole('alert', { name: en.workflows.errors.saveFailed })).toBeNull();
  });

  it("puts the server's issues on the recipient they name", async () => {
    stubWorkflows([], {
      [`POST ${LIST}`]: () =>
        jsonResponse(
          {
            code: -6,
            data: null,
            message: 'Some steps are not valid.',
            issues: [{ path: 'steps.1.recipients.1', message: 'already present' }],
          },
          400,
        ),
    });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.empty.action }));
    await fillSaleDeed();
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));
    await within(step(2)).findByText(en.workflows.errors.alreadyPresent);
    const [buyer, seller] = recipientsOf(2);
    expect(within(seller!).getByText(en.workflows.errors.alreadyPresent)).toBeTruthy();
    expect(within(buyer!).queryByText(en.workflows.errors.alreadyPresent)).toBeNull();
    expect(within(step(1)).queryByText(en.workflows.errors.alreadyPresent)).toBeNull();
    // Every issue found its place, so there is no form-wide refusal as well.
    expect(within(form()).queryByText(en.workflows.errors.invalid)).toBeNull();
  });

  it('explains other refusals in the form', async () => {
    stubWorkflows([], {
      [`POST ${LIST}`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: en.workflows.empty.action }));
    await fillSaleDeed();
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.create }));
    expect((await within(form()).findByRole('alert')).textContent).toBe(en.common.unreachable);
  });

  it('edits a template: the steps can be reordered and the whole template is sent back', async () => {
    const api = stubWorkflows([template()], { [`PUT ${one(template().workflowId)}`]: () => ok(template()) });
    await openWorkflows();
    fireEvent.click(await within(await screen.findByRole('listitem', { name: 'Sale deed' })).findByRole('button', { name: 'Edit Sale deed' }));
    expect(await screen.findByRole('form', { name: en.workflows.form.editTitle })).toBeTruthy();
    expect(within(form()).getByLabelText<HTMLInputElement>(new RegExp(`^${en.workflows.form.name}`)).value).toBe('Sale deed');
    expect(within(step(1)).getByRole('button', { name: withNumber(en.workflows.form.moveUp, 1) }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(step(2)).getByRole('button', { name: withNumber(en.workflows.form.moveUp, 2) }));
    expect(within(step(1)).getByText('Buyer')).toBeTruthy();
    fireEvent.click(within(step(2)).getByRole('button', { name: en.workflows.form.removeRecipient.replace('{{name}}', 'lawyer@example.com') }));
    addRecipient(2, 'user', 'partner@example.com');
    fireEvent.click(within(form()).getByRole('button', { name: en.workflows.form.save }));

    await screen.findByRole('status');
    expect(api.requestsTo('PUT', one(template().workflowId)).map((request) => request.body)).toEqual([
      {
        name: 'Sale deed',
        description: 'Property sales in Pune',
        signingPolicy: 'AADHAAR',
        steps: [
          {
            workflowStateId: SIGN,
            recipients: [
              { type: 'placeholder', label: 'Buyer' },
              { type: 'placeholder', label: 'Seller' },
            ],
          },
          { workflowStateId: REVIEW, recipients: [{ type: 'user', email: 'partner@example.com' }] },
        ],
      },
    ]);
  });

  it('deletes only after the confirmation, then refreshes the list', async () => {
    const api = stubWorkflows([template()], {
      [`DELETE ${one(template().workflowId)}`]: () => (api.set([]), ok({ deleted: true })),
    });
    await openWorkflows();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Sale deed' }));
    const dialog = await screen.findByRole('dialog', { name: en.workflows.delete.title.replace('{{name}}', 'Sale deed') });
    expect(api.requestsTo('DELETE', one(template().workflowId))).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: en.workflows.delete.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requestsTo('DELETE', one(template().workflowId))).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Sale deed' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: en.workflows.delete.confirm }));

    expect((await screen.findByRole('status')).textContent).toBe(en.workflows.deleted.replace('{{name}}', 'Sale deed'));
    expect(api.requestsTo('DELETE', one(template().workflowId))).toHaveLength(1);
    expect(await screen.findByText(en.workflows.empty.title)).toBeTruthy();
  });

  it("shows someone who is neither owner nor admin no way to change another's template", async () => {
    const mine = template({ workflowId: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f62', name: 'Mine', ownerId: custodianUser.id, ownerName: 'Meera Shah' });
    stubWorkflows([template(), mine]);
    await openWorkflows(custodianUser);
    const theirs = await screen.findByRole('listitem', { name: 'Sale deed' });
    expect(within(theirs).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    expect(within(card('Mine')).getByRole('button', { name: 'Edit Mine' })).toBeTruthy();
    expect(within(card('Mine')).getByRole('button', { name: 'Delete Mine' })).toBeTruthy();
    // Anyone who may open the page may still create their own.
    expect(screen.getByRole('button', { name: en.workflows.new })).toBeTruthy();
  });

  it('lets an admin change templates that others made', async () => {
    stubWorkflows([template({ ownerId: custodianUser.id, ownerName: 'Meera Shah' })]);
    await openWorkflows(adminUser);
    expect(await screen.findByRole('button', { name: 'Edit Sale deed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Sale deed' })).toBeTruthy();
  });

  it('turns a signer away at the route, without asking the server', async () => {
    const { fetchMock } = stubWorkflows([template()]);
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_GLOBEX }));
    const { router } = renderApp('/workflows');
    expect(await screen.findByRole('heading', { level: 1, name: en.accessDenied.forbidden.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?status=forbidden');
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(LIST) || url.startsWith(STATES))).toEqual([]);
  });

  // The web app learns restrict-workflow only from the server: the public configuration does not
  // carry it, so RequireRoute lets a submitter in and the server's 403 (-11) on the list, which
  // route() gates with the tenant's settings, sends them to access denied.
  it('sends a submitter to access denied when the tenant restricts workflows', async () => {
    stubApi({
      [`GET ${LIST}`]: () => errorResponse(-11, 403, 'Not authorized'),
      [`GET ${STATES}`]: () => errorResponse(-11, 403, 'Not authorized'),
    });
    sessionStore.set(signedInSession(submitterUser));
    const { router } = renderApp('/workflows');
    // As main.tsx wires it: the client's redirects go through the router.
    apiClient.setNavigationHandler((to) => void router.navigate(to));
    try {
      expect(await screen.findByRole('heading', { level: 1, name: en.accessDenied.forbidden.title })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/accessdenied');
      expect(router.state.location.search).toBe('?status=forbidden');
    } finally {
      apiClient.setNavigationHandler((to) => window.location.assign(to));
    }
  });
});
