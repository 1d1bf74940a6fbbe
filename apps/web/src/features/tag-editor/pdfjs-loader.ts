import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFWorker } from 'pdfjs-dist';

/**
 * Loads pdf.js (the ~400 kB library, on demand: never with the rest of the app) and starts the one
 * pdf.js worker the page's documents share.
 *
 * Both take seconds on a slow device: the library and the worker (another megabyte) are fetched
 * and compiled. Done only once a document's bytes had arrived, they came after the document's own
 * download rather than beside it, and every document opened started a worker of its own; a signing
 * page waited for all of it in turn before drawing its first page (on a busy phone, longer than the
 * 20 s a person or a test would wait). So a view that shows documents calls preloadPdfJs() when it
 * mounts, and every document uses the same worker, which lives as long as the page. Destroying a
 * document still frees what the worker held for it: pdf.js leaves a worker it was handed running.
 */

export type PdfJs = typeof PdfJsModule;

let loading: Promise<{ readonly pdfjs: PdfJs; readonly worker: PDFWorker }> | null = null;

/** The worker's script, started at once: it downloads and compiles beside the library, on its own thread. */
function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(workerUrl, { type: 'module' });
  } catch {
    // pdf.js then starts one itself (or, failing that, works on the main thread).
    return null;
  }
}

export function loadPdfJs(): Promise<{ readonly pdfjs: PdfJs; readonly worker: PDFWorker }> {
  if (!loading) {
    const port = startWorker();
    loading = import('pdfjs-dist').then(
      (pdfjs) => {
        pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
        // Messages sent before the worker's script has run wait for it in the worker's queue.
        return { pdfjs, worker: pdfjs.PDFWorker.create(port ? { port } : {}) };
      },
      (error: unknown) => {
        // A failed download (the network, say) is tried again by the next document, not kept.
        port?.terminate();
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}

/**
 * Starts loading pdf.js and its worker now, so they are ready by the time a document's bytes are.
 * Does nothing where there are no workers to start (jsdom in the unit tests).
 */
export function preloadPdfJs(): void {
  if (typeof Worker === 'undefined') return;
  // Whoever opens a document reports a failure; a preload has nobody to tell.
  loadPdfJs().catch(() => undefined);
}
