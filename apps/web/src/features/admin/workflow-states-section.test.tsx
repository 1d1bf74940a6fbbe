import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resolvePermissionSettings, type WorkflowStateDefinition, type WorkflowTemplate } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import hi from '../../i18n/hi.json';
import { chooseLanguage } from '../../i18n/i18n';
import { errorResponse, jsonResponse, signedInSession, stubApi, type FakeRoute } from '../../test/fake-api';
import { inputLabelled, renderApp, typeInto } from '../../test/render-app';
import { stateProblem } from './use-workflow-state-form';
import { templatesPerState } from './workflow-states-section';

// These render the whole app with its queries; on a busy machine the first answer can take more
// than Testing Library's default second.
configure({ asyncUtilTimeout: 3000 });

// jsdom lays nothing out; Mantine's combobox scrolls the active option into view.
Element.prototype.scrollIntoView ??= () => undefined;

const w = en.workflowStatesAdmin;
const ok = (data: unknown) => jsonResponse({ code: 1, data });
const STATES = '/msbapi/v1/workflow/states';

const state = (n: number, name: string, type: WorkflowStateDefinition['type'], description: string | null = null): WorkflowStateDefinition => ({
  workflowStateId: `5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c${String(n).padStart(2, '0')}`,
  name,
  type,
  order: n,
  description,
});
const review = state(1, 'Review', 'REVIEW', 'Counsel reads it first');
const sign = state(2, 'Sign', 'SIGN');
const email = state(3, 'Email', 'EMAIL');

const template = (name: string, states: WorkflowStateDefinition[]): WorkflowTemplate => ({
  workflowId: `7b1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c${name.length.toString().padStart(2, '0')}`,
  name,
  description: null,
  signingPolicy: 'ESIGNATURE',
  steps: states.map((s, index) => ({ workflowStateId: s.workflowStateId, recipients: [{ type: 'placeholder', label: 'Client' }], order: index + 1, name: s.name, type: s.type })),
  signerCount: 1,
  ownerId: '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d',
  ownerName: 'Asha Rao',
  createdOn: '2025-01-10T09:00:00.000Z',
  modifiedOn: '2025-01-10T09:00:00.000Z',
});

/** A server holding this catalogue; `extra` routes come first. */
function stubStates(states: WorkflowStateDefinition[], extra: Record<string, FakeRoute> = {}) {
  return stubApi({
    ...extra,
    [`GET ${STATES}`]: () => ok({ states }),
    'GET /msbapi/v2/workflows': () => ok({ workflows: [template('Sale deed', [review, sign]), template('Lease', [review, sign, review])] }),
  });
}

async function openStates() {
  sessionStore.set(signedInSession());
  const result = renderApp('/admin?section=workflowStates');
  await screen.findByRole('heading', { level: 1, name: w.title });
  await screen.findAllByTestId('workflow-state');
  return result;
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('workflow state helpers', () => {
  it('counts each template once per state it uses', () => {
    const uses = templatesPerState([template('Sale deed', [review, sign]), template('Lease', [review, sign, review])]);
    expect(uses.get(review.workflowStateId)).toBe(2);
    expect(uses.get(sign.workflowStateId)).toBe(2);
    expect(uses.get(email.workflowStateId)).toBeUndefined();
  });

  it('puts a taken name on the name field, and a vanished state as gone', () => {
    expect(stateProblem(new ApiError({ code: -63, httpStatus: 409, message: 'x' }))).toEqual({ key: 'workflowStatesAdmin.errors.nameTaken', onName: true });
    expect(stateProblem(new ApiError({ code: -1, httpStatus: 404, message: 'x' }))).toEqual({ key: 'workflowStatesAdmin.errors.gone', gone: true });
    expect(stateProblem(new ApiError({ code: -1, httpStatus: 0, message: 'x' })).key).toBe('common.unreachable');
    expect(stateProblem(new ApiError({ code: -6, httpStatus: 400, message: 'server says' }))).toEqual({ key: 'workflowStatesAdmin.errors.failed', detail: 'server says' });
  });
});

describe('edit workflow states on /admin', () => {
  it('lists the states in order with their type, description and how many templates use them', async () => {
    stubStates([review, sign, email]);
    await openStates();
    expect(screen.getByRole('tab', { name: w.tab }).getAttribute('aria-selected')).toBe('true');
    const list = screen.getByRole('list', { name: w.listLabel });
    expect(within(list).getAllByTestId('workflow-state').map((item) => item.getAttribute('aria-label'))).toEqual(['Review', 'Sign', 'Email']);
    expect(within(row('Review')).getByTestId('state-type').textContent).toBe(en.workflowStateTypes.REVIEW);
    expect(within(row('Review')).getByText('Counsel reads it first')).toBeTruthy();
    expect((await within(row('Review')).findByTestId('state-uses')).textContent).toBe('Used in 2 templates');
    expect(within(row('Email')).getByTestId('state-uses').textContent).toBe(w.unused);
    // The first cannot go up, the last cannot go down.
    expect(within(row('Review')).getByRole('button', { name: 'Move Review up' }).hasAttribute('disabled')).toBe(true);
    expect(within(row('Email')).getByRole('button', { name: 'Move Email down' }).hasAttribute('disabled')).toBe(true);
  });

  it('moves a state down and shows the order the server answers', async () => {
    const states = [review, sign, email];
    const { requestsTo } = stubStates(states, {
      [`PUT ${STATES}/${review.workflowStateId}/2`]: () => {
        states.splice(0, 2, { ...sign, order: 1 }, { ...review, order: 2 });
        return ok({ states });
      },
    });
    await openStates();
    fireEvent.click(within(row('Review')).getByRole('button', { name: 'Move Review down' }));
    expect(await screen.findByText('“Review” is now number 2.')).toBeTruthy();
    expect(requestsTo('PUT', `${STATES}/${review.workflowStateId}/2`)).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByTestId('workflow-state').map((item) => item.getAttribute('aria-label'))).toEqual(['Sign', 'Review', 'Email']));
  });

  it('adds a state of a chosen type, refusing a blank name before sending and a taken one from the server', async () => {
    let taken = true;
    const { requestsTo } = stubStates([review, sign], {
      [`POST ${STATES}`]: ({ body }) => {
        if (taken) return errorResponse(-63, 409, 'A workflow state with this name exists already.');
        return ok({ ...state(3, 'Notary', 'INPERSONSIGN'), ...(body as object) });
      },
    });
    await openStates();
    fireEvent.click(screen.getByRole('button', { name: w.add }));
    const dialog = await screen.findByRole('dialog', { name: w.form.createTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: w.form.create }));
    expect(await within(dialog).findByText(w.errors.nameRequired)).toBeTruthy();
    expect(requestsTo('POST', STATES)).toHaveLength(0);

    typeInto(w.form.name, '  Review ');
    fireEvent.click(inputLabelled(w.form.type));
    fireEvent.click(await screen.findByRole('option', { name: new RegExp(`^${en.workflowStateTypes.INPERSONSIGN}`) }));
    fireEvent.click(within(dialog).getByRole('button', { name: w.form.create }));
    expect(await within(dialog).findByText(w.errors.nameTaken)).toBeTruthy();

    taken = false;
    typeInto(w.form.name, 'Notary');
    fireEvent.change(within(dialog).getByLabelText(w.form.description), { target: { value: 'Signed before a notary' } });
    fireEvent.click(within(dialog).getByRole('button', { name: w.form.create }));
    expect(await screen.findByText('“Notary” was added at the end of the list.')).toBeTruthy();
    expect(requestsTo('POST', STATES).map((request) => request.body)).toEqual([
      { name: 'Review', type: 'INPERSONSIGN', description: null },
      { name: 'Notary', type: 'INPERSONSIGN', description: 'Signed before a notary' },
    ]);
  });

  it('renames and describes a state, its type fixed, saying how many templates the rename reaches', async () => {
    const { requestsTo } = stubStates([review, sign], {
      [`PUT ${STATES}/${review.workflowStateId}`]: ({ body }) => ok({ ...review, ...(body as object) }),
    });
    await openStates();
    await within(row('Review')).findByTestId('state-uses');
    fireEvent.click(within(row('Review')).getAllByRole('button', { name: 'Edit Review' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: w.form.editTitle.replace('{{name}}', 'Review') });
    expect(within(dialog).getByText(w.form.typeFixed)).toBeTruthy();
    expect(within(dialog).getByText('Renaming it also renames it in the 2 templates that use it.')).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: w.form.type })).toBeNull();
    typeInto(w.form.name, 'Legal review');
    fireEvent.change(within(dialog).getByLabelText(w.form.description), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: w.form.save }));
    expect(await screen.findByText('“Legal review” was saved. Templates that use it show the change.')).toBeTruthy();
    expect(requestsTo('PUT', `${STATES}/${review.workflowStateId}`)[0]?.body).toEqual({ name: 'Legal review', description: null });
  });

  it('shows the built-in states in Hindi, a typed name as typed, and keeps the stored name when only the description changes', async () => {
    await chooseLanguage('hi');
    const custom = state(3, 'Legal review', 'REVIEW');
    const { requestsTo } = stubStates([review, sign, custom], {
      [`PUT ${STATES}/${review.workflowStateId}`]: ({ body }) => ok({ ...review, ...(body as object) }),
    });
    sessionStore.set(signedInSession());
    renderApp('/admin?section=workflowStates');
    await screen.findByRole('heading', { level: 1, name: hi.workflowStatesAdmin.title });
    await screen.findAllByTestId('workflow-state');
    const shown = screen.getAllByTestId('workflow-state').map((item) => item.getAttribute('aria-label'));
    expect(shown).toEqual([hi.workflowStateTypes.REVIEW, hi.workflowStateTypes.SIGN, 'Legal review']);

    const reviewName = hi.workflowStateTypes.REVIEW;
    fireEvent.click(within(screen.getByRole('listitem', { name: reviewName })).getAllByRole('button', { name: hi.workflowStatesAdmin.editLabel.replace('{{name}}', reviewName) })[0]!);
    const dialog = await screen.findByRole('dialog', { name: hi.workflowStatesAdmin.form.editTitle.replace('{{name}}', reviewName) });
    expect(within(dialog).getByLabelText<HTMLInputElement>(new RegExp(`^${hi.workflowStatesAdmin.form.name}`)).value).toBe(reviewName);
    fireEvent.change(within(dialog).getByLabelText(hi.workflowStatesAdmin.form.description), { target: { value: 'Counsel reads it' } });
    fireEvent.click(within(dialog).getByRole('button', { name: hi.workflowStatesAdmin.form.save }));
    // The translated name left as it was is the built-in name still: stored in English, shown translated.
    await waitFor(() => expect(requestsTo('PUT', `${STATES}/${review.workflowStateId}`)[0]?.body).toEqual({ name: 'Review', description: 'Counsel reads it' }));
  });

  it('says a state that vanished meanwhile is gone and asks for the list again', async () => {
    const { requestsTo } = stubStates([review, sign], {
      [`PUT ${STATES}/${sign.workflowStateId}/1`]: () => errorResponse(-1, 404, 'No such workflow state.'),
    });
    await openStates();
    const asked = requestsTo('GET', STATES).length;
    fireEvent.click(within(row('Sign')).getByRole('button', { name: 'Move Sign up' }));
    expect(await screen.findByText(w.errors.gone)).toBeTruthy();
    await waitFor(() => expect(requestsTo('GET', STATES).length).toBeGreaterThan(asked));
  });

  it("is not offered when the tenant's setting hides it, nor in the menu", async () => {
    sessionStore.set(signedInSession());
    const { requestsTo } = stubApi({
      'GET /msbapi/v1/accessibilities': () =>
        ok({ role: 'admin', settings: resolvePermissionSettings({ showEditWorkflowStates: false }), routes: [], menu: [] }),
      'GET /msbapi/v1/filteredusers': () =>
        ok({ filter: 'All', total: 0, pg: 0, size: 25, users: [], counts: { Signers: 0, Submitters: 0, Custodians: 0, Admin: 0, RetentionAdmin: 0, All: 0 } }),
    });
    renderApp('/admin?section=workflowStates');
    // An address naming the hidden section opens the first one instead.
    expect(await screen.findByRole('heading', { level: 1, name: en.users.title })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: w.tab })).toBeNull();
    expect(requestsTo('GET', STATES)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.menu.open }));
    await screen.findByRole('menuitem', { name: en.menu.admin });
    expect(screen.queryByRole('menuitem', { name: en.menu.admin_editWorkflowStates })).toBeNull();
  });
});
