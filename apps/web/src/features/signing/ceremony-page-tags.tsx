import { attachToTag, isFilledValue, isGroupTag, isRequiredTag, isTagFor, pageToDisplay, tagRect, type PageGeometry, type Tag } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import type { EpakDocument } from '../tag-editor';
import { useSigningApi } from '../../api/signing-api';
import { SigningTag } from './signing-tag';
import { byReadingOrder, CLICK_FILLED_KINDS, fillableTags, isEditable, valueKindOf, valueOf } from './signing-tags';
import { AppliedStamp } from './stamp-chooser';
import { TagFieldEditor } from './tag-field-editor';
import { ownerNameOf, placeholderOf, presentationOf, tagLabelOf } from './tag-presentation';
import type { CeremonyState } from './use-ceremony';

interface PageProps {
  readonly ceremony: CeremonyState;
  readonly document: EpakDocument;
  readonly pageNumber: number;
  readonly page: PageGeometry;
}

/**
 * The tags laid over one page of the document shown, and the rubber stamp applied on it. They
 * come in reading order (top to bottom, left to right), which is their tab order (WCAG 2.4.3).
 */
export function CeremonyPageTags({ ceremony, document, pageNumber, page }: PageProps) {
  const { epak, tags, view, stamps } = ceremony;
  const stamp = stamps.uses[document.documentId];
  return (
    <>
      {fillableTags(tags.tagsOf(document.documentId))
        .filter((tag) => tag.pageNumber === pageNumber && !isGroupTag(tag))
        .sort(byReadingOrder)
        .map((tag) => (
          <PageTag key={tag.uuid} ceremony={ceremony} document={document} page={page} tag={tag} />
        ))}
      {stamp && stamp.pageNumber === pageNumber && !tags.contextOf(document.documentId).documentSigned && (
        <AppliedStamp ePakId={epak.ePakId} rubberStampId={stamp.use.rubberStampId} shown={pageToDisplay(stamp.rect, page, view.zoom)} />
      )}
    </>
  );
}

function PageTag({ ceremony, document, page, tag }: Omit<PageProps, 'pageNumber'> & { readonly tag: Tag }) {
  const { t } = useTranslation();
  const { callApi } = useSigningApi();
  const { epak, viewer, tags, entries, view, signer, guide } = ceremony;
  const documentId = document.documentId;
  const context = tags.contextOf(documentId);
  const kind = valueKindOf(tag);
  const own = isTagFor(tag, signer);
  const editable = isEditable(tag, context);
  const value = valueOf(tag, entries.valuesOf(documentId));
  const presentation = presentationOf(tag, { own, editable, documentSigned: context.documentSigned, filled: isFilledValue(value) });
  const ownerName = ownerNameOf(epak, tag);
  const opened = view.openTag === tag.uuid;
  const label = tagLabelOf(t, tag, { own, editable, value, ownerName });
  const setValue = (next: Parameters<typeof entries.setValue>[2]) => entries.setValue(documentId, tag.uuid, next);
  const click = () => {
    guide.follow(tag.uuid);
    if (CLICK_FILLED_KINDS.has(kind) && !isFilledValue(value)) return entries.applyByClick(tag, documentId, label);
    view.setOpenTag(tag.uuid);
  };
  return (
    <SigningTag
      uuid={tag.uuid}
      kind={kind}
      presentation={presentation}
      shown={pageToDisplay(tagRect(tag), page, view.zoom)}
      zoom={view.zoom}
      fontSize={tag.fontSize ?? 12}
      value={presentation === 'content' && kind === 'static' && tag.type !== 'letterHead' ? null : value}
      required={isRequiredTag(tag)}
      highlighted={entries.highlighted.has(tag.uuid.toLowerCase())}
      label={label}
      placeholder={placeholderOf(t, tag, presentation, ownerName)}
      opened={opened}
      onClick={click}
      onFocus={() => guide.follow(tag.uuid)}
      onClose={() => view.setOpenTag((open) => (open === tag.uuid ? null : open))}
      editor={
        opened ? (
          <TagFieldEditor
            tag={tag}
            kind={kind}
            value={value}
            label={t(`tagEditor.types.${tag.type}`)}
            onChange={setValue}
            onDone={() => view.setOpenTag(null)}
            onChangeMark={
              kind === 'signature' || kind === 'initials'
                ? () => {
                    view.setOpenTag(null);
                    entries.setMarkRequest({ kind, then: setValue });
                  }
                : undefined
            }
            reason={entries.reason}
            onReasonChange={entries.setReason}
            reasons={viewer.reasons}
            onAttach={async (file) => {
              // The server keeps the file and shows its name in the tag (spec §4).
              const attached = await callApi(attachToTag, { params: { ePakId: epak.ePakId, docId: documentId, tagId: tag.uuid }, files: { file } }, { failures: 'caller' });
              setValue(attached.name);
            }}
          />
        ) : null
      }
    />
  );
}
