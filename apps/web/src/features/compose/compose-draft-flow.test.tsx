import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { newTag, type EpakDetail, type Tag } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import en from '../../i18n/en.json';
import { jsonResponse } from '../../test/fake-api';
import { blocksPath, copyId, detailOf, EPAK_ID, EPAK_PATH, goOnTo, lease, ok, openCompose, SIGN, stubCompose } from '../../test/compose-fixtures';

// jsdom cannot draw PDFs: the tag editor's pdf.js module is replaced by a document that "renders" at once.
vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 3, renderPage: () => ({ promise: Promise.resolve(), cancel: vi.fn() }), destroy: vi.fn() })),
}));

const START = `${EPAK_PATH}/start`;
const EDIT = '/msbapi/v2/epak/edit';
const draft = (over: Partial<EpakDetail> = {}) =>
  detailOf({ subject: 'Lease', documentIds: [lease.documentId], steps: [{ workflowStateId: SIGN, recipients: [{ email: 'ravi@example.com' }, { email: 'meera@example.com' }] }] }, over);
const signer = (email: string, at: number) => ({ userEmail: email, userUuid: `7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3d0${at}`, wfsOrderId: 1 });
const tag = (n: number, type: Tag['type'], email: string, at: number): Tag => ({
  ...newTag({ uuid: `00000000-0000-4000-8000-00000000000${n}`, type, pageNumber: 1, positionX: 40, positionY: 100 * n, ...signer(email, at) }),
  createType: 'existing',
});
const bothSign = [tag(1, 'signature', 'ravi@example.com', 0), tag(2, 'signature', 'meera@example.com', 1)];

const stepButton = (name: keyof typeof en.compose.flow.steps) => {
  const index = ['documents', 'recipients', 'fields', 'review'].indexOf(name) + 1;
  const label = en.compose.flow.stepOf.replace('{{number}}', String(index)).replace('{{count}}', '4').replace('{{name}}', en.compose.flow.steps[name].label);
  return within(screen.getByRole('navigation', { name: en.compose.flow.label })).getByRole('button', { name: label });
};
const status = () => screen.getByTestId('compose-save-status');

function stubDraft(shown: EpakDetail, tags: Tag[], routes: Parameters<typeof stubCompose>[0] = {}) {
  return stubCompose({
    [`GET ${EPAK_PATH}`]: () => ok(shown),
    [`GET ${blocksPath(0)}`]: () => ok({ tags }),
    [`GET ${EPAK_PATH}/documents/${copyId(0)}/download`]: () => new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } }),
    ...routes,
  });
}

/** A saved draft: resumed at the right step, saved as it changes, checked before it is sent. */
describe('/compose?ePakId=…, a draft', () => {
  it('resumes at the fields while a signer has none, and review names what is missing with the way to fix it', async () => {
    stubDraft(draft(), []);
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    expect(await screen.findByText(en.compose.draft.tagsNext, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(en.compose.draft.title);
    expect(stepButton('fields').getAttribute('aria-current')).toBe('step');

    fireEvent.click(stepButton('review'));
    const summary = await screen.findByRole('region', { name: en.compose.draft.summary });
    expect(within(summary).getByText('Lease')).toBeTruthy();
    expect(within(summary).getByText('2 signers')).toBeTruthy();
    const missing = screen.getByTestId('compose-missing');
    const said = en.compose.review.noSignatureField.replace('{{name}}', 'meera').replace('{{email}}', 'meera@example.com').replace('{{step}}', '1');
    expect(missing.textContent).toContain(said);
    expect((screen.getByRole('button', { name: en.compose.start.send }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(en.compose.review.sendBlocked)).toBeTruthy();

    fireEvent.click(within(missing).getByRole('button', { name: en.compose.review.fixThis.replace('{{problem}}', said) }));
    await waitFor(() => expect(stepButton('fields').getAttribute('aria-current')).toBe('step'));
  });

  it('says under ESIGNATURE that a signature still lacks its reason field', async () => {
    stubDraft(draft(), bothSign);
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    await screen.findByText(en.compose.draft.tagsNext, {}, { timeout: 4000 });
    fireEvent.click(stepButton('review'));
    const missing = await screen.findByTestId('compose-missing');
    expect(missing.textContent).toContain(en.compose.review.reasonMissing.replace('{{name}}', 'ravi').replace('{{document}}', 'lease.pdf'));
    expect(missing.textContent).toContain(en.compose.review.reasonMissing.replace('{{name}}', 'meera').replace('{{document}}', 'lease.pdf'));
  });

  it('resumes at review when nothing is missing, and sends, spelling out -107 before it succeeds', async () => {
    const shown = draft({ signingPolicy: 'QUICKSIGN' });
    let attempts = 0;
    const { requestsTo } = stubDraft(shown, bothSign, {
      [`POST ${START}`]: () =>
        ++attempts === 1
          ? jsonResponse(
              { code: -107, message: 'mismatch', data: { documentSigners: 1, workflowSigners: 2, withoutSignatureField: ['meera@example.com'], notInWorkflow: [], unassignedFields: [] } },
              422,
            )
          : ok({ ...shown, status: 'InProgress', currentStep: 1 }),
    });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    expect(await screen.findByText(en.compose.review.ready, {}, { timeout: 4000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: en.compose.start.send }));
    const refusal = await screen.findByRole('alert', { name: en.compose.start.refused });
    expect(refusal.textContent).toContain(en.compose.start.withoutSignatureField.replace('{{email}}', 'meera@example.com'));
    fireEvent.click(screen.getByRole('button', { name: en.compose.start.send }));
    expect(await screen.findByText(en.compose.start.sent)).toBeTruthy();
    expect(screen.queryByRole('button', { name: en.compose.start.send })).toBeNull();
    // The page no longer speaks of a draft, nor shows its steps.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(en.compose.sent.title);
    expect(screen.queryByText(en.compose.draft.tagsNext)).toBeNull();
    expect(screen.queryByRole('navigation', { name: en.compose.flow.label })).toBeNull();
    // Each person's standing shows once it is sent.
    expect(screen.getAllByText(en.compose.recipientStatus.Pending)).toHaveLength(2);
    expect(requestsTo('POST', START)).toHaveLength(2);
  });

  it.each([
    [-62, { withoutSignatureField: ['meera@example.com'] }, en.compose.start.signatureMissing],
    [-49, { problems: [{ tagUuid: bothSign[0]!.uuid, messageKey: 'reasonTagNotSelected' }] }, en.compose.start.reasonsMissing.replace('{{policy}}', en.compose.policies.QUICKSIGN.name)],
  ] as const)('says what the server refused with %i, and leads to the fields', async (code, data, said) => {
    stubDraft(draft({ signingPolicy: 'QUICKSIGN' }), bothSign, { [`POST ${START}`]: () => jsonResponse({ code, message: 'refused', data }, 422) });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    fireEvent.click(await screen.findByRole('button', { name: en.compose.start.send }, { timeout: 4000 }));
    const refusal = await screen.findByRole('alert', { name: en.compose.start.refused });
    expect(refusal.textContent).toContain(said);
    if (code === -62) expect(refusal.textContent).toContain(en.compose.start.withoutSignatureField.replace('{{email}}', 'meera@example.com'));
    else expect(refusal.textContent).toContain(en.reasonTagNotSelected);
    fireEvent.click(within(refusal).getByRole('button', { name: en.compose.review.fix }));
    expect(await screen.findByText(en.compose.draft.tagsNext)).toBeTruthy();
  });

  it("saves a changed subject by itself, again with the server's modifiedOn when fields moved it on (-306)", async () => {
    const moved = '2025-03-05T11:00:00.000Z';
    let edits = 0;
    const { requestsTo } = stubDraft(draft(), [], {
      [`POST ${EDIT}`]: ({ body }) => {
        const sent = body as { modifiedOn: string; subject: string };
        if (++edits === 1) return jsonResponse({ code: -306, message: 'changed', data: { modifiedOn: moved } }, 409);
        return ok({ ePakId: EPAK_ID, subject: sent.subject, message: null, expiresOn: null, modifiedOn: '2025-03-05T12:00:00.000Z' });
      },
    });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    await screen.findByText(en.compose.draft.tagsNext, {}, { timeout: 4000 });
    fireEvent.click(stepButton('recipients'));
    // Documents and people stay as created; the details can still change.
    expect(screen.getByText(en.compose.flow.recipientsFixed)).toBeTruthy();
    const subject = screen.getByLabelText(new RegExp(`^${en.compose.details.subject}`), { selector: 'input' });
    fireEvent.change(subject, { target: { value: 'Lease of flat 4B' } });
    expect(status().textContent).toBe(en.compose.flow.status.saving);
    await waitFor(() => expect(requestsTo('POST', EDIT)).toHaveLength(2), { timeout: 4000 });
    expect(requestsTo('POST', EDIT).map((request) => request.body)).toEqual([
      { ePakId: EPAK_ID, modifiedOn: '2025-03-05T10:00:00.000Z', subject: 'Lease of flat 4B' },
      { ePakId: EPAK_ID, modifiedOn: moved, subject: 'Lease of flat 4B' },
    ]);
    await waitFor(() => expect(status().textContent).toBe(en.compose.flow.status.saved));

    // An empty subject is not sent; the field says why.
    fireEvent.change(subject, { target: { value: ' ' } });
    expect(screen.getByText(en.common.required)).toBeTruthy();
    expect(status().textContent).toBe(en.compose.flow.status.invalid);
  });

  it('saves placed fields by themselves, and before the fields step is left', async () => {
    const { requestsTo } = stubDraft(draft({ signingPolicy: 'QUICKSIGN' }), [], { [`PUT ${blocksPath(0)}`]: ({ body }) => ok(body) });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    await screen.findByRole('region', { name: 'Pages of lease.pdf' }, { timeout: 4000 });
    const palette = () => screen.getByRole('group', { name: en.tagEditor.palette.heading });
    const place = (type: keyof typeof en.tagEditor.types, x: number) => {
      fireEvent.click(within(palette()).getByRole('button', { name: en.tagEditor.types[type] }));
      fireEvent.click(screen.getAllByTestId('tag-editor-page')[0]!, { clientX: x, clientY: 100 });
    };
    // The editor saves by itself here: it offers no save button of its own.
    expect(screen.queryByRole('button', { name: en.tagEditor.actions.save })).toBeNull();
    place('signature', 40);
    await waitFor(() => expect(status().textContent).toBe(en.compose.flow.status.saving));
    await waitFor(() => expect(requestsTo('PUT', blocksPath(0))).toHaveLength(1), { timeout: 4000 });
    await waitFor(() => expect(status().textContent).toBe(en.compose.flow.status.saved));

    // Straight on to review after another field: it is saved first, without waiting.
    place('text', 300);
    goOnTo('review');
    await waitFor(() => expect(requestsTo('PUT', blocksPath(0))).toHaveLength(2));
    expect((requestsTo('PUT', blocksPath(0))[1]!.body as { tags: Tag[] }).tags).toHaveLength(2);
    expect(await screen.findByRole('region', { name: en.compose.draft.summary })).toBeTruthy();
  }, 20_000);

  it('says the fields are not saved when the save fails, and stays on the fields step', async () => {
    const { requestsTo } = stubDraft(draft({ signingPolicy: 'QUICKSIGN' }), [], { [`PUT ${blocksPath(0)}`]: () => jsonResponse({ code: -1, message: 'boom', data: null }, 503) });
    await openCompose(`/compose?ePakId=${EPAK_ID}`);
    await screen.findByRole('region', { name: 'Pages of lease.pdf' }, { timeout: 4000 });
    fireEvent.click(within(screen.getByRole('group', { name: en.tagEditor.palette.heading })).getByRole('button', { name: en.tagEditor.types.signature }));
    fireEvent.click(screen.getAllByTestId('tag-editor-page')[0]!, { clientX: 40, clientY: 100 });
    goOnTo('review');
    await waitFor(() => expect(requestsTo('PUT', blocksPath(0))).toHaveLength(1));
    await waitFor(() => expect(status().textContent).toBe(en.compose.flow.status.failed));
    expect(screen.getByText(en.tagEditor.saveFailed)).toBeTruthy();
    expect(stepButton('fields').getAttribute('aria-current')).toBe('step');
    expect(screen.queryByRole('region', { name: en.compose.draft.summary })).toBeNull();
  }, 20_000);
});
