import { displayedSize, DomainError, type PageGeometry, ResponseCode, samePages } from '@pakt/domain';

const isLandscape = (page: PageGeometry) => {
  const shown = displayedSize(page);
  return shown.width > shown.height;
};

/**
 * Whether a document can carry a template's tags, which are placed in points on each page: the
 * rule for a document put in a template's place, when the template's document is replaced and
 * when an ePak is composed from the template onto one of the composer's own documents.
 *
 * - -216 LANDSCAPE_ORIENTATION (spec §8 "landscape orientation"): a page that shows landscape
 *   (wider than tall as the viewer draws it, /Rotate applied) where the template's page shows
 *   portrait. Said first, since it names what to fix: the page is turned, or it is another paper.
 * - -189 DOCUMENT_SIZE_MISMATCH_WITH_TEMPLATE (spec §8 "document size mismatch with template"):
 *   any other difference, as samePages judges it: another number of pages, or a page of another
 *   size or turned another way in the file (tags would land off their fields).
 *
 * Answers the refusal, or null when the document fits.
 */
export function templateFitError(options: { template: readonly PageGeometry[]; document: readonly PageGeometry[] }): DomainError | null {
  const { template, document } = options;
  if (template.length === document.length) {
    const turned = template.flatMap((page, at) => (!isLandscape(page) && isLandscape(document[at]!) ? [at + 1] : []));
    if (turned.length > 0) {
      return new DomainError(
        ResponseCode.LANDSCAPE_ORIENTATION,
        turned.length === 1
          ? `Page ${turned[0]} of this document is landscape where the template's is portrait: use the document in the template's orientation.`
          : `Pages ${turned.join(', ')} of this document are landscape where the template's are portrait: use the document in the template's orientation.`,
        { data: { landscapePages: turned } },
      );
    }
  }
  if (samePages(template, document)) return null;
  const differing = template.length === document.length ? template.flatMap((_page, at) => (samePages([template[at]!], [document[at]!]) ? [] : [at + 1])) : [];
  return new DomainError(
    ResponseCode.DOCUMENT_SIZE_MISMATCH_WITH_TEMPLATE,
    template.length === document.length
      ? `The document must have the template's pages, each of the same size: ${differing.length === 1 ? `page ${differing[0]} differs` : `pages ${differing.join(', ')} differ`}.`
      : `The document must have the template's pages, each of the same size: the template has ${template.length} page(s), this document ${document.length}.`,
    { data: { pageCount: template.length, documentPageCount: document.length, differingPages: differing } },
  );
}
