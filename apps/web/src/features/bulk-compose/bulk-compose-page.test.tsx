import type { BulkComposeRun, DocumentTemplate, SessionUser } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { adminUser, errorResponse, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { inputLabelled, renderApp } from '../../test/render-app';

const copy = en.bulkCompose;
const TEMPLATE_ID = '5b0c1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4';
const RUN_ID = '6c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';

const custodian: SessionUser = {
  ...adminUser,
  id: '3a9f1c2e-7b4d-4e8a-9c1f-2d3e4f5a6b7c',
  tenants: [{ tenantUuid: TENANT_ACME, tenantName: 'Acme Legal', userRole: 'custodian', userLoginType: 'Email' }],
};

const template: DocumentTemplate = {
  docTemplateId: TEMPLATE_ID,
  name: 'Loan agreement',
  description: null,
  documentName: 'loan.pdf',
  size: 1000,
  pageCount: 1,
  pages: [{ width: 595, height: 842, x: 0, y: 0, rotate: 0 }],
  tags: [],
  signingPolicy: 'ESIGNATURE',
  workflowId: '7d2e3f4a-5b6c-4d7e-8f80-91a2b3c4d5e6',
  workflowName: 'Client signs',
  workflowSteps: null,
  ownerId: custodian.id,
  ownerName: 'Meera Shah',
  editable: true,
  createdOn: '2026-11-01T10:00:00.000Z',
  modifiedOn: '2026-11-01T10:00:00.000Z',
};

function run(overrides: Partial<BulkComposeRun> = {}): BulkComposeRun {
  return {
    runId: RUN_ID,
    docTemplateId: TEMPLATE_ID,
    templateName: 'Loan agreement',
    fileName: 'people.csv',
    status: 'queued',
    totalRows: 5,
    processedRows: 0,
    createdEpaks: 0,
    failedRows: 0,
    code: 1,
    message: null,
    createdOn: '2026-11-26T10:00:00.000Z',
    startedOn: null,
    finishedOn: null,
    ...overrides,
  };
}

const done = run({ status: 'completed', processedRows: 5, createdEpaks: 3, failedRows: 2, code: -174, message: '2 row(s) were refused' });
const failures = [
  { row: 4, cells: ['not-an-address', 'Dee', 'Kay'], errors: [{ field: 'step1.recipient1.email', code: -1, message: 'Not an e-mail address.' }] },
  { row: 5, cells: ['eve@example.com', '', 'Moss'], errors: [{ field: 'step1.recipient1.firstName', code: -2, message: 'A first name is needed.' }] },
];

function stub(options: { upload?: () => Response; templates?: DocumentTemplate[] } = {}) {
  let polls = 0;
  let uploaded = false;
  return stubApi({
    'GET /msbapi/v1/documenttemplates': () => jsonResponse({ code: 1, data: { templates: options.templates ?? [template] } }),
    [`GET /msbapi/v1/bulkcompose/template/${TEMPLATE_ID}/columns`]: () =>
      jsonResponse({
        code: 1,
        data: {
          columns: [
            { name: 'step1.recipient1.email', mandatory: true, label: 'Client' },
            { name: 'step1.recipient1.phone', mandatory: false, label: 'Client' },
          ],
        },
      }),
    [`GET /msbapi/v1/bulkcompose/template/${TEMPLATE_ID}/csv`]: () => new Response('step1.recipient1.email\r\n', { headers: { 'content-type': 'text/csv' } }),
    'POST /msbapi/v1/bulkcompose/upload': () => {
      uploaded = true;
      return options.upload?.() ?? jsonResponse({ code: 1, data: { run: run(), existing: false } });
    },
    'GET /msbapi/v1/bulkcompose/runs': () => jsonResponse({ code: 1, data: { runs: uploaded ? [done] : [] } }),
    [`GET /msbapi/v1/bulkcompose/runs/${RUN_ID}`]: () => {
      polls++;
      // First answer: the job under way; then its end.
      const current = polls === 1 ? run({ status: 'running', processedRows: 2, createdEpaks: 2 }) : done;
      return jsonResponse({ code: 1, data: { run: current, header: ['step1.recipient1.email'], failures: polls === 1 ? [] : failures, page: 1, pageSize: 50 } });
    },
    [`GET /msbapi/v1/bulkcompose/runs/${RUN_ID}/failures`]: () => new Response('a,errors\r\n', { headers: { 'content-type': 'text/csv' } }),
  });
}

async function chooseTemplateAndFile() {
  await screen.findByRole('heading', { name: copy.title });
  await waitFor(() => expect(inputLabelled(copy.template).getAttribute('placeholder')).toBe(copy.templatePlaceholder));
  fireEvent.click(inputLabelled(copy.template));
  fireEvent.click(await screen.findByRole('option', { name: 'Loan agreement' }));
  await screen.findByTestId('bulk-columns');
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  fireEvent.change(input, { target: { files: [new File(['a,b\n'], 'people.csv', { type: 'text/csv' })] } });
}

beforeEach(() => {
  sessionStore.set(signedInSession(custodian, { tenantUuid: TENANT_ACME }));
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:bulk');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('BulkComposePage', () => {
  it('uploads a file for the chosen template, shows progress, then the refused rows with their codes', { timeout: 20_000 }, async () => {
    const api = stub();
    renderApp('/bulkcompose');
    expect(await screen.findByRole('heading', { name: copy.title })).toBeTruthy();
    expect(await screen.findByText(copy.noRuns)).toBeTruthy();
    await chooseTemplateAndFile();

    fireEvent.click(screen.getByRole('button', { name: copy.downloadHeader }));
    await waitFor(() => expect(api.requestsTo('GET', `/msbapi/v1/bulkcompose/template/${TEMPLATE_ID}/csv`)).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: copy.upload }));
    await waitFor(() => expect(api.requestsTo('POST', '/msbapi/v1/bulkcompose/upload')).toHaveLength(1));
    const sent = api.requestsTo('POST', '/msbapi/v1/bulkcompose/upload')[0]!.body as Record<string, unknown>;
    expect(sent['docTemplateId']).toBe(TEMPLATE_ID);
    expect(sent['file']).toBeInstanceOf(File);

    const card = await screen.findByTestId('bulk-run');
    await waitFor(() => expect(within(card).getByTestId('bulk-counts').textContent).toBe('2 of 5 rows done: 2 ePaks made, 0 rows refused.'));
    // Polled until the job ends.
    await waitFor(() => expect(within(card).getByTestId('bulk-counts').textContent).toBe('5 of 5 rows done: 3 ePaks made, 2 rows refused.'), { timeout: 5000 });
    const rows = within(card).getAllByTestId('bulk-failure');
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
      ['4', 'step1.recipient1.email', '-1', copy.codes.email],
      ['5', 'step1.recipient1.firstName', '-2', copy.codes.firstName],
    ]);
    fireEvent.click(within(card).getByRole('button', { name: copy.downloadFailed }));
    await waitFor(() => expect(api.requestsTo('GET', `/msbapi/v1/bulkcompose/runs/${RUN_ID}/failures`)).toHaveLength(1));
    // The earlier uploads list the run once it is there.
    expect((await screen.findAllByTestId('bulk-run-item')).length).toBe(1);
  });

  it('explains a refused file by its code', { timeout: 20_000 }, async () => {
    stub({ upload: () => errorResponse(-181, 422, 'The header must name step1.recipient1.email.') });
    renderApp('/bulkcompose');
    await chooseTemplateAndFile();
    fireEvent.click(screen.getByRole('button', { name: copy.upload }));
    const alert = await screen.findByTestId('bulk-file-error');
    expect(alert.textContent).toContain(copy.codes.mandatoryHeaders);
    expect(alert.textContent).toContain('(-181)');
    expect(alert.textContent).toContain('The header must name step1.recipient1.email.');
  });

  it('says how to make a document template, with a way there, when there is none yet', async () => {
    stub({ templates: [] });
    const { router } = renderApp('/bulkcompose');
    const empty = await screen.findByTestId('bulk-no-templates');
    expect(empty.textContent).toContain(copy.emptyTitle);
    expect(empty.textContent).toContain(copy.emptyBody);
    // No empty picker and no upload to a template that cannot be chosen.
    expect(screen.queryByRole('button', { name: copy.upload })).toBeNull();
    fireEvent.click(within(empty).getByRole('link', { name: copy.emptyAction }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/compose'));
  });
});
