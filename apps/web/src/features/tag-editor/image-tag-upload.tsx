import { IMAGE_TAG_DEFAULT_MAX_KB, IMAGE_TAG_FILE_TYPES, type Tag } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { kilobytes } from '../../ui/image-file';
import { ImageUploadField } from './image-upload-field';

/** The largest upload of an image tag in KB: its own maxUpload, else the default. */
export function imageTagMaxKb(tag: Pick<Tag, 'maxUpload'>): number {
  return tag.maxUpload ?? IMAGE_TAG_DEFAULT_MAX_KB;
}

/**
 * An image tag's picture (spec §5: png or jpg only, the maximum size shown in KB), kept in the
 * tag's value as a data URL.
 */
export function ImageTagUpload({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const maxKb = imageTagMaxKb(tag);
  return (
    <ImageUploadField
      tag={tag}
      onChange={onChange}
      rule={{ types: IMAGE_TAG_FILE_TYPES, maxBytes: kilobytes(maxKb) }}
      heading={t('tagPanel.image.heading')}
      hint={t('tagPanel.image.maxSize', { size: maxKb })}
      wrongTypeMessage={t('tagPanel.image.wrongType')}
      previewLabel={t('tagPanel.image.preview')}
    />
  );
}
