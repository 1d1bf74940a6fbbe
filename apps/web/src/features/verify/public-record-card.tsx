import { Alert, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { PublicVerificationRecord } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatDateTime } from '../../ui/dates';
import { PaktMark } from '../../ui/icons';
import { FactList, type Fact } from './fact-list';
import { epakStatusLabel } from './pakt-record-card';
import type { usePublicRecord } from './queries';

/**
 * What this install recorded behind a certificate's QR code: enough for the holder of a copy to
 * match it (each final document's SHA-256) and to know whose record it is. The subject and the
 * signers' names are there only when the organisation allows it; otherwise the card says they are
 * kept private, so their absence is not read as "nobody signed".
 */
export function PublicRecordCard({ record }: { readonly record: PublicVerificationRecord }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const documentsId = useId();
  const facts: Fact[] = [
    { label: t('verify.record.tenant'), value: record.tenantName },
    { label: t('verify.record.status'), value: epakStatusLabel(t, record.status) },
    {
      label: t('verify.record.completedOn'),
      value: record.completedOn ? formatDateTime(record.completedOn, i18n.language) : t('verify.record.notCompleted'),
    },
    { label: t('verify.record.signerCount'), value: record.signerCount.toLocaleString(i18n.language) },
  ];
  if (record.subject !== null) facts.push({ label: t('verify.record.subject'), value: record.subject });
  if (record.signers !== null) facts.push({ label: t('verify.record.signers'), value: record.signers.join(', ') });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId} data-testid="verify-record">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <PaktMark size={22} />
          <Title order={2} size="h4" id={headingId}>
            {t('verify.record.heading')}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('verify.record.intro')}
        </Text>
        <FactList facts={facts} />
        {(record.subject === null || record.signers === null) && (
          <Text size="sm" c="dimmed" data-testid="verify-record-private">
            {t('verify.record.private', { tenant: record.tenantName })}
          </Text>
        )}
        <Text size="xs" c="dimmed" id={documentsId}>
          {t('verify.record.documents')}
        </Text>
        <Stack component="ol" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={documentsId}>
          {record.documents.map((document, index) => (
            // Hashes have no spaces to break at: they wrap anywhere rather than widen a phone's page.
            <Text component="li" key={index} size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
              <Text component="span" size="sm" fw={500}>
                {`${t('verify.record.document', { number: index + 1 })}: `}
              </Text>
              <Text component="span" size="sm" ff="monospace">
                {document.sha256}
              </Text>
            </Text>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

/**
 * The record's place on the page while it is read, once read, or when it cannot be: a token this
 * install did not make (404) is explained, not thrown, and the drop zone below keeps working.
 */
export function PublicRecordSection({ query }: { readonly query: ReturnType<typeof usePublicRecord> }) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Group gap="sm" justify="center" py="md" role="status" wrap="nowrap" data-testid="verify-record-loading">
        <Loader size="sm" />
        <Text miw={0}>{t('verify.record.loading')}</Text>
      </Group>
    );
  }
  if (query.isError) {
    const status = query.error instanceof ApiError ? query.error.httpStatus : null;
    // No answer, or the server's trouble (5xx, too many requests), says nothing about the code itself.
    const unknownCode = status !== null && status !== 0 && status !== 429 && status < 500;
    return (
      <Alert color="red" variant="light" role="alert" title={unknownCode ? t('verify.record.notFound') : undefined} data-testid="verify-record-refused">
        <Text size="sm">
          {unknownCode ? t('verify.record.notFoundHint') : status === 0 ? t('common.unreachable') : t('verify.record.failed')}
        </Text>
      </Alert>
    );
  }
  return <PublicRecordCard record={query.data} />;
}
