import { LETTERHEAD_IMAGE_TYPES, LETTERHEAD_MAX_SIZE_BYTES, LETTERHEAD_MAX_SIZE_KB, type Tag } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import type { ImageFileRule } from './image-file';
import { ImageUploadField } from './image-upload-field';

// Spec §5: jpg, png or jpeg, at most 500 KB, one file queued.
const LETTERHEAD_RULE: ImageFileRule = { types: LETTERHEAD_IMAGE_TYPES, maxBytes: LETTERHEAD_MAX_SIZE_BYTES };

/** The letterhead tag's image: picked, checked (spec §5), kept in the tag's value as a data URL. */
export function LetterheadUpload({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  return (
    <ImageUploadField
      tag={tag}
      onChange={onChange}
      rule={LETTERHEAD_RULE}
      heading={t('tagPanel.letterhead.heading')}
      hint={t('tagPanel.letterhead.hint', { size: LETTERHEAD_MAX_SIZE_KB })}
      wrongTypeMessage={t('tagPanel.letterhead.wrongType')}
      previewLabel={t('tagPanel.letterhead.preview')}
    />
  );
}
