import { Button, Divider, Stack, Switch, Title } from '@mantine/core';
import { isRubberStamp, type PageGeometry, type Tag, type TagType } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '../../ui/icons';
import { ImageTagSection } from './image-tag-section';
import { LetterheadUpload } from './letterhead-upload';
import { QrEditor } from './qr-editor';
import { SelectOptionsEditor } from './select-options-editor';
import type { SignerOption } from './signers';
import { TagBasicsSection } from './tag-basics-section';
import { TagFontSection } from './tag-font-section';
import { TagSizeSection } from './tag-size-section';

/**
 * Types drawn as a picture, a code or a file rather than as text, so a font means nothing for
 * them. A composite's font belongs to its members, each of which has its own panel.
 */
export const FONTLESS_TAG_TYPES = ['signature', 'image', 'letterHead', 'qrcode', 'attachment', 'selfSignAttachment', 'composite'] as const satisfies readonly TagType[];

export function hasFont(type: TagType): boolean {
  return !(FONTLESS_TAG_TYPES as readonly TagType[]).includes(type);
}

export interface TagPropertiesProps {
  readonly tag: Tag;
  /** The page the tag is on: a resize must keep the tag inside it. */
  readonly page: PageGeometry;
  readonly signers: readonly SignerOption[];
  readonly onChange: (next: Tag) => void;
  /** Deletes at once: the editor's undo is the way back. */
  readonly onDelete: () => void;
}

/**
 * The properties panel of the selected tag (spec §2 tags palette): who fills it in, its size and
 * font, whether it is required, and what only some types have (QR entries, letterhead or image
 * file, the options of a select). Every edit goes out through onChange as a whole new tag; the
 * editor owns the tags and their undo.
 */
export function TagProperties(props: TagPropertiesProps) {
  // Another tag starts afresh: its own drafts, no refusal left over from the last one.
  return <TagPropertiesPanel key={props.tag.uuid} {...props} />;
}

/**
 * The panel's sections in order. Each keeps the drafts of its own inputs (draft-input.ts); all of
 * them start afresh with the panel when another tag is chosen.
 */
function TagPropertiesPanel({ tag, page, signers, onChange, onDelete }: TagPropertiesProps) {
  const { t } = useTranslation();
  const headingId = useId();

  // --- required
  const required = tag.validations?.required?.value ?? false;
  const requiredMessage = tag.validations?.required?.message || t(required ? 'tagPanel.mandatoryMessage' : 'tagPanel.optionalMessage');
  const onRequired = (value: boolean) =>
    onChange({
      ...tag,
      validations: { ...tag.validations, required: { value, message: t(value ? 'tagPanel.mandatoryMessage' : 'tagPanel.optionalMessage') } },
    });

  return (
    <Stack gap="sm" component="section" aria-label={t('tagPanel.title')}>
      <Title order={3} size="h5" id={headingId}>
        {t('tagPanel.title')}
      </Title>

      <TagBasicsSection tag={tag} signers={signers} onChange={onChange} />
      <TagSizeSection tag={tag} page={page} onChange={onChange} />
      {hasFont(tag.type) && <TagFontSection tag={tag} onChange={onChange} />}

      <Divider />
      <Switch
        label={t('tagPanel.required')}
        // Mantine's label element wraps the description too; the name is the label alone.
        aria-label={t('tagPanel.required')}
        description={requiredMessage}
        checked={required}
        onChange={(event) => onRequired(event.currentTarget.checked)}
      />

      {tag.type === 'qrcode' && <QrEditor tag={tag} onChange={onChange} />}
      {tag.type === 'letterHead' && <LetterheadUpload tag={tag} onChange={onChange} />}
      {/* A rubber stamp's picture is the signer's stamp, chosen when they sign: nothing to upload. */}
      {tag.type === 'image' && !isRubberStamp(tag) && <ImageTagSection tag={tag} onChange={onChange} />}
      {(tag.type === 'singleSelect' || tag.type === 'multiSelect') && <SelectOptionsEditor tag={tag} onChange={onChange} />}

      <Divider />
      <Button color="red" variant="light" leftSection={<TrashIcon size={16} />} onClick={onDelete}>
        {t('tagPanel.delete')}
      </Button>
    </Stack>
  );
}
