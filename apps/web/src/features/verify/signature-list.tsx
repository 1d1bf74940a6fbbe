import { Badge, Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { VerifiedSignature } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../ui/dates';
import { FactList, type Fact } from './fact-list';

const INTEGRITY_COLOR: Record<VerifiedSignature['integrity'], string> = { intact: 'teal', broken: 'red', unverifiable: 'gray' };

/** The signatures in file order, numbered as they were added; the server already lists them so. */
export function SignatureList({ signatures }: { readonly signatures: readonly VerifiedSignature[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  if (signatures.length === 0) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('verify.signatures.heading')}
        </Title>
        <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {signatures.map((signature, index) => (
            // A forged file may repeat a field name, so the position keeps the keys apart.
            <SignatureItem key={`${index}:${signature.fieldName}`} signature={signature} number={index + 1} />
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

function SignatureItem({ signature, number }: { readonly signature: VerifiedSignature; readonly number: number }) {
  const { t } = useTranslation();
  const name = signature.signerName ?? t('verify.signatures.unnamed');
  const label = t('verify.signatures.label', { number, name });
  const facts = useSignatureFacts(signature);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={label} data-integrity={signature.integrity}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} miw={0} style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Text>
          <Badge variant="light" color={INTEGRITY_COLOR[signature.integrity]} tt="none" style={{ flexShrink: 0 }}>
            {t(`verify.signatures.integrity.${signature.integrity}`)}
          </Badge>
        </Group>
        {/* Why it does not hold (or cannot be checked), in the server's words: the one line that matters most here. */}
        {signature.problem && (
          <Text size="sm" c={signature.integrity === 'broken' ? 'red.8' : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
            {signature.problem}
          </Text>
        )}
        <FactList facts={facts} />
      </Stack>
    </Paper>
  );
}

function useSignatureFacts(signature: VerifiedSignature): Fact[] {
  const { t, i18n } = useTranslation();
  const notStated = t('verify.signatures.notStated');
  const facts: Fact[] = [
    { label: t('verify.signatures.subject'), value: signature.subject ?? notStated, mono: signature.subject !== null },
    { label: t('verify.signatures.issuer'), value: signature.issuer ?? notStated, mono: signature.issuer !== null },
    { label: t('verify.signatures.anchor'), value: <AnchorValue signature={signature} /> },
    { label: t('verify.signatures.signedAt'), value: signature.signedAt ? formatDateTime(signature.signedAt, i18n.language) : notStated },
  ];
  if (signature.reason) facts.push({ label: t('verify.signatures.reason'), value: signature.reason });
  facts.push({
    label: t('verify.signatures.coverage'),
    value: signature.coversWholeFile ? (
      t('verify.signatures.coversWhole')
    ) : (
      // Unsigned bytes after a signature are not wrong in themselves (a later signature, a filled
      // field); the revisions below say whether what they changed was allowed.
      <Text component="span" size="sm" c="orange" fw={500}>
        {t('verify.signatures.unsignedAfter', {
          count: signature.revisionsAfter,
          bytes: signature.unsignedBytesAfter.toLocaleString(i18n.language),
        })}
      </Text>
    ),
  });
  if (signature.revision !== null) {
    facts.push({ label: t('verify.signatures.revision'), value: t('verify.signatures.revisionValue', { number: signature.revision }) });
  }
  facts.push({ label: t('verify.signatures.field'), value: signature.fieldName });
  return facts;
}

/** Who vouches for the certificate: only this install's own authorities are named as trusted. */
function AnchorValue({ signature }: { readonly signature: VerifiedSignature }) {
  const { t } = useTranslation();
  if (signature.anchor === 'thisInstall') {
    return (
      <Text component="span" size="sm" c="teal" fw={500}>
        {signature.anchorTenant
          ? t('verify.signatures.anchorThisInstall', { tenant: signature.anchorTenant })
          : t('verify.signatures.anchorThisInstallUnnamed')}
      </Text>
    );
  }
  return <>{t(signature.anchor === 'other' ? 'verify.signatures.anchorOther' : 'verify.signatures.anchorNone')}</>;
}
