import type { PreconfiguredTag } from './api/documents';
import { type Tag, newTag, tagDimensions } from './tags/tag';
import type { TagType } from './constants/tags';
import type { PageGeometry } from './documents';

/**
 * The PDF's own form fields as a template's preconfigured tags (spec §7 "preconfigured tags"):
 * each field becomes the tag that fills it, where it already sits. Text and choice fields become
 * text tags carrying the field's value, signature fields signature tags. Check boxes, radio
 * buttons and push buttons have no tag that fills them (a tag draws text or an image), so they
 * stay the PDF's own. A field smaller than its tag type allows keeps its size: the tag carries
 * its own minimum, which the placement rules honour, rather than being moved off its field.
 * Nobody is named: who fills which is chosen when the template's tags are edited or composed.
 */
const TYPE_OF: Partial<Record<PreconfiguredTag['fieldType'], TagType>> = { text: 'text', choice: 'text', signature: 'signature' };

export function tagsFromFormFields(fields: readonly PreconfiguredTag[], newUuid: () => string): Tag[] {
  const tags: Tag[] = [];
  for (const field of fields) {
    const type = TYPE_OF[field.fieldType];
    if (!type || field.blockWidth <= 0 || field.blockHeight <= 0) continue;
    const limits = tagDimensions(type);
    tags.push(
      newTag({
        uuid: newUuid(),
        type,
        name: field.name.slice(0, 500),
        pageNumber: field.pageNumber,
        positionX: field.positionX,
        positionY: field.positionY,
        blockWidth: field.blockWidth,
        blockHeight: field.blockHeight,
        createType: 'existing',
        readOnly: field.readOnly,
        ...(type === 'text' && field.value ? { value: field.value.slice(0, 10_000) } : {}),
        ...(field.required ? { validations: { required: { value: true } } } : {}),
        ...(field.blockWidth < limits.min.width || field.blockHeight < limits.min.height
          ? { min: { width: Math.min(field.blockWidth, limits.min.width), height: Math.min(field.blockHeight, limits.min.height) } }
          : {}),
        ...(field.blockWidth > limits.max.width || field.blockHeight > limits.max.height
          ? { max: { width: Math.max(field.blockWidth, limits.max.width), height: Math.max(field.blockHeight, limits.max.height) } }
          : {}),
      }),
    );
  }
  return tags;
}

/** Points two page sizes may differ by and still be the same paper (rounding in producers). */
const PAGE_SIZE_TOLERANCE = 0.5;

/**
 * Whether a replacement document has the template's pages: as many, each the same size and
 * turned the same way. Tags are placed in points on each page, so anything else would move them
 * off their fields (-189, document size mismatch with template).
 */
export function samePages(template: readonly PageGeometry[], replacement: readonly PageGeometry[]): boolean {
  return (
    template.length === replacement.length &&
    template.every((page, at) => {
      const other = replacement[at]!;
      return Math.abs(page.width - other.width) <= PAGE_SIZE_TOLERANCE && Math.abs(page.height - other.height) <= PAGE_SIZE_TOLERANCE && page.rotate === other.rotate;
    })
  );
}
