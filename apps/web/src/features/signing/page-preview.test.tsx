import { PAGE_PREVIEW_WIDTHS } from '@pakt/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../api/session-store';
import { DOC_A, epakOf, EPAK_ID, paths, stubCeremony } from '../../test/ceremony-fixtures';
import { adminUser, errorResponse, signedInSession, TENANT_ACME } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';
import { previewWidthFor } from './use-page-preview';

vi.mock('../tag-editor/pdf-document', () => ({
  openPdf: vi.fn(async () => ({ pageCount: 1, renderPage: () => ({ promise: new Promise(() => undefined), cancel: () => undefined }), destroy: () => undefined })),
}));

const previewPath = `/msbapi/v2/epaks/${EPAK_ID}/documents/${DOC_A}/pages/1/preview`;
const png = () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } });

describe('previewWidthFor', () => {
  it('takes the smallest offered width that covers the page at the screen’s density, at most 1.5, or the largest', () => {
    expect(previewWidthFor(340, 1)).toBe(360);
    expect(previewWidthFor(340, 3)).toBe(640);
    expect(previewWidthFor(400, 2)).toBe(640);
    expect(previewWidthFor(800, 1)).toBe(800);
    expect(previewWidthFor(1400, 2)).toBe(PAGE_PREVIEW_WIDTHS.at(-1));
    expect(previewWidthFor(100, 0)).toBe(360);
  });
});

describe('the signing page’s first look', () => {
  beforeEach(() => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:page-1'), revokeObjectURL: vi.fn() }));
    sessionStore.set(signedInSession(adminUser, { tenantUuid: TENANT_ACME }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server’s picture of the first page, and fetches the PDF only once the picture has come', async () => {
    let answerPicture: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answerPicture = resolve));
    let pictureAnswered = false;
    let pdfAskedBeforePicture = false;
    const api = stubCeremony(
      epakOf(),
      { [DOC_A]: [] },
      {
        [`GET ${previewPath}`]: async () => {
          await held;
          pictureAnswered = true;
          return png();
        },
        // Records when the PDF is asked for, and answers it (this route replaces the fixture's).
        [`GET ${paths.download(DOC_A)}`]: () => {
          pdfAskedBeforePicture ||= !pictureAnswered;
          return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'Content-Type': 'application/pdf' } });
        },
      },
    );
    renderApp(`/sign?ePakId=${EPAK_ID}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });

    await waitFor(() => expect(api.requestsTo('GET', previewPath)).toHaveLength(1));
    const width = Number(new URL(api.requestsTo('GET', previewPath)[0]!.url, 'http://x').searchParams.get('width'));
    expect(PAGE_PREVIEW_WIDTHS).toContain(width);
    answerPicture();
    const page = (await screen.findAllByTestId('tag-editor-page'))[0]!;
    await waitFor(() => expect(page.querySelector('img')?.getAttribute('src')).toBe('blob:page-1'));
    expect(page.querySelector('img')?.getAttribute('alt')).toBe('');
    await waitFor(() => expect(api.requestsTo('GET', paths.download(DOC_A))).toHaveLength(1));
    // The PDF waited for the picture, so the two did not share a slow line.
    expect(pdfAskedBeforePicture).toBe(false);
    expect(api.requestsTo('GET', previewPath)).toHaveLength(1);
  });

  it('loads the PDF as before when no picture can be made', async () => {
    const api = stubCeremony(epakOf(), { [DOC_A]: [] }, { [`GET ${previewPath}`]: () => errorResponse(-228, 404, 'No picture of this page could be made') });
    renderApp(`/sign?ePakId=${EPAK_ID}`);
    await screen.findByRole('heading', { level: 1, name: 'Office lease' });
    await waitFor(() => expect(api.requestsTo('GET', paths.download(DOC_A))).toHaveLength(1));
    const page = (await screen.findAllByTestId('tag-editor-page'))[0]!;
    expect(page.querySelector('img')).toBeNull();
    // Nothing is said about it: the page is drawn by pdf.js instead.
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
