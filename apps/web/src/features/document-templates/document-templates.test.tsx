import type { DocumentTemplate, EpakDetail } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { renderWithProviders } from '../../test/panel-test-harness';
import { adminUser, jsonResponse, signedInSession, stubApi, TENANT_ACME } from '../../test/fake-api';
import { DocumentTemplatesTab } from './document-templates-tab';
import { SaveAsTemplate } from './save-as-template';

const copy = en.docTemplates;
const LIST = '/msbapi/v1/documenttemplates';
const ID_A = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
const ID_B = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c42';
const WORKFLOW = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c49';
const STATE = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c48';

function template(id: string, name: string, editable: boolean, extra: Partial<DocumentTemplate> = {}): DocumentTemplate {
  return {
    docTemplateId: id,
    name,
    description: null,
    documentName: 'lease.pdf',
    size: 20480,
    pageCount: 2,
    pages: [],
    tags: [],
    signingPolicy: 'ESIGNATURE',
    workflowId: WORKFLOW,
    workflowName: 'One signer',
    workflowSteps: [{ order: 1, workflowStateId: STATE, name: 'Sign', type: 'SIGN', recipients: [{ type: 'placeholder', label: 'Tenant' }] }],
    ownerId: adminUser.id,
    ownerName: 'Asha Rao',
    editable,
    createdOn: '2025-03-05T10:00:00.000Z',
    modifiedOn: '2025-03-05T10:00:00.000Z',
    ...extra,
  };
}

function stub(initial: DocumentTemplate[], overrides: Parameters<typeof stubApi>[0] = {}) {
  let templates = [...initial];
  return stubApi({
    [`GET ${LIST}`]: () => jsonResponse({ code: 1, data: { templates } }),
    [`POST /msbapi/v1/documenttemplate/upload`]: () => {
      const created = template(ID_B, 'form', true, { workflowId: null, workflowName: null, workflowSteps: null });
      templates = [created, ...templates];
      return jsonResponse({ code: 1, data: created });
    },
    [`DELETE ${LIST}`]: ({ body }) => {
      const ids = (body as { docTemplateIds: string[] }).docTemplateIds;
      templates = templates.filter((one) => !ids.includes(one.docTemplateId));
      return jsonResponse({ code: 1, data: { deleted: ids.length } });
    },
    [`PUT ${LIST}/${ID_A}`]: ({ body }) => {
      templates = templates.map((one) => (one.docTemplateId === ID_A ? { ...one, name: (body as { name: string }).name } : one));
      return jsonResponse({ code: 1, data: templates.find((one) => one.docTemplateId === ID_A) });
    },
    [`GET /msbapi/v2/documenttemplate/${ID_A}/workflowtemplate/${WORKFLOW}/export`]: () =>
      new Response('{"format":"pakt.documentTemplate"}', { status: 200, headers: { 'content-type': 'application/json' } }),
    ...overrides,
  });
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

beforeEach(() => {
  sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:template');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

describe('the docTemplates tab', () => {
  it('lists templates with their document and workflow, and change actions only where allowed', async () => {
    stub([template(ID_A, 'Lease', true), template('4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c43', 'Theirs', false, { workflowId: null, workflowName: null, workflowSteps: null })]);
    renderWithProviders(<DocumentTemplatesTab chosenId={null} onChoose={() => undefined} />);
    const list = await screen.findByRole('list', { name: copy.listLabel });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Lease', 'Theirs']);
    expect(within(items[0]!).getByText('lease.pdf · 2 pages · 0 fields')).toBeTruthy();
    expect(within(items[0]!).getByText('Workflow: One signer')).toBeTruthy();
    expect(within(items[1]!).getByText(copy.noWorkflow)).toBeTruthy();
    expect(within(items[0]!).getByRole('button', { name: 'Delete template Lease' })).toBeTruthy();
    expect(within(items[0]!).getByRole('button', { name: 'Export template Lease with its workflow' })).toBeTruthy();
    expect(within(items[1]!).queryByRole('button', { name: /Delete|Rename|Export/ })).toBeNull();
  }, 20_000);

  it('hands the chosen template over and marks it in use', async () => {
    stub([template(ID_A, 'Lease', true)]);
    const onChoose = vi.fn();
    function Harness() {
      const [chosen, setChosen] = useState<string | null>(null);
      return (
        <DocumentTemplatesTab
          chosenId={chosen}
          onChoose={(one) => {
            onChoose(one);
            setChosen(one.docTemplateId);
          }}
        />
      );
    }
    renderWithProviders(<Harness />);
    fireEvent.click(await screen.findByRole('button', { name: 'Use template Lease' }));
    expect(onChoose.mock.calls[0]![0].docTemplateId).toBe(ID_A);
    expect(await screen.findByText(copy.inUse)).toBeTruthy();
  }, 20_000);

  it('uploads a file, renames, exports and deletes after asking', async () => {
    const api = stub([template(ID_A, 'Lease', true)]);
    renderWithProviders(<DocumentTemplatesTab chosenId={null} onChoose={() => undefined} />);
    await screen.findByRole('listitem', { name: 'Lease' });
    fireEvent.change(fileInput(), { target: { files: [new File(['%PDF-1.7'], 'form.pdf', { type: 'application/pdf' })] } });
    await screen.findByRole('listitem', { name: 'form' });
    expect((api.requestsTo('POST', '/msbapi/v1/documenttemplate/upload')[0]!.body as Record<string, unknown>)['file']).toBeInstanceOf(File);

    fireEvent.click(screen.getByRole('button', { name: 'Rename template Lease' }));
    const name = await screen.findByRole('textbox', { name: new RegExp(copy.name) });
    fireEvent.change(name, { target: { value: 'Lease 2026' } });
    fireEvent.click(screen.getByRole('button', { name: copy.saveChanges }));
    await screen.findByRole('listitem', { name: 'Lease 2026' });
    expect(api.requestsTo('PUT', `${LIST}/${ID_A}`)[0]!.body).toEqual({ name: 'Lease 2026' });

    // The download is an anchor's click, which jsdom cannot follow: the file's name is what counts.
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Export template Lease 2026 with its workflow' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect((clicked.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('Lease 2026.template.json');
    expect(api.requestsTo('GET', `/msbapi/v2/documenttemplate/${ID_A}/workflowtemplate/${WORKFLOW}/export`)).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Delete template Lease 2026' }));
    const dialog = await screen.findByRole('dialog', { name: copy.deleteTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: copy.delete }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Lease 2026' })).toBeNull());
    expect(api.requestsTo('DELETE', LIST)[0]!.body).toEqual({ docTemplateIds: [ID_A] });
  }, 20_000);

  it("replaces a template's document, and says so when its pages differ (-189)", async () => {
    const DOC = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c47';
    let answer = () => jsonResponse({ code: -189, data: null, message: 'size mismatch' }, 422);
    const api = stub([template(ID_A, 'Lease', true)], {
      ['POST /msbapi/v1/documents']: () => jsonResponse({ code: 1, data: { documentId: DOC, name: 'lease-v2.pdf', sourceFormat: 'pdf', size: 1, sha256: 'a'.repeat(64), pageCount: 2, pages: [], encrypted: false, formFieldCount: 0, signatureState: null, createdOn: '2025-03-05T10:00:00.000Z' } }),
      [`PUT ${LIST}/${ID_A}`]: () => answer(),
    });
    renderWithProviders(<DocumentTemplatesTab chosenId={null} onChoose={() => undefined} />);
    const item = await screen.findByRole('listitem', { name: 'Lease' });
    const replaceInput = () => item.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(replaceInput(), { target: { files: [new File(['%PDF-1.7'], 'lease-v2.pdf', { type: 'application/pdf' })] } });
    expect((await screen.findByRole('alert')).textContent).toBe(copy.sizeMismatch);
    expect(api.requestsTo('PUT', `${LIST}/${ID_A}`)[0]!.body).toEqual({ documentId: DOC });

    answer = () => jsonResponse({ code: 1, data: template(ID_A, 'Lease', true, { documentName: 'lease-v2.pdf' }) });
    fireEvent.change(replaceInput(), { target: { files: [new File(['%PDF-1.7'], 'lease-v2.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(api.requestsTo('PUT', `${LIST}/${ID_A}`)).toHaveLength(2);
  }, 20_000);

  it('says why an upload was refused', async () => {
    stub([], { [`POST /msbapi/v1/documenttemplate/upload`]: () => jsonResponse({ code: -59, data: null, message: 'The file is empty.' }, 400) });
    renderWithProviders(<DocumentTemplatesTab chosenId={null} onChoose={() => undefined} />);
    await screen.findByText(copy.empty);
    fireEvent.change(fileInput(), { target: { files: [new File([''], 'empty.pdf', { type: 'application/pdf' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('The file is empty.');
  }, 20_000);
});

const EPAK = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
const DOC = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c42';
const epak = (isOwner: boolean) =>
  ({
    ePakId: EPAK,
    subject: 'Lease, flat 3',
    documents: [{ documentId: DOC, sourceDocumentId: null, name: 'lease.pdf', pageCount: 1, pages: [], revisions: 0 }],
    viewer: { isOwner },
  }) as unknown as EpakDetail;

describe('saving an ePak as a template', () => {
  it('saves under the subject by default, and says when the name is taken', async () => {
    let calls = 0;
    const api = stub([], {
      [`POST ${LIST}`]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ code: -6, data: null, message: 'taken', issues: [{ path: 'name', message: 'already used' }] }, 400)
          : jsonResponse({ code: 1, data: template(ID_A, 'Lease, flat 3 (copy)', true) });
      },
    });
    renderWithProviders(<SaveAsTemplate epak={epak(true)} />);
    fireEvent.click(await screen.findByRole('button', { name: copy.save.open }));
    const name = await screen.findByRole('textbox', { name: new RegExp(copy.name) });
    expect((name as HTMLInputElement).value).toBe('Lease, flat 3');
    fireEvent.click(screen.getByRole('button', { name: copy.save.submit }));
    expect(await screen.findByText(copy.nameTaken)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Lease, flat 3 (copy)' } });
    fireEvent.click(screen.getByRole('button', { name: copy.save.submit }));
    expect(await screen.findByText('Saved as template “Lease, flat 3 (copy)”')).toBeTruthy();
    expect(api.requestsTo('POST', LIST)[1]!.body).toEqual({ ePakId: EPAK, documentId: DOC, name: 'Lease, flat 3 (copy)' });
  }, 20_000);

  it('waits for unsaved fields, and is not offered to someone who does not own the ePak', async () => {
    stub([]);
    const { unmount } = renderWithProviders(<SaveAsTemplate epak={epak(true)} unsavedFields />);
    expect((await screen.findByRole('button', { name: copy.save.open })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(copy.save.saveTagsFirst)).toBeTruthy();
    unmount();
    renderWithProviders(<SaveAsTemplate epak={epak(false)} />);
    expect(screen.queryByRole('button', { name: copy.save.open })).toBeNull();
  }, 20_000);
});

