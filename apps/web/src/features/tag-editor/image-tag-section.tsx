import { NumberInput } from '@mantine/core';
import type { Tag } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commitOnEnter, numberOf, useDraft } from './draft-input';
import { ImageTagUpload, imageTagMaxKb } from './image-tag-upload';

/** An image tag's own properties: the largest upload it takes, in whole KB, and its picture. */
export function ImageTagSection({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const [maxUpload, setMaxUpload] = useDraft<number | string>(imageTagMaxKb(tag));
  const [maxUploadError, setMaxUploadError] = useState(false);
  const commitMaxUpload = () => {
    const kb = numberOf(maxUpload);
    if (kb === imageTagMaxKb(tag)) return setMaxUploadError(false);
    if (!Number.isInteger(kb) || kb < 1) {
      setMaxUpload(imageTagMaxKb(tag));
      setMaxUploadError(true);
      return;
    }
    setMaxUploadError(false);
    onChange({ ...tag, maxUpload: kb });
  };

  return (
    <>
      <NumberInput
        size="xs"
        label={t('tagPanel.maxUpload')}
        value={maxUpload}
        min={1}
        allowDecimal={false}
        clampBehavior="none"
        error={maxUploadError ? t('tagPanel.maxUploadInvalid') : null}
        errorProps={{ role: 'alert' }}
        onChange={setMaxUpload}
        onBlur={commitMaxUpload}
        onKeyDown={commitOnEnter(commitMaxUpload)}
      />
      <ImageTagUpload tag={tag} onChange={onChange} />
    </>
  );
}
