import { Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { VERIFY_RECORD_PARAM, verifyDocument } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { callApi } from '../../api/client';
import { useRateLimitWait } from '../../ui/rate-limit-notice';
import { PublicRecordSection } from './public-record-card';
import { usePublicRecord } from './queries';
import { RecordFileMatch, useFileComparison } from './record-file-match';
import { VerificationReportView } from './verification-report';
import { VerifyDropZone } from './verify-drop-zone';
import { VerifyRefusalAlert } from './verify-refusal';

/**
 * /verify (issue 20): anyone, signed in or not, hands over a PDF and reads what its signatures and
 * revisions say. Not behind a guard: a stranger who received a signed file has no account here.
 * The check is a mutation, not a query: the file is sent once, nothing is cached under a key, and
 * "Check another file" simply forgets the answer.
 *
 * Opened from a certificate's QR code (`?record=<token>`), the page first shows what this install
 * recorded and compares the chosen file with it in the browser; the upload becomes a second
 * step the person asks for. A token that is not this install's leaves the plain check in place.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('verify.title')} · Pakt`);
  const [searchParams] = useSearchParams();
  // An empty `record=` is no QR code: the page is then the plain check.
  const token = searchParams.get(VERIFY_RECORD_PARAM)?.trim() || null;
  const record = usePublicRecord(token);
  const recorded = record.data ?? null;
  const local = useFileComparison();
  const rateLimit = useRateLimitWait();
  const check = useMutation({
    // 'caller': a stranger must see why the file was refused here, not be sent to an error page.
    mutationFn: (file: File) => callApi(verifyDocument, { files: { file } }, { failures: 'caller' }),
    // Too many checks from this address: the button waits out the server's delay.
    onError: (error) => void rateLimit.refuse(error),
  });

  const takeFile = (file: File) => {
    if (!recorded) {
      check.mutate(file);
      return;
    }
    // A new file starts over: the answer about the previous one no longer applies.
    check.reset();
    local.compare(file);
  };
  const another = () => {
    check.reset();
    local.clear();
  };

  const comparison = local.comparison;
  const match = recorded && comparison && (
    <RecordFileMatch
      comparison={comparison}
      record={recorded}
      // Offered until the full check runs; its report (or refusal) then takes over.
      onCheck={check.data || check.isPending ? undefined : () => check.mutate(comparison.file)}
      checkDisabled={rateLimit.wait > 0}
    />
  );

  let body;
  if (check.data) {
    body = (
      <>
        {match}
        <VerificationReportView report={check.data} file={check.variables} onAnother={another} />
      </>
    );
  } else if (check.isPending) {
    body = (
      <>
        {match}
        <Group gap="sm" justify="center" py="xl" role="status" wrap="nowrap">
          <Loader size="sm" />
          <Text miw={0} style={{ overflowWrap: 'anywhere' }}>{t('verify.checking', { name: check.variables.name })}</Text>
        </Group>
      </>
    );
  } else {
    body = (
      <>
        {check.isError && <VerifyRefusalAlert error={check.error} />}
        <VerifyDropZone
          onFile={takeFile}
          // While the record is read, a file would go to the upload it was promised it would not.
          disabled={rateLimit.wait > 0 || (token !== null && record.isPending)}
          privacy={recorded ? t('verify.record.privacy') : undefined}
        />
        {match}
      </>
    );
  }

  return (
    <Stack gap="lg" maw={860} mx="auto" miw={0}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('verify.title')}
        </Title>
        <Text c="dimmed">{t('verify.intro')}</Text>
      </Stack>
      {token !== null && <PublicRecordSection query={record} />}
      {body}
    </Stack>
  );
}
