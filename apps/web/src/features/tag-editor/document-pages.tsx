import { Alert, Box, Button, Group, Loader, Text } from '@mantine/core';
import { displayedSize, type EpakDetail, type PageGeometry, type TagType } from '@pakt/domain';
import { memo, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { PdfDocument } from './pdf-document';
import { draggedTagType } from './tag-palette';
import type { PdfState } from './use-pdf-document';

export type EpakDocument = EpakDetail['documents'][number];

/** A point on a shown page: display frame, CSS px from the page's top-left as shown. */
export interface PagePoint {
  readonly pageNumber: number;
  readonly x: number;
  readonly y: number;
}

/** Space around the pages inside the scroll container, in CSS px (fit-to-width leaves it free). */
export const PAGES_PADDING = 8;

/**
 * Pages this far beyond the visible part of the scroll container (in container heights) get a
 * canvas; further ones are released. One height each way is one or two pages at fit-to-width.
 */
const RENDER_MARGIN = '100% 0px';

interface DocumentPagesProps {
  readonly document: EpakDocument;
  readonly pdf: PdfState;
  readonly zoom: number;
  readonly scrollRef: RefObject<HTMLDivElement | null>;
  /** Filled with each page's element, so a drag can find the page under the pointer. */
  readonly pageElements: RefObject<Map<number, HTMLElement>>;
  readonly armed: boolean;
  readonly height: string | Record<string, string>;
  readonly renderTags: (pageNumber: number, page: PageGeometry) => ReactNode;
  readonly onPageClick: (point: PagePoint) => void;
  readonly onPageDrop: (point: PagePoint, type: TagType) => void;
  /** The width pages can take without scrolling sideways (fit-to-width fits the widest to it). */
  readonly onAvailableWidth: (width: number) => void;
  /**
   * The pages take the height they need and scroll with the page around them (the signing
   * ceremony on a phone, issue 22): no box scrolling inside the page. Sideways they scroll only
   * when zoomed in beyond the width.
   */
  readonly scrollsWithPage?: boolean;
  /**
   * A picture of a page drawn elsewhere (the server's, for a signer's first look: issue 23), shown
   * in its box until pdf.js has drawn the page over it; null for none.
   */
  readonly pictureOf?: (pageNumber: number) => string | null;
}

/**
 * The pages of one document in a scrollable column. Every page has a box of its exact shown size
 * from the ePak's page geometry (no PDF needed for that), so scrolling and tag positions are
 * right before anything is drawn; only pages near the visible part get a pdf.js canvas, so a
 * document of hundreds of pages costs a handful of canvases.
 */
export function DocumentPages(props: DocumentPagesProps) {
  const { t } = useTranslation();
  const { document, pdf, zoom, scrollRef, pageElements, scrollsWithPage = false, pictureOf } = props;
  // While the first page's picture stands in for it, the loading note would cover its text.
  const pictureShown = pdf.status === 'loading' && Boolean(pictureOf?.(1));
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set([1, 2]));

  useEffect(() => {
    const root = scrollRef.current;
    if (!root || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) =>
        setNear((previous) => {
          const next = new Set(previous);
          for (const entry of entries) {
            const pageNumber = Number((entry.target as HTMLElement).dataset['pageNumber']);
            if (entry.isIntersecting) next.add(pageNumber);
            else next.delete(pageNumber);
          }
          return next;
        }),
      // Pages that scroll with the page are seen through the window, not their own box.
      { root: scrollsWithPage ? null : root, rootMargin: RENDER_MARGIN },
    );
    for (const element of pageElements.current.values()) observer.observe(element);
    return () => observer.disconnect();
  }, [scrollRef, pageElements, document.documentId, document.pages.length, scrollsWithPage]);

  const { onAvailableWidth } = props;
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const measure = () => onAvailableWidth(element.clientWidth - 2 * PAGES_PADDING);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [scrollRef, onAvailableWidth]);

  const pointOn = (pageNumber: number, element: HTMLElement, clientX: number, clientY: number): PagePoint => {
    const bounds = element.getBoundingClientRect();
    return { pageNumber, x: clientX - bounds.left, y: clientY - bounds.top };
  };

  return (
    <Box pos="relative">
      {pdf.status !== 'ready' && !pictureShown && (
        // Below the first page's "Page 1 of N" label (padding, then a line of text), not over it.
        <Box pos="absolute" top={PAGES_PADDING + 32} left={8} right={8} style={{ zIndex: 5 }}>
          {pdf.status === 'loading' ? (
            <Group gap="xs" justify="center" data-testid="pdf-loading">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                {t('tagEditor.pdfLoading')}
              </Text>
            </Group>
          ) : (
            <Alert color="red" variant="light" role="alert" title={t('tagEditor.pdfFailed')}>
              <Button variant="light" color="red" size="xs" onClick={pdf.retry}>
                {t('tagEditor.retry')}
              </Button>
            </Alert>
          )}
        </Box>
      )}
      <Box
        ref={scrollRef}
        role="region"
        aria-label={t('tagEditor.pages', { name: document.name })}
        data-testid="tag-editor-pages"
        data-scrolls-with-page={scrollsWithPage || undefined}
        // A box that scrolls is reachable by keyboard, so its pages can be scrolled without a mouse
        // (WCAG 2.1.1; axe: scrollable-region-focusable).
        tabIndex={scrollsWithPage ? undefined : 0}
        h={scrollsWithPage ? undefined : props.height}
        p={PAGES_PADDING}
        style={{
          ...(scrollsWithPage ? { overflowX: 'auto', overflowY: 'hidden' } : { overflow: 'auto', overscrollBehavior: 'contain' }),
          background: 'var(--mantine-color-gray-2)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        <Box style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 16, width: 'max-content', minWidth: '100%' }}>
          {document.pages.map((page, index) => (
            <PageView
              key={index}
              pageNumber={index + 1}
              pageCount={document.pages.length}
              page={page}
              zoom={zoom}
              pdf={near.has(index + 1) ? pdf.pdf : null}
              picture={pictureOf?.(index + 1) ?? null}
              armed={props.armed}
              register={(element) => {
                if (element) pageElements.current.set(index + 1, element);
                else pageElements.current.delete(index + 1);
              }}
              onClick={(element, clientX, clientY) => props.onPageClick(pointOn(index + 1, element, clientX, clientY))}
              onDrop={(element, clientX, clientY, type) => props.onPageDrop(pointOn(index + 1, element, clientX, clientY), type)}
            >
              {props.renderTags(index + 1, page)}
            </PageView>
          ))}
        </Box>
      </Box>
    </Box>
  );
}

interface PageViewProps {
  readonly pageNumber: number;
  readonly pageCount: number;
  readonly page: PageGeometry;
  readonly zoom: number;
  /** Set while the page is near the visible part: then it is drawn. */
  readonly pdf: PdfDocument | null;
  /** A picture of the page to show until pdf.js has drawn it. */
  readonly picture: string | null;
  readonly armed: boolean;
  readonly register: (element: HTMLElement | null) => void;
  readonly onClick: (element: HTMLElement, clientX: number, clientY: number) => void;
  readonly onDrop: (element: HTMLElement, clientX: number, clientY: number, type: TagType) => void;
  readonly children: ReactNode;
}

function PageView({ pageNumber, pageCount, page, zoom, pdf, picture, armed, register, onClick, onDrop, children }: PageViewProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const size = displayedSize(page);
  const width = size.width * zoom;
  const height = size.height * zoom;
  const [rendered, setRendered] = useState(false);
  const [pictureLoaded, setPictureLoaded] = useState<string | null>(null);
  const drawn = pdf !== null && rendered;
  const showsPicture = picture !== null && !drawn;
  return (
    <Box>
      <Text size="xs" c="dimmed" ta="center" mb={4} id={labelId}>
        {t('tagEditor.pageOf', { number: pageNumber, count: pageCount })}
      </Text>
      <div
        ref={register}
        role="group"
        aria-labelledby={labelId}
        data-page-number={pageNumber}
        data-rendered={drawn ? 'true' : undefined}
        data-picture={showsPicture && pictureLoaded === picture ? 'shown' : undefined}
        data-testid="tag-editor-page"
        onClick={(event) => onClick(event.currentTarget, event.clientX, event.clientY)}
        onDragOver={(event) => {
          if (!event.dataTransfer.types.includes('application/x-pakt-tag-type')) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDrop={(event) => {
          const type = draggedTagType(event);
          if (!type) return;
          event.preventDefault();
          onDrop(event.currentTarget, event.clientX, event.clientY, type);
        }}
        style={{
          position: 'relative',
          width,
          height,
          background: 'var(--mantine-color-white)',
          boxShadow: '0 1px 3px rgba(0, 0, 0, 0.25)',
          cursor: armed ? 'crosshair' : 'default',
        }}
      >
        {showsPicture && (
          // Decorative for assistive technology, as the canvas is: the tags carry what is to be done.
          <img src={picture} alt="" aria-hidden draggable={false} onLoad={() => setPictureLoaded(picture)} style={{ position: 'absolute', inset: 0, width, height, display: 'block', pointerEvents: 'none' }} />
        )}
        {pdf && <PageCanvas key={zoom} pdf={pdf} pageNumber={pageNumber} zoom={zoom} width={width} height={height} onRendered={setRendered} />}
        {children}
      </div>
    </Box>
  );
}

/**
 * One page drawn by pdf.js. Keyed by zoom: a new zoom gets a new canvas, since pdf.js refuses
 * to draw into a canvas while a cancelled render may still be finishing in it.
 */
const PageCanvas = memo(function PageCanvas({
  pdf,
  pageNumber,
  zoom,
  width,
  height,
  onRendered,
}: {
  readonly pdf: PdfDocument;
  readonly pageNumber: number;
  readonly zoom: number;
  readonly width: number;
  readonly height: number;
  readonly onRendered: (rendered: boolean) => void;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const job = pdf.renderPage(pageNumber, canvas, zoom, window.devicePixelRatio || 1);
    job.promise.then(
      () => onRendered(true),
      () => onRendered(false),
    );
    return () => {
      job.cancel();
      onRendered(false);
      // Release the pixels now rather than whenever the element is collected.
      canvas.width = 0;
      canvas.height = 0;
    };
  }, [pdf, pageNumber, zoom, onRendered]);
  return <canvas ref={ref} aria-hidden style={{ position: 'absolute', inset: 0, width, height, display: 'block', pointerEvents: 'none' }} />;
}, (a, b) => a.pdf === b.pdf && a.pageNumber === b.pageNumber && a.zoom === b.zoom && a.width === b.width && a.height === b.height);
