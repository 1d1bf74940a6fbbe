import { Button, Group, Stack } from '@mantine/core';
import type { VerificationReport } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { DownloadIcon, UploadIcon } from '../../ui/icons';
import { FileFacts } from './file-facts';
import { ForgeryWarnings } from './forgery-warnings';
import { PaktRecordCard } from './pakt-record-card';
import { downloadReport } from './report-download';
import { ReportPdfButton } from './report-pdf-button';
import { RevisionList } from './revision-list';
import { SignatureList } from './signature-list';
import { VerdictBanner } from './verdict-banner';

/**
 * The report on one file, from the answer down to the evidence: verdict, forgery warnings, the
 * file's identity, this install's record of it, then signatures and revisions.
 */
export function VerificationReportView({ report, file, onAnother }: { readonly report: VerificationReport; readonly file: File; readonly onAnother: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="verify-report">
      <VerdictBanner verdict={report.verdict} />
      <ForgeryWarnings warnings={report.warnings} />
      <FileFacts report={report} />
      {report.pakt && <PaktRecordCard record={report.pakt} />}
      <SignatureList signatures={report.signatures} />
      <RevisionList revisions={report.revisions} signatures={report.signatures} />
      <Group gap="sm">
        <Button variant="default" leftSection={<DownloadIcon size={16} />} onClick={() => downloadReport(report)}>
          {t('verify.download')}
        </Button>
        <ReportPdfButton file={file} />
        <Button leftSection={<UploadIcon size={16} />} onClick={onAnother}>
          {t('verify.another')}
        </Button>
      </Group>
    </Stack>
  );
}
