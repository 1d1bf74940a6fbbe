import { Card, Stack, Title } from '@mantine/core';
import type { VerificationReport } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { FactList, type Fact } from './fact-list';

/** A size a person reads (1.2 MB) in their language, with the exact count beside it for comparing copies. */
export function formatSize(bytes: number, language: string): string {
  const [amount, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'megabyte'] : bytes >= 1024 ? [bytes / 1024, 'kilobyte'] : [bytes, 'byte'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(amount);
}

/** What identifies the file checked: its name, size and SHA-256, so a copy held elsewhere can be matched to this report. */
export function FileFacts({ report }: { readonly report: VerificationReport }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const facts: Fact[] = [
    { label: t('verify.file.name'), value: report.fileName },
    {
      label: t('verify.file.size'),
      value: t('verify.file.sizeValue', { size: formatSize(report.size, i18n.language), bytes: report.size.toLocaleString(i18n.language) }),
    },
    { label: t('verify.file.sha256'), value: report.sha256, mono: true },
    { label: t('verify.file.checkedOn'), value: formatDateTime(report.checkedOn, i18n.language) },
  ];
  if (report.certificationLevel !== null) {
    facts.push({ label: t('verify.file.certification'), value: t(`verify.file.certificationLevel.${report.certificationLevel}`) });
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('verify.file.heading')}
        </Title>
        <FactList facts={facts} />
      </Stack>
    </Card>
  );
}
