import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { EpakStatus, type PaktRecord } from '@pakt/domain';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { PaktMark } from '../../ui/icons';
import { FactList } from './fact-list';

/**
 * An ePak status in the reader's language, as the inbox names it. A status this build does not
 * know is shown as the server named it rather than hidden.
 */
export function epakStatusLabel(t: TFunction, status: string): string {
  const known = EpakStatus.safeParse(status);
  return known.success ? t(`inbox.status.${known.data}`) : status;
}

/**
 * What this install's own record says of the file, shown only when the file is one of its ePaks:
 * the record is a second witness beside the signatures, so it says whether the file is the final
 * document or an earlier one, and whether the activity log still chains.
 */
export function PaktRecordCard({ record }: { readonly record: PaktRecord }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId} data-testid="verify-pakt">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <PaktMark size={22} />
          <Title order={2} size="h4" id={headingId}>
            {t('verify.pakt.heading')}
          </Title>
        </Group>
        <FactList
          // Long values (the version, the log's state) are coloured text, not badges, which would cut them short on a phone.
          facts={[
            { label: t('verify.pakt.tenant'), value: record.tenantName },
            { label: t('verify.pakt.subject'), value: record.subject },
            { label: t('verify.pakt.status'), value: epakStatusLabel(t, record.status) },
            {
              label: t('verify.pakt.completedOn'),
              value: record.completedOn ? formatDateTime(record.completedOn, i18n.language) : t('verify.pakt.notCompleted'),
            },
            { label: t('verify.pakt.signers'), value: record.signers.length > 0 ? record.signers.join(', ') : t('verify.pakt.noSigners') },
            {
              label: t('verify.pakt.version'),
              value: (
                <Text component="span" size="sm" fw={500} c={record.matches === 'current' ? 'teal' : 'orange'}>
                  {t(`verify.pakt.${record.matches}`)}
                </Text>
              ),
            },
            {
              label: t('verify.pakt.auditChain'),
              value: (
                <Text component="span" size="sm" fw={500} c={record.auditChainValid ? 'teal' : 'red.8'} data-testid="verify-audit-chain">
                  {t(record.auditChainValid ? 'verify.pakt.auditValid' : 'verify.pakt.auditInvalid')}
                </Text>
              ),
            },
          ]}
        />
      </Stack>
    </Card>
  );
}
