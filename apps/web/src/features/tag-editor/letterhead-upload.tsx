import { Button, Collapse, Stack } from '@mantine/core';
import { LETTERHEAD_IMAGE_TYPES, LETTERHEAD_MAX_SIZE_BYTES, LETTERHEAD_MAX_SIZE_KB, type Tag } from '@pakt/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LetterheadTemplates } from '../letterheads';
import type { ImageFileRule } from '../../ui/image-file';
import { ImageUploadField } from './image-upload-field';

// Spec §5: jpg, png or jpeg, at most 500 KB, one file queued.
const LETTERHEAD_RULE: ImageFileRule = { types: LETTERHEAD_IMAGE_TYPES, maxBytes: LETTERHEAD_MAX_SIZE_BYTES };

/**
 * The letterhead tag's image: picked, checked (spec §5), kept in the tag's value as a data URL;
 * or one of the tenant's saved letterhead templates, whose image becomes that same value. The
 * value stays a copy, not a reference: a template deleted later leaves the ePak as composed.
 */
export function LetterheadUpload({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const savedId = useId();
  // Asked for only when opened: most tags never need the list.
  const [showSaved, setShowSaved] = useState(false);
  const [chosen, setChosen] = useState<{ id: string; value: string } | null>(null);
  // Reading a template takes a moment; the tag may be moved or resized meanwhile.
  const latestTag = useRef(tag);
  useEffect(() => {
    latestTag.current = tag;
  }, [tag]);
  return (
    <Stack gap="xs">
      <ImageUploadField
        tag={tag}
        onChange={onChange}
        rule={LETTERHEAD_RULE}
        heading={t('tagPanel.letterhead.heading')}
        hint={t('tagPanel.letterhead.hint', { size: LETTERHEAD_MAX_SIZE_KB })}
        wrongTypeMessage={t('tagPanel.letterhead.wrongType')}
        previewLabel={t('tagPanel.letterhead.preview')}
      />
      <Button
        size="xs"
        variant="subtle"
        onClick={() => setShowSaved((open) => !open)}
        aria-expanded={showSaved}
        aria-controls={savedId}
        style={{ alignSelf: 'flex-start' }}
      >
        {t(showSaved ? 'letterheads.hideSaved' : 'letterheads.showSaved')}
      </Button>
      <Collapse expanded={showSaved} id={savedId}>
        {showSaved && (
          <LetterheadTemplates
            chosenId={chosen && chosen.value === tag.value ? chosen.id : null}
            onChoose={(template, dataUrl) => {
              setChosen({ id: template.letterHeadDocId, value: dataUrl });
              onChange({ ...latestTag.current, value: dataUrl });
            }}
          />
        )}
      </Collapse>
    </Stack>
  );
}
