import { Alert, Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { ALLOWED_DOCUMENT_FORMATS, convertDocument } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { DownloadIcon, PlusIcon, RefreshIcon } from '../../ui/icons';
import { saveBlob } from '../../ui/save-blob';
import { uploadRefusal } from './upload-refusal';

/** Everything the upload takes but PDF: what there is to convert. */
const CONVERTIBLE = ALLOWED_DOCUMENT_FORMATS.filter((format) => format !== 'pdf')
  .map((format) => `.${format}`)
  .join(',');

const pdfNameOf = (name: string) => `${name.replace(/\.[^./\\]+$/, '') || 'document'}.pdf`;

/**
 * An upload converts images and office files by itself; this shows the PDF it would make first
 * (POST /document/convert stores nothing), so a spreadsheet cut across pages or a lost font is
 * seen before the file goes into the ePak. The PDF can then be downloaded, or added as it is.
 */
export function ConvertToPdf({ disabled, onAdd }: { readonly disabled: boolean; readonly onAdd: (file: File) => void }) {
  const { t } = useTranslation();
  const resetPicker = useRef<() => void>(null);
  const convert = useMutation({
    mutationFn: async (file: File) => {
      const pdf = await callApi(convertDocument, { files: { file } }, { failures: 'caller' });
      return new File([pdf], pdfNameOf(file.name), { type: 'application/pdf' });
    },
  });
  const refusal = convert.isError ? uploadRefusal(convert.error) : null;
  return (
    <Paper withBorder p="sm" radius="sm" component="section" aria-labelledby="compose-convert-heading">
      <Stack gap="xs">
        <Group gap="sm" justify="space-between">
          <Stack gap={0}>
            <Text size="sm" fw={500} id="compose-convert-heading">
              {t('compose.convert.heading')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('compose.convert.hint')}
            </Text>
          </Stack>
          <FileButton
            accept={CONVERTIBLE}
            resetRef={resetPicker}
            onChange={(file) => {
              resetPicker.current?.();
              if (file) convert.mutate(file);
            }}
          >
            {(props) => (
              <Button {...props} variant="default" size="compact-sm" leftSection={<RefreshIcon size={14} />} loading={convert.isPending} disabled={disabled}>
                {t('compose.convert.choose')}
              </Button>
            )}
          </FileButton>
        </Group>
        {convert.isSuccess && (
          <Group gap="xs" justify="space-between" role="status">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('compose.convert.ready', { name: convert.data.name })}
            </Text>
            <Group gap={4}>
              <Button variant="subtle" size="compact-sm" leftSection={<DownloadIcon size={14} />} onClick={() => saveBlob(convert.data, convert.data.name)}>
                {t('compose.convert.download')}
              </Button>
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<PlusIcon size={14} />}
                disabled={disabled}
                onClick={() => {
                  onAdd(convert.data);
                  convert.reset();
                }}
              >
                {t('compose.convert.add')}
              </Button>
            </Group>
          </Group>
        )}
        {refusal && (
          <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={t('compose.convert.dismiss')} onClose={() => convert.reset()} p="xs">
            <Text size="xs">
              {t(refusal.reason)}
              {refusal.detail ? ` ${refusal.detail}` : ''}
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
