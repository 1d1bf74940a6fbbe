import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DocumentSummary, EpakDetail, WorkflowStateDefinition, WorkflowTemplate } from '@pakt/domain';
import { expect, vi } from 'vitest';
import { sessionStore } from '../api/session-store';
import en from '../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME, type FakeRoute } from './fake-api';
import { renderApp } from './render-app';

/** The compose page tests' server (features/compose): its data, its answers and the steps a person takes. */

export const DOCUMENTS = '/msbapi/v1/documents';
export const WORKFLOWS = '/msbapi/v2/workflows';
export const STATES = '/msbapi/v1/workflow/states';
export const EPAK = '/msbapi/v2/epak';
export const USERS = '/msbapi/v1/users';
export const EPAK_ID = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const EPAK_PATH = `/msbapi/v2/epaks/${EPAK_ID}`;

export const REVIEW = '1d1c5a2e-0a6b-4c5e-9f1a-000000000001';
export const SIGN = '1d1c5a2e-0a6b-4c5e-9f1a-000000000002';
export const states: WorkflowStateDefinition[] = [
  { workflowStateId: REVIEW, name: 'Legal review', type: 'REVIEW', order: 1, description: null },
  { workflowStateId: SIGN, name: 'Sign', type: 'SIGN', order: 2, description: null },
];

export const saleDeed: WorkflowTemplate = {
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

export function documentOf(n: number, name: string, pageCount: number): DocumentSummary {
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

export const lease = documentOf(1, 'lease.pdf', 3);
export const annex = documentOf(2, 'annex.pdf', 1);
/** The ePak's own copy of the n-th document (0-based), as the draft names it. */
export const copyId = (index: number) => `9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6${index}`;
export const blocksPath = (index: number) => `${EPAK_PATH}/documents/${copyId(index)}/signatureblocks`;

export type ComposeBody = { subject: string; documentIds: string[]; steps: { workflowStateId: string; recipients: { email: string }[] }[] };

export function detailOf(body: ComposeBody, over: Partial<EpakDetail> = {}): EpakDetail {
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
        documentId: copyId(index),
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
    ...over,
  };
}

export const ok = (data: unknown) => jsonResponse({ code: 1, data });

/**
 * Uploads that report progress go by XMLHttpRequest: this one hands them to the stubbed fetch
 * (so the test's routes answer and record them), telling half the bytes, then all, first.
 */
class FetchBackedXhr extends EventTarget {
  readonly upload = new EventTarget();
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  responseType = '';
  status = 0;
  statusText = '';
  response: ArrayBuffer | null = null;
  private answerHeaders = '';
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  getAllResponseHeaders() {
    return this.answerHeaders;
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  send(body: FormData) {
    void (async () => {
      const file = [...body.values()].find((value): value is File => value instanceof File);
      const total = file?.size ?? 0;
      for (const loaded of [Math.floor(total / 2), total]) {
        this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const answer = await fetch(this.url, { method: this.method, headers: this.headers, body });
      this.status = answer.status;
      this.answerHeaders = [...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\r\n');
      this.response = await answer.arrayBuffer();
      this.dispatchEvent(new Event('load'));
    })();
  }
}

export function stubCompose(routes: Record<string, FakeRoute> = {}) {
  let saved: EpakDetail | null = null;
  vi.stubGlobal('XMLHttpRequest', FetchBackedXhr);
  // Spread last: a test's answer replaces the default one for the same request.
  return stubApi({
    [`GET ${WORKFLOWS}`]: () => ok({ workflows: [saleDeed] }),
    [`GET ${STATES}`]: () => ok({ states }),
    [`GET ${DOCUMENTS}`]: () => ok({ documents: [lease, annex], total: 2, pageSize: 50 }),
    [`GET ${USERS}`]: () => ok({ users: [] }),
    [`POST ${EPAK}`]: ({ body }) => {
      saved = detailOf(body as ComposeBody);
      return ok(saved);
    },
    [`GET ${EPAK_PATH}`]: () => (saved ? ok(saved) : errorResponse(-1, 404, 'Not found')),
    [`GET ${blocksPath(0)}`]: () => ok({ tags: [] }),
    [`GET ${blocksPath(1)}`]: () => ok({ tags: [] }),
    ...routes,
  });
}

export async function openCompose(path = '/compose') {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  const rendered = renderApp(path);
  await screen.findByRole('heading', { level: 1 });
  return rendered;
}

export const withNumber = (text: string, number: number) => text.replace('{{number}}', String(number));
export const form = () => screen.getByRole('form', { name: en.compose.title });
export const step = (number: number) => within(form()).getByRole('group', { name: withNumber(en.workflows.form.step, number) });
export const stateSelect = (number: number) => within(step(number)).getByLabelText(new RegExp(`^${en.workflows.form.state}`), { selector: 'select' });
export const pendingInput = (number: number) => within(step(number)).getByLabelText(withNumber(en.compose.workflow.addRecipient, number), { selector: 'input' });
export const recipientTexts = (number: number) =>
  within(step(number))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

const nextLabel = (name: keyof typeof en.compose.flow.steps) => en.compose.flow.nextTo.replace('{{step}}', en.compose.flow.steps[name].label);
/** Presses "Next: …" towards the named step. */
export const goOnTo = (name: keyof typeof en.compose.flow.steps) => fireEvent.click(screen.getByRole('button', { name: nextLabel(name) }));

export async function chooseFromDrafts(...names: string[]) {
  fireEvent.click(screen.getByRole('tab', { name: en.compose.tabs.drafts }));
  for (const name of names) fireEvent.click(await screen.findByRole('checkbox', { name }));
}

export function addAddress(number: number, text: string) {
  fireEvent.change(pendingInput(number), { target: { value: text } });
  fireEvent.click(within(step(number)).getByRole('button', { name: withNumber(en.workflows.form.addRecipientTo, number) }));
}

export async function waitForStates() {
  await waitFor(() => expect(within(stateSelect(1)).getAllByRole('option').length).toBeGreaterThan(1));
}

/** Documents chosen from the drafts tab, then on to the recipients step with its states loaded. */
export async function toRecipients(...names: string[]) {
  await chooseFromDrafts(...names);
  goOnTo('recipients');
  await waitForStates();
}
