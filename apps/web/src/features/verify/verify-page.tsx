import { Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { verifyDocument } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useRateLimitWait } from '../../ui/rate-limit-notice';
import { VerificationReportView } from './verification-report';
import { VerifyDropZone } from './verify-drop-zone';
import { VerifyRefusalAlert } from './verify-refusal';

/**
 * /verify (issue 20): anyone, signed in or not, hands over a PDF and reads what its signatures and
 * revisions say. Not behind a guard: a stranger who received a signed file has no account here.
 * The check is a mutation, not a query: the file is sent once, nothing is cached under a key, and
 * "Check another file" simply forgets the answer.
 */
export function VerifyPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('verify.title')} · Pakt`);
  const rateLimit = useRateLimitWait();
  const check = useMutation({
    // 'caller': a stranger must see why the file was refused here, not be sent to an error page.
    mutationFn: (file: File) => callApi(verifyDocument, { files: { file } }, { failures: 'caller' }),
    // Too many checks from this address: the button waits out the server's delay.
    onError: (error) => void rateLimit.refuse(error),
  });

  let body;
  if (check.data) {
    body = <VerificationReportView report={check.data} onAnother={() => check.reset()} />;
  } else if (check.isPending) {
    body = (
      <Group gap="sm" justify="center" py="xl" role="status" wrap="nowrap">
        <Loader size="sm" />
        <Text miw={0} style={{ overflowWrap: 'anywhere' }}>{t('verify.checking', { name: check.variables.name })}</Text>
      </Group>
    );
  } else {
    body = (
      <>
        {check.isError && <VerifyRefusalAlert error={check.error} />}
        <VerifyDropZone onFile={(file) => check.mutate(file)} disabled={rateLimit.wait > 0} />
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
      {body}
    </Stack>
  );
}
