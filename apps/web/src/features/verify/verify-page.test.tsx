import { VerificationReport } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, signedInSession, stubApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

/** A 1 x 1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const copy = en.verify;
const VERIFY = 'POST /msbapi/public/verify';

/**
 * A lease signed by two people, then edited without a signature: Meera's certificate comes from
 * this install's Acme Legal authority, Ravi's from an outside CA; the third revision rewrites
 * page 1 (not allowed after a signature) with content hidden in the signed revision (shadow hide).
 */
const report: VerificationReport = VerificationReport.parse({
  fileName: 'lease-signed.pdf',
  sha256: '9f2c4b7a1e0d8c3f5a6b9e2d1c0f4a7b8e3d2c1b0a9f8e7d6c5b4a3928170605',
  size: 284_512,
  verdict: 'changed',
  certificationLevel: 2,
  signatures: [
    {
      fieldName: 'Signature1',
      signerName: 'Meera Shah',
      signedAt: '2026-11-20T09:15:00.000Z',
      reason: 'I agree to the terms',
      subFilter: 'ETSI.CAdES.detached',
      integrity: 'intact',
      problem: null,
      coversWholeFile: false,
      unsignedBytesAfter: 52_340,
      revisionsAfter: 2,
      subject: 'CN=Meera Shah,O=Acme Legal,C=IN',
      issuer: 'CN=Acme Legal Signing CA,O=Acme Legal,C=IN',
      anchor: 'thisInstall',
      anchorTenant: 'Acme Legal',
      revision: 1,
    },
    {
      fieldName: 'Signature2',
      signerName: 'Ravi Kumar',
      signedAt: '2026-11-21T14:02:00.000Z',
      reason: null,
      subFilter: 'adbe.pkcs7.detached',
      integrity: 'intact',
      problem: null,
      coversWholeFile: false,
      unsignedBytesAfter: 1_877,
      revisionsAfter: 1,
      subject: 'CN=Ravi Kumar,E=ravi@example.org',
      issuer: 'CN=Example Public Issuing CA 2,O=Example Trust,C=US',
      anchor: 'other',
      anchorTenant: null,
      revision: 2,
    },
  ],
  revisions: [
    { number: 1, endOffset: 232_172, signedBy: 'Signature1', changes: [] },
    {
      number: 2,
      endOffset: 282_635,
      signedBy: 'Signature2',
      changes: [{ kind: 'signatureAdded', page: 2, name: 'Signature2', allowed: true, detail: 'A signature was added to an empty signature field.' }],
    },
    {
      number: 3,
      endOffset: 284_512,
      signedBy: null,
      changes: [
        { kind: 'pageContent', page: 1, name: null, allowed: false, detail: 'The content stream of page 1 was replaced after it was signed.' },
      ],
      // One pixel each: the page before and after, where it changed.
      regions: [{ page: 1, box: [72.4, 700, 310.2, 724.8], before: `data:image/png;base64,${PIXEL}`, after: `data:image/png;base64,${PIXEL}` }],
    },
  ],
  warnings: [
    {
      kind: 'shadowHide',
      signature: 'Signature1',
      detail: 'Revision 3 uncovers content that was hidden under an overlay when Signature1 was made.',
    },
  ],
  pakt: {
    tenantName: 'Acme Legal',
    subject: 'Lease agreement, flat 4B',
    status: 'Completed',
    completedOn: '2026-11-21T14:05:00.000Z',
    signers: ['Meera Shah', 'Ravi Kumar'],
    matches: 'earlier',
    auditChainValid: true,
  },
  checkedOn: '2026-11-27T10:30:00.000Z',
});

const pdf = () => new File(['%PDF-1.7\n'], 'lease-signed.pdf', { type: 'application/pdf' });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const chooseFile = () => fireEvent.change(fileInput(), { target: { files: [pdf()] } });

async function openPage() {
  renderApp('/verify');
  await screen.findByRole('heading', { level: 1, name: copy.title });
}

describe('VerifyPage', () => {
  it('opens signed out, with the language selector and the way to hand over a PDF', async () => {
    const { fetchMock } = stubApi();
    await openPage();
    expect(screen.getByRole('combobox', { name: en.shell.language })).toBeTruthy();
    expect(screen.getByRole('button', { name: copy.drop.choose })).toBeTruthy();
    expect(fileInput().getAttribute('accept')).toBe('application/pdf,.pdf');
    // Nothing is sent before a file is chosen.
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/verify'))).toHaveLength(0);
  });

  it('opens signed in too, without being sent elsewhere', async () => {
    sessionStore.set(signedInSession());
    stubApi();
    const { router } = renderApp('/verify');
    await screen.findByRole('heading', { level: 1, name: copy.title });
    expect(router.state.location.pathname).toBe('/verify');
    expect(screen.getByRole('combobox', { name: en.shell.language })).toBeTruthy();
  });

  it('sends the file, waits, then shows verdict, warnings, record, signatures and revisions', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { requestsTo } = stubApi({ [VERIFY]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await openPage();
    chooseFile();

    expect((await screen.findByRole('status')).textContent).toBe(copy.checking.replace('{{name}}', 'lease-signed.pdf'));
    const [request] = requestsTo('POST', '/msbapi/public/verify');
    const sent = (request!.body as Record<string, unknown>)['file'];
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('lease-signed.pdf');
    // Signed out: nothing to authorise with.
    expect(request!.headers.get('Authorization')).toBeNull();

    answer(jsonResponse({ code: 1, data: report }));
    const verdict = await screen.findByTestId('verify-verdict');
    expect(verdict.getAttribute('data-verdict')).toBe('changed');
    expect(verdict.getAttribute('role')).toBe('status');
    expect(verdict.textContent).toContain(copy.verdict.changed.title);
    expect(verdict.textContent).toContain(copy.verdict.changed.body);

    const warnings = screen.getByTestId('verify-warnings');
    expect(warnings.getAttribute('role')).toBe('alert');
    expect(warnings.textContent).toContain(copy.warnings.kind.shadowHide);
    expect(warnings.textContent).toContain(report.warnings[0]!.detail);
    expect(warnings.textContent).toContain('Signature1');

    const file = screen.getByRole('region', { name: copy.file.heading });
    expect(file.textContent).toContain('lease-signed.pdf');
    expect(file.textContent).toContain(report.sha256);
    expect(file.textContent).toContain('284,512 bytes');
    expect(file.textContent).toContain(copy.file.certificationLevel['2']);

    const pakt = screen.getByRole('region', { name: copy.pakt.heading });
    for (const text of ['Acme Legal', 'Lease agreement, flat 4B', en.inbox.status.Completed, 'Meera Shah, Ravi Kumar', copy.pakt.earlier, copy.pakt.auditValid]) {
      expect(pakt.textContent).toContain(text);
    }

    const signatures = within(screen.getByRole('region', { name: copy.signatures.heading })).getAllByRole('listitem');
    expect(signatures.map((item) => item.getAttribute('aria-label'))).toEqual(['Signature 1: Meera Shah', 'Signature 2: Ravi Kumar']);
    const [meera, ravi] = signatures;
    expect(meera!.textContent).toContain(copy.signatures.integrity.intact);
    expect(meera!.textContent).toContain('CN=Meera Shah,O=Acme Legal,C=IN');
    expect(meera!.textContent).toContain('CN=Acme Legal Signing CA,O=Acme Legal,C=IN');
    expect(meera!.textContent).toContain('Acme Legal, an organisation of this install');
    expect(meera!.textContent).toContain('52,340 unsigned bytes in 2 revisions after it');
    expect(meera!.textContent).toContain('Revision 1');
    expect(meera!.textContent).toContain('I agree to the terms');
    expect(ravi!.textContent).toContain(copy.signatures.anchorOther);
    expect(ravi!.textContent).toContain('1,877 unsigned bytes in 1 revision after it');
    expect(ravi!.textContent).toContain('Revision 2');

    const revisions = screen.getByRole('region', { name: copy.revisions.heading });
    const items = within(revisions).getAllByRole('listitem').filter((item) => item.getAttribute('aria-label'));
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Revision 1', 'Revision 2', 'Revision 3']);
    expect(items[0]!.textContent).toContain(copy.revisions.original);
    expect(items[1]!.textContent).toContain('Signed by Ravi Kumar');
    expect(items[2]!.textContent).toContain(copy.revisions.unsigned);
    const refused = revisions.querySelector('[data-allowed="false"]')!;
    expect(refused.getAttribute('data-kind')).toBe('pageContent');
    expect(refused.textContent).toContain(copy.revisions.kind.pageContent);
    expect(refused.textContent).toContain('Page 1');
    expect(refused.textContent).toContain(copy.revisions.notAllowed);
    expect(refused.textContent).toContain('The content stream of page 1 was replaced after it was signed.');
    expect(revisions.querySelectorAll('[data-allowed="false"]')).toHaveLength(1);
    expect(revisions.querySelector('[data-allowed="true"]')!.textContent).toContain(copy.revisions.allowed);
    // Where revision 3 changed page 1, as rendered: the area before and after.
    const region = within(items[2]!).getByLabelText(copy.regions.label.replace('{{page}}', '1').replace('{{x0}}', '72').replace('{{y0}}', '700').replace('{{x1}}', '310').replace('{{y1}}', '725'));
    expect([...region.querySelectorAll('img')].map((img) => img.getAttribute('alt'))).toEqual([copy.regions.before, copy.regions.after]);
  });

  it.each([
    { why: 'not a readable PDF (-59)', status: 422, code: -59, message: 'The file is not a PDF: it does not start with %PDF.', headline: copy.refused.invalid },
    { why: 'too large (413)', status: 413, code: -59, message: 'The file is larger than 25 MB, the most a document may be.', headline: copy.refused.tooLarge },
    { why: 'rate limited (429)', status: 429, code: -1, message: 'Too many requests: try again in 30 seconds.', headline: copy.refused.rateLimited },
  ])('a refusal, $why, shows the server message and keeps the drop zone', async ({ status, code, message, headline }) => {
    stubApi({ [VERIFY]: () => errorResponse(code, status, message) });
    await openPage();
    chooseFile();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(copy.refused.title);
    expect(alert.textContent).toContain(headline);
    expect(alert.textContent).toContain(message);
    expect(screen.getByTestId('verify-drop-zone')).toBeTruthy();
    expect(screen.queryByTestId('verify-report')).toBeNull();
  });

  it('takes a dropped file, offers the report as JSON, and checks another file', async () => {
    const { requestsTo } = stubApi({ [VERIFY]: () => jsonResponse({ code: 1, data: report }) });
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    await openPage();
    fireEvent.drop(screen.getByTestId('verify-drop-zone'), { dataTransfer: { files: [pdf()], types: ['Files'] } });
    await screen.findByTestId('verify-report');
    expect(requestsTo('POST', '/msbapi/public/verify')).toHaveLength(1);

    // The download is an anchor's click, which jsdom cannot follow: its name and bytes are what count.
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: copy.download }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect((clicked.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('lease-signed.verification.json');
    expect(saved!.type).toBe('application/json');
    expect(JSON.parse(await saved!.text())).toEqual(report);

    fireEvent.click(screen.getByRole('button', { name: copy.another }));
    expect(await screen.findByRole('button', { name: copy.drop.choose })).toBeTruthy();
    expect(screen.queryByTestId('verify-report')).toBeNull();
  });

  it('offers the report sealed as a PDF: the same file is sent again and the answer saved', async () => {
    const sealedPdf = '%PDF-1.7 sealed report';
    const { requestsTo } = stubApi({
      [VERIFY]: () => jsonResponse({ code: 1, data: report }),
      'POST /msbapi/public/verify/report': () => new Response(sealedPdf, { status: 200, headers: { 'Content-Type': 'application/pdf' } }),
    });
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await openPage();
    fireEvent.drop(screen.getByTestId('verify-drop-zone'), { dataTransfer: { files: [pdf()], types: ['Files'] } });
    await screen.findByTestId('verify-report');
    fireEvent.click(screen.getByRole('button', { name: copy.downloadPdf }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const sent = requestsTo('POST', '/msbapi/public/verify/report');
    expect(sent).toHaveLength(1);
    expect(((sent[0]!.body as { file: File }).file).name).toBe('lease-signed.pdf');
    expect((clicked.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('lease-signed - verification report.pdf');
    expect(await saved!.text()).toBe(sealedPdf);
  });

  it('is offered from the sign-in page', async () => {
    stubApi();
    renderApp('/login');
    const link = await screen.findByRole('link', { name: copy.loginLink });
    expect(link.getAttribute('href')).toBe('/verify');
  });
});
