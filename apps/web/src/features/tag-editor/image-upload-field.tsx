import { Alert, Button, FileButton, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { Tag } from '@pakt/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '../../ui/icons';
import { acceptOf, readImageFile, type ImageFileProblem, type ImageFileRule } from '../../ui/image-file';

export interface ImageUploadFieldProps {
  readonly tag: Tag;
  readonly onChange: (next: Tag) => void;
  readonly rule: ImageFileRule;
  readonly heading: string;
  /** Shown under the heading: what is accepted and how large. */
  readonly hint: string;
  /** The message for a file of a kind the tag does not take (each tag words it as spec §5 does). */
  readonly wrongTypeMessage: string;
  readonly previewLabel: string;
}

/** The image a tag holds, if its value is one (a data URL as `readImageFile` makes). */
export function imageOf(tag: Pick<Tag, 'value'>): string | null {
  return typeof tag.value === 'string' && /^data:image\/(png|jpeg);base64,/.test(tag.value) ? tag.value : null;
}

/**
 * The picker, preview and remove button the letterhead and image tags share; only the rule and
 * the wording differ. One file is held at a time (spec §5: one file queued): a new pick replaces
 * the image, and a pick made while an earlier one is still being read wins over it.
 */
export function ImageUploadField({ tag, onChange, rule, heading, hint, wrongTypeMessage, previewLabel }: ImageUploadFieldProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const resetPicker = useRef<() => void>(null);
  const latestPick = useRef(0);
  const [problem, setProblem] = useState<ImageFileProblem | null>(null);
  const [reading, setReading] = useState(false);
  const image = imageOf(tag);
  // Reading takes a moment; the tag may be moved or resized meanwhile, and that must not be lost.
  const latestTag = useRef(tag);
  useEffect(() => {
    latestTag.current = tag;
  }, [tag]);

  const onPick = async (file: File | null) => {
    // Cleared so that picking the same file again (after fixing it, say) is noticed.
    resetPicker.current?.();
    if (!file) return;
    const pick = ++latestPick.current;
    setReading(true);
    const checked = await readImageFile(file, rule);
    if (pick !== latestPick.current) return;
    setReading(false);
    if (!checked.ok) {
      // A refused file leaves the image there was, if any.
      setProblem(checked.problem);
      return;
    }
    setProblem(null);
    onChange({ ...latestTag.current, value: checked.dataUrl });
  };

  const remove = () => {
    latestPick.current++;
    setReading(false);
    setProblem(null);
    onChange({ ...tag, value: null });
  };

  const message =
    problem === 'wrongType' ? wrongTypeMessage : problem === 'tooLarge' ? t('maxSizeExceeded') : problem === 'unreadable' ? t('tagPanel.upload.unreadable') : null;

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h6" id={headingId}>
        {heading}
      </Title>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
      {message && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {message}
        </Alert>
      )}
      {image && <Image src={image} alt={previewLabel} fit="contain" mah={160} radius="sm" bd="1px solid var(--mantine-color-default-border)" />}
      <Group gap="xs">
        <FileButton onChange={(file) => void onPick(file)} accept={acceptOf(rule)} resetRef={resetPicker}>
          {(props) => (
            <Button {...props} size="xs" variant="light" loading={reading}>
              {t(image ? 'tagPanel.upload.replace' : 'tagPanel.upload.choose')}
            </Button>
          )}
        </FileButton>
        {image && (
          <Button size="xs" variant="subtle" color="red" leftSection={<TrashIcon size={14} />} onClick={remove}>
            {t('tagPanel.upload.remove')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
