import type { PDFDocumentProxy } from 'pdfjs-dist';
import { loadPdfJs } from './pdfjs-loader';

/**
 * The one place pdf.js is used (pdfjs-loader.ts loads it, on demand, so the ~400 kB library loads
 * only when a document is shown, never with the rest of the app); tests (jsdom cannot render PDFs)
 * replace this module as a whole.
 */

/** Where vite.config.ts puts pdf.js's data files (under the app's base path). */
const PDFJS_ASSETS = `${import.meta.env.BASE_URL}pdfjs/`;

/**
 * The most canvas pixels one page may take: at zoom 3 on a 2x screen an A4 page would be 18 M
 * pixels (72 MB). Past this the sharpness is lowered instead, as pdf.js's own viewer does.
 */
const MAX_CANVAS_PIXELS = 2 ** 24;

export interface RenderJob {
  readonly promise: Promise<void>;
  cancel(): void;
}

export interface PdfDocument {
  readonly pageCount: number;
  /**
   * Draws page `pageNumber` (1-based) into the canvas at `zoom` CSS px per point, with /Rotate
   * applied as the page asks (so it matches the display frame of geometry.ts), at `pixelRatio`
   * device pixels per CSS px. The canvas's CSS size is the caller's to set.
   */
  renderPage(pageNumber: number, canvas: HTMLCanvasElement, zoom: number, pixelRatio: number): RenderJob;
  destroy(): void;
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && error.name === 'RenderingCancelledException';
}

function wrap(proxy: PDFDocumentProxy): PdfDocument {
  return {
    pageCount: proxy.numPages,
    renderPage(pageNumber, canvas, zoom, pixelRatio) {
      let cancelled = false;
      let cancelTask: (() => void) | null = null;
      const promise = (async () => {
        const page = await proxy.getPage(pageNumber);
        if (cancelled) return;
        const base = page.getViewport({ scale: zoom, rotation: page.rotate });
        const ratio = Math.min(pixelRatio, Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, base.width * base.height)));
        const viewport = page.getViewport({ scale: zoom * ratio, rotation: page.rotate });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        const task = page.render({ canvas, viewport });
        cancelTask = () => task.cancel();
        try {
          await task.promise;
        } catch (error) {
          if (!isCancellation(error)) throw error;
        }
      })();
      return {
        promise,
        cancel() {
          cancelled = true;
          cancelTask?.();
        },
      };
    },
    destroy() {
      void proxy.destroy();
    },
  };
}

/** Opens a PDF from its bytes. The bytes are copied: pdf.js hands its buffer to the worker. */
export async function openPdf(bytes: ArrayBuffer): Promise<PdfDocument> {
  const { pdfjs, worker } = await loadPdfJs();
  // isEvalSupported false: pdf.js then never compiles code from a document (fonts included).
  const proxy = await pdfjs.getDocument({
    data: new Uint8Array(bytes.slice(0)),
    // The page's one worker, started early (pdfjs-loader.ts); destroying the document leaves it running.
    worker,
    isEvalSupported: false,
    // pdf.js's own data, copied next to the app by vite.config.ts (pdfJsAssets): the 14 standard
    // fonts that PDFs may use without embedding, character maps for CJK text, and the decoders
    // of JPEG 2000 and JBIG2 images. Without them such pages draw with wrong glyphs or blanks.
    standardFontDataUrl: `${PDFJS_ASSETS}standard_fonts/`,
    cMapUrl: `${PDFJS_ASSETS}cmaps/`,
    cMapPacked: true,
    wasmUrl: `${PDFJS_ASSETS}wasm/`,
  }).promise;
  return wrap(proxy);
}
