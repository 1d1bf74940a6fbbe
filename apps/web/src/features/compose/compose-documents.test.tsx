import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { errorResponse } from '../../test/fake-api';
import { annex, chooseFromDrafts, documentOf, DOCUMENTS, goOnTo, lease, ok, openCompose, stubCompose } from '../../test/compose-fixtures';

const chosenNames = () =>
  within(screen.getByRole('list', { name: /^Chosen/ }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

/** The documents step: uploading (with its progress), choosing, renaming, deleting, merging and converting. */
describe('/compose, the documents step', () => {
  it('uploads several files one by one, with each one\'s progress, and shows a refusal until it is dismissed', async () => {
    let answer!: (response: Response) => void;
    const { requestsTo } = stubCompose({
      [`POST ${DOCUMENTS}`]: ({ body }) => {
        const file = (body as { file: File }).file;
        if (file.name === 'broken.pdf') return errorResponse(-59, 422, 'The file is damaged and cannot be read.');
        // The first answer waits, so the upload's progress can be seen.
        return new Promise<Response>((resolve) => (answer = resolve));
      },
    });
    const { container } = await openCompose();
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.multiple).toBe(true);
    const big = new File(['%PDF'.padEnd(2_000_000, ' ')], 'lease.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [big, new File(['x'], 'broken.pdf', { type: 'application/pdf' })] } });
    const uploads = await screen.findByRole('list', { name: en.compose.upload.list });
    // Half the bytes sent (the fake reports half, then all), then the server reading the file.
    expect((await within(uploads).findByTestId('upload-progress')).textContent).toBe(en.compose.upload.progress.replace('{{percent}}', '50').replace('{{sent}}', '0.9').replace('{{total}}', '1.8'));
    expect(within(uploads).getByText(en.compose.upload.waiting)).toBeTruthy();
    expect(await within(uploads).findByText(en.compose.upload.reading)).toBeTruthy();
    answer(ok(lease));
    await within(uploads).findByText(en.compose.upload.done_other.replace('{{count}}', '3'));
    const refusal = await within(uploads).findByRole('alert');
    expect(refusal.textContent).toBe(`${en.compose.upload.invalid} The file is damaged and cannot be read.`);
    expect(requestsTo('POST', DOCUMENTS)).toHaveLength(2);
    // The uploaded one is chosen for the ePak, with its page count; the refused one is not.
    const chosen = screen.getByRole('list', { name: en.compose.documents.chosen_one.replace('{{count}}', '1') });
    expect(within(chosen).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['1. lease.pdf3 pages']);

    fireEvent.click(within(uploads).getByRole('button', { name: en.compose.upload.dismiss.replace('{{name}}', 'broken.pdf') }));
    expect(within(uploads).queryByRole('alert')).toBeNull();
    expect(within(uploads).getAllByRole('listitem')).toHaveLength(1);
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

  it('picks documents from the drafts tab, in order, and moves and removes them', async () => {
    stubCompose();
    await openCompose();
    await chooseFromDrafts('lease.pdf', 'annex.pdf');
    expect(chosenNames()).toEqual(['lease.pdf', 'annex.pdf']);
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.moveUp.replace('{{name}}', 'annex.pdf') }));
    expect(chosenNames()).toEqual(['annex.pdf', 'lease.pdf']);
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.remove.replace('{{name}}', 'annex.pdf') }));
    expect(chosenNames()).toEqual(['lease.pdf']);
    expect((screen.getByRole('checkbox', { name: 'annex.pdf' }) as HTMLInputElement).checked).toBe(false);
  });

  it('renames a chosen document, refusing a name with characters a file name cannot hold', async () => {
    const { requestsTo } = stubCompose({
      [`PUT /msbapi/v1/document/${lease.documentId}/rename`]: ({ body }) => ok({ ...lease, name: (body as { name: string }).name }),
    });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.rename.replace('{{name}}', 'lease.pdf') }));
    const field = screen.getByLabelText(en.compose.documents.renameLabel.replace('{{name}}', 'lease.pdf'));
    fireEvent.change(field, { target: { value: 'lease:2025.pdf' } });
    fireEvent.click(screen.getByRole('button', { name: en.compose.documents.renameSave }));
    expect(screen.getByText(en.compose.upload.badName)).toBeTruthy();
    expect(requestsTo('PUT', `/msbapi/v1/document/${lease.documentId}/rename`)).toHaveLength(0);

    fireEvent.change(field, { target: { value: 'Lease, flat 4B.pdf' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(chosenNames()).toEqual(['Lease, flat 4B.pdf']));
    expect(requestsTo('PUT', `/msbapi/v1/document/${lease.documentId}/rename`)[0]!.body).toEqual({ name: 'Lease, flat 4B.pdf' });
    // Enter renamed; it did not go on to the next step.
    expect(screen.getByRole('tab', { name: en.compose.tabs.drafts })).toBeTruthy();
  });

  it('deletes an uploaded document after asking, and takes it out of the ePak', async () => {
    const { requestsTo } = stubCompose({ [`DELETE ${DOCUMENTS}`]: () => ok({ deleted: 1 }) });
    await openCompose();
    await chooseFromDrafts('lease.pdf', 'annex.pdf');
    fireEvent.click(screen.getByRole('button', { name: en.compose.drafts.delete.replace('{{name}}', 'annex.pdf') }));
    const dialog = await screen.findByRole('dialog', { name: en.compose.drafts.deleteTitle });
    expect(dialog.textContent).toContain(en.compose.drafts.deleteBody.replace('{{name}}', 'annex.pdf'));
    fireEvent.click(within(dialog).getByRole('button', { name: en.compose.drafts.deleteConfirm }));
    await waitFor(() => expect(chosenNames()).toEqual(['lease.pdf']));
    expect(requestsTo('DELETE', DOCUMENTS)[0]!.body).toEqual({ documentIds: [annex.documentId] });
  });

  it('merges documents in the order ticked, the merged one taking their place in the ePak', async () => {
    const merged = documentOf(3, 'Lease with annex.pdf', 4);
    const { requestsTo } = stubCompose({ [`POST ${DOCUMENTS}/merge`]: () => ok(merged) });
    await openCompose();
    await chooseFromDrafts('lease.pdf');
    fireEvent.click(screen.getByRole('tab', { name: en.compose.tabs.mergeDocuments }));
    const parts = await screen.findByRole('list', { name: en.compose.merge.listLabel });
    const merge = () => screen.getByRole('button', { name: en.compose.merge.submit });
    fireEvent.click(within(parts).getByRole('checkbox', { name: 'annex.pdf' }));
    expect((merge() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(parts).getByRole('checkbox', { name: 'lease.pdf' }));
    fireEvent.change(screen.getByLabelText(en.compose.merge.name), { target: { value: 'Lease with annex' } });
    fireEvent.click(merge());
    expect(await screen.findByText(en.compose.merge.done.replace('{{name}}', 'Lease with annex.pdf'))).toBeTruthy();
    expect(requestsTo('POST', `${DOCUMENTS}/merge`)[0]!.body).toEqual({ name: 'Lease with annex.pdf', documentIds: [annex.documentId, lease.documentId] });
    expect(chosenNames()).toEqual(['Lease with annex.pdf']);
  });

  it('converts an office file to PDF without storing it, then adds it as an upload', async () => {
    const { requestsTo } = stubCompose({
      ['POST /msbapi/v1/document/convert']: () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } }),
      [`POST ${DOCUMENTS}`]: ({ body }) => ok({ ...lease, name: (body as { file: File }).file.name }),
    });
    const { container } = await openCompose();
    // Mantine's FileButton puts its input at the end of the page: the second is the converter's.
    const input = container.querySelectorAll<HTMLInputElement>('input[type=file]')[1]!;
    expect(input.multiple).toBe(false);
    fireEvent.change(input, { target: { files: [new File(['doc'], 'Offer letter.docx')] } });
    expect(await screen.findByText(en.compose.convert.ready.replace('{{name}}', 'Offer letter.pdf'))).toBeTruthy();
    expect(requestsTo('POST', '/msbapi/v1/document/convert')).toHaveLength(1);
    expect(requestsTo('POST', DOCUMENTS)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: en.compose.convert.add }));
    await waitFor(() => expect(chosenNames()).toEqual(['Offer letter.pdf']));
    expect((requestsTo('POST', DOCUMENTS)[0]!.body as { file: File }).file.type).toBe('application/pdf');
  });

  it('goes on to the recipients only with a document chosen', async () => {
    stubCompose();
    await openCompose();
    goOnTo('recipients');
    expect(await screen.findByText(en.compose.errors.documentsRequired)).toBeTruthy();
    await chooseFromDrafts('lease.pdf');
    goOnTo('recipients');
    expect(await screen.findByRole('group', { name: 'Step 1' })).toBeTruthy();
  });
});
