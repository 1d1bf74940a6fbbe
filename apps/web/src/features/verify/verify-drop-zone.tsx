import { Button, FileButton, Stack, Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadIcon } from '../../ui/icons';
import { useFileDrop } from '../../ui/use-file-drop';

/**
 * Where the stranger hands over the PDF: a button (the only way on a phone) and a zone that takes
 * a dropped file. One file at a time, since the report is about one file; what is not a PDF is
 * left to the server, which reads the bytes rather than trusting the name or type.
 */
export function VerifyDropZone({
  onFile,
  disabled,
  privacy,
}: {
  readonly onFile: (file: File) => void;
  readonly disabled: boolean;
  /** What becomes of the file, when not the upload's default (a QR code's record compares it locally). */
  readonly privacy?: string;
}) {
  const { t } = useTranslation();
  const resetPicker = useRef<() => void>(null);

  const take = (file: File | null | undefined) => {
    // The picker is emptied so that choosing the same file again (after "Check another file") still fires.
    resetPicker.current?.();
    if (file && !disabled) onFile(file);
  };
  const drop = useFileDrop((files) => take(files[0]));

  return (
    <Stack
      component="section"
      aria-label={t('verify.drop.label')}
      align="center"
      ta="center"
      gap="sm"
      p={{ base: 'md', sm: 'xl' }}
      data-testid="verify-drop-zone"
      {...drop}
    >
      <FileButton onChange={take} accept="application/pdf,.pdf" resetRef={resetPicker} disabled={disabled}>
        {(props) => (
          <Button {...props} size="md" leftSection={<UploadIcon size={18} />} disabled={disabled}>
            {t('verify.drop.choose')}
          </Button>
        )}
      </FileButton>
      <Text size="sm" c="dimmed">
        {t('verify.drop.hint')}
      </Text>
      <Text size="xs" c="dimmed">
        {privacy ?? t('verify.drop.privacy')}
      </Text>
    </Stack>
  );
}
