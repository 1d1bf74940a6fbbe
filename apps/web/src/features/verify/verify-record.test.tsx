import { PublicVerificationRecord, VERIFY_RECORD_PARAM, VerificationReport } from '@pakt/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { errorResponse, jsonResponse, stubApi } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { formatDateTime } from '../../ui/dates';
import { fileSha256, matchingDocument } from './file-sha256';

const copy = en.verify;
const RECORD = 'GET /msbapi/public/verifyQrData';
const VERIFY = 'POST /msbapi/public/verify';
/** A token as a certificate's QR code carries it: characters that must survive the query string. */
const TOKEN = 'ep_7f3a.Zm9vYmFy+/=';

// The SHA-256 of the files below (sha256sum of the same bytes): the comparison is real, not faked.
const LEASE = '%PDF-1.7\nlease, final\n';
const LEASE_SHA256 = '0db4f62b33c783e9b294f921cb035c6bd937e974263cdbe50ba98109141ddcb2';
const EDITED = '%PDF-1.7\nlease, edited\n';
const EDITED_SHA256 = '01b187fd2c486c49318051bf55fcfc5d5281f1885356e01b884668f8b1de0cca';
const ANNEX_SHA256 = '50e25c84dc0896a95799d20b4e9aac0056e2011a3b21cca0d797ac4e9793e9d2';

/** An ePak of two documents, the lease second, whose tenant shows names. */
const record: PublicVerificationRecord = PublicVerificationRecord.parse({
  tenantName: 'Acme Legal',
  status: 'Completed',
  completedOn: '2026-11-21T14:05:00.000Z',
  documents: [{ sha256: ANNEX_SHA256 }, { sha256: LEASE_SHA256 }],
  signerCount: 2,
  subject: 'Lease agreement, flat 4B',
  signers: ['Meera Shah', 'Ravi Kumar'],
});

const report: VerificationReport = VerificationReport.parse({
  fileName: 'lease.pdf',
  sha256: LEASE_SHA256,
  size: LEASE.length,
  verdict: 'unsigned',
  certificationLevel: null,
  signatures: [],
  revisions: [{ number: 1, endOffset: LEASE.length, signedBy: null, changes: [] }],
  warnings: [],
  pakt: null,
  checkedOn: '2026-11-27T10:30:00.000Z',
});

const fileOf = (text: string, name = 'lease.pdf') => new File([text], name, { type: 'application/pdf' });
const choose = (file: File) =>
  fireEvent.change(document.querySelector<HTMLInputElement>('input[type="file"]')!, { target: { files: [file] } });

async function openFromQrCode(token = TOKEN) {
  const rendered = renderApp(`/verify?${VERIFY_RECORD_PARAM}=${encodeURIComponent(token)}`);
  await screen.findByRole('heading', { level: 1, name: copy.title });
  return rendered;
}

describe('fileSha256', () => {
  it('hashes the bytes of a file as lowercase hex', async () => {
    // The FIPS 180-2 test vector for "abc".
    expect(await fileSha256(new File(['abc'], 'abc.txt'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await fileSha256(fileOf(LEASE))).toBe(LEASE_SHA256);
  });

  it('names the matching document by its place in the record, or none', () => {
    expect(matchingDocument(LEASE_SHA256, record)).toBe(2);
    expect(matchingDocument(ANNEX_SHA256.toUpperCase(), record)).toBe(1);
    expect(matchingDocument(EDITED_SHA256, record)).toBeNull();
  });
});

describe('VerifyPage from a QR code', () => {
  it('shows the record of the token in its URL', async () => {
    const { requestsTo } = stubApi({ [RECORD]: () => jsonResponse({ code: 1, data: record }) });
    await openFromQrCode();
    const card = await screen.findByRole('region', { name: copy.record.heading });
    const [request] = requestsTo('GET', '/msbapi/public/verifyQrData');
    expect(new URL(request!.url, 'http://pakt.test').searchParams.get('data')).toBe(TOKEN);
    for (const text of [
      'Acme Legal',
      en.inbox.status.Completed,
      formatDateTime(record.completedOn, 'en'),
      'Lease agreement, flat 4B',
      'Meera Shah, Ravi Kumar',
      `Document 1: ${ANNEX_SHA256}`,
      `Document 2: ${LEASE_SHA256}`,
    ]) {
      expect(card.textContent).toContain(text);
    }
    expect(card.textContent).toContain(`${copy.record.signerCount}2`);
    expect(screen.queryByTestId('verify-record-private')).toBeNull();
    // Nothing is sent but the token: the file has yet to be chosen, and will be compared here.
    expect(requestsTo('POST', '/msbapi/public/verify')).toHaveLength(0);
    expect(screen.getByTestId('verify-drop-zone').textContent).toContain(copy.record.privacy);
  });

  it('says the names are kept private when the organisation does not show them', async () => {
    stubApi({ [RECORD]: () => jsonResponse({ code: 1, data: { ...record, subject: null, signers: null } }) });
    await openFromQrCode();
    const card = await screen.findByRole('region', { name: copy.record.heading });
    expect(screen.getByTestId('verify-record-private').textContent).toBe('Acme Legal keeps the subject and the signers\' names private.');
    expect(card.textContent).not.toContain('Meera Shah');
    expect(card.textContent).not.toContain(copy.record.subject);
    expect(card.textContent).toContain(LEASE_SHA256);
  });

  it('matches the recorded file in the browser and sends nothing', async () => {
    const { requestsTo } = stubApi({ [RECORD]: () => jsonResponse({ code: 1, data: record }) });
    await openFromQrCode();
    await screen.findByRole('region', { name: copy.record.heading });
    choose(fileOf(LEASE));
    const match = await screen.findByTestId('verify-record-match');
    expect(match.getAttribute('data-match')).toBe('true');
    expect(match.getAttribute('role')).toBe('status');
    expect(match.textContent).toContain('This file is document 2 of the record, as it stands at the end');
    expect(match.textContent).toContain(LEASE_SHA256);
    expect(requestsTo('POST', '/msbapi/public/verify')).toHaveLength(0);
    expect(screen.getByRole('button', { name: copy.record.checkSignatures })).toBeTruthy();
  });

  it('says a different file is not the recorded document', async () => {
    const { requestsTo } = stubApi({ [RECORD]: () => jsonResponse({ code: 1, data: record }) });
    await openFromQrCode();
    await screen.findByRole('region', { name: copy.record.heading });
    choose(fileOf(EDITED));
    const match = await screen.findByTestId('verify-record-match');
    expect(match.getAttribute('data-match')).toBe('false');
    expect(match.getAttribute('role')).toBe('alert');
    expect(match.textContent).toContain(copy.record.mismatch);
    expect(match.textContent).toContain(EDITED_SHA256);
    expect(requestsTo('POST', '/msbapi/public/verify')).toHaveLength(0);

    // Choosing the right file next replaces the answer.
    choose(fileOf(LEASE));
    await waitFor(() => expect(screen.getByTestId('verify-record-match').getAttribute('data-match')).toBe('true'));
  });

  it('checks the signatures too when asked, and shows the report below the match', async () => {
    const { requestsTo } = stubApi({
      [RECORD]: () => jsonResponse({ code: 1, data: record }),
      [VERIFY]: () => jsonResponse({ code: 1, data: report }),
    });
    await openFromQrCode();
    await screen.findByRole('region', { name: copy.record.heading });
    choose(fileOf(LEASE));
    fireEvent.click(await screen.findByRole('button', { name: copy.record.checkSignatures }));

    const shown = await screen.findByTestId('verify-report');
    const [request] = requestsTo('POST', '/msbapi/public/verify');
    const sent = (request!.body as Record<string, unknown>)['file'] as File;
    expect(sent.name).toBe('lease.pdf');
    expect(await sent.text()).toBe(LEASE);
    expect(within(shown).getByTestId('verify-verdict').getAttribute('data-verdict')).toBe('unsigned');
    // The local answer stays above the report; the offer to check is spent.
    expect(screen.getByTestId('verify-record-match').getAttribute('data-match')).toBe('true');
    expect(screen.queryByRole('button', { name: copy.record.checkSignatures })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: copy.another }));
    expect(await screen.findByRole('button', { name: copy.drop.choose })).toBeTruthy();
    expect(screen.queryByTestId('verify-record-match')).toBeNull();
    expect(screen.getByRole('region', { name: copy.record.heading })).toBeTruthy();
  });

  it('explains a token this install did not make, and the drop zone still checks a file', async () => {
    const { requestsTo } = stubApi({
      [RECORD]: () => errorResponse(-1, 404, 'Not found'),
      [VERIFY]: () => jsonResponse({ code: 1, data: report }),
    });
    await openFromQrCode('forged-token');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(copy.record.notFound);
    expect(alert.textContent).toContain(copy.record.notFoundHint);
    expect(screen.queryByRole('region', { name: copy.record.heading })).toBeNull();
    // A 404 is the server's verdict: asked once, not retried.
    expect(requestsTo('GET', '/msbapi/public/verifyQrData')).toHaveLength(1);

    choose(fileOf(LEASE));
    await screen.findByTestId('verify-report');
    expect(requestsTo('POST', '/msbapi/public/verify')).toHaveLength(1);
    expect(screen.queryByTestId('verify-record-match')).toBeNull();
  });
});
