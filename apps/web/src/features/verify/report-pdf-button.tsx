import { Button } from '@mantine/core';
import { verifyDocumentReport } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { DownloadIcon } from '../../ui/icons';
import { saveBlob } from '../../ui/save-blob';

/**
 * The report as a PDF sealed by this install: the file is checked again on the server (a report
 * the browser drew could say anything), so the button sends the same file once more.
 */
export function ReportPdfButton({ file }: { readonly file: File }) {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: () => callApi(verifyDocumentReport, { files: { file } }, { failures: 'caller' }),
    onSuccess: (blob) => saveBlob(blob, `${file.name.replace(/\.pdf$/i, '')} - verification report.pdf`),
  });
  return (
    <Button variant="default" leftSection={<DownloadIcon size={16} />} loading={download.isPending} onClick={() => download.mutate()} color={download.isError ? 'red' : undefined}>
      {download.isError ? t('verify.downloadPdfFailed') : t('verify.downloadPdf')}
    </Button>
  );
}
