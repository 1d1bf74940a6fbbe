import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { pageToDisplay, tagRect, type PageGeometry } from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SuggestedBox } from './anchor-suggestions';
import { DocumentPages, type EpakDocument } from './document-pages';
import { initialsOf, signerColour, tagColourRole } from './signer-colours';
import { signerOfTag } from './signers';
import { TagBox } from './tag-box';
import { tagName } from './tag-names';
import type { TagEditorModel } from './use-tag-editor';

/** Only a plain base64 PNG or JPEG goes into the box's CSS (anything else could escape url()). */
const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]*={0,2}$/;

/** The shown document's pages with its tags on them, once its tags are loaded. */
export function TagEditorPages({ editor, document }: { readonly editor: TagEditorModel; readonly document: EpakDocument }) {
  const { t } = useTranslation();
  const { state, zoom, signers, selected, currentQuery } = editor;

  const renderTags = (pageNumber: number, page: PageGeometry): ReactNode => [
    // Suggestions first: placed fields draw over them.
    ...editor.suggestions
      .filter((suggestion) => suggestion.tag.pageNumber === pageNumber)
      .map((suggestion) => (
        <SuggestedBox
          key={`suggested-${suggestion.tag.uuid}`}
          shown={pageToDisplay(tagRect(suggestion.tag), page, zoom.zoom)}
          label={t('tagEditor.anchors.box', { type: tagName(t, suggestion.tag), page: pageNumber })}
        />
      )),
    ...(editor.tagsByPage.get(pageNumber) ?? []).map((tag) => {
      const signer = signerOfTag(signers, tag);
      const isSelected = selected?.uuid === tag.uuid;
      return (
        <TagBox
          key={tag.uuid}
          uuid={tag.uuid}
          shown={pageToDisplay(tagRect(tag), page, zoom.zoom)}
          label={t('tagEditor.tagLabel', { type: tagName(t, tag), signer: signer?.name ?? t('tagEditor.nobody'), page: pageNumber })}
          typeName={tagName(t, tag)}
          initials={signer ? initialsOf(signer.name) : ''}
          signerColour={signerColour(signers, signer)}
          colourRole={tagColourRole({ selected: isSelected, invalid: editor.problemsByTag.has(tag.uuid), assigned: signer !== undefined })}
          selected={isSelected}
          thinBorder={tag.type === 'letterHead'}
          imageUrl={(tag.type === 'image' || tag.type === 'letterHead') && typeof tag.value === 'string' && IMAGE_DATA_URL.test(tag.value) ? tag.value : undefined}
          onSelect={() => editor.showProperties(tag.uuid)}
          onMoveEnd={(corner, pointer) => editor.moveEnd(tag, corner, pointer)}
          onResizeEnd={(shown) => editor.resizeEnd(tag, shown)}
          onKeyDown={(event) => editor.onTagKeyDown(tag, event)}
        />
      );
    }),
  ];

  if (!editor.loaded) {
    return currentQuery?.isError ? (
      <Alert color="red" variant="light" role="alert" title={t('tagEditor.loadFailed')}>
        <Button variant="light" color="red" size="xs" onClick={() => void currentQuery.refetch()}>
          {t('tagEditor.retry')}
        </Button>
      </Alert>
    ) : (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {t('tagEditor.loading')}
        </Text>
      </Group>
    );
  }
  return (
    <DocumentPages
      key={document.documentId}
      document={document}
      pdf={editor.pdf}
      zoom={zoom.zoom}
      scrollRef={zoom.scrollRef}
      pageElements={editor.pageElements}
      armed={state.armed !== null}
      height={'min(75vh, 1000px)'}
      onAvailableWidth={zoom.setAvailable}
      renderTags={renderTags}
      onPageClick={(point) => {
        if (state.armed) editor.place(state.armed.type, state.armed.init, point);
        else editor.deselect();
      }}
      onPageDrop={(point, type) => editor.place(type, undefined, point)}
    />
  );
}
