import { Badge, Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { RevisionChange, VerifiedRevision, VerifiedSignature } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangedRegions } from './changed-regions';

/**
 * The file's revisions in order, each with what it changed against the one before. A change the
 * rules do not allow after a signature is what turns a verdict into "changed", so it is marked in
 * red where it appears rather than left to be found in a list of allowed ones.
 */
export function RevisionList({
  revisions,
  signatures,
}: {
  readonly revisions: readonly VerifiedRevision[];
  readonly signatures: readonly VerifiedSignature[];
}) {
  const { t } = useTranslation();
  const headingId = useId();
  if (revisions.length === 0) return null;
  // A revision names the signature that ends it by field; the signer's name is what a reader knows.
  const signerOf = (fieldName: string) => signatures.find((signature) => signature.fieldName === fieldName)?.signerName ?? fieldName;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('verify.revisions.heading')}
        </Title>
        <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {revisions.map((revision) => {
            const label = t('verify.revisions.label', { number: revision.number });
            return (
              <Paper component="li" key={revision.number} withBorder radius="md" p="sm" aria-label={label}>
                <Stack gap="xs">
                  <Group justify="space-between" gap="xs">
                    <Text fw={600}>{label}</Text>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {revision.signedBy ? t('verify.revisions.signedBy', { name: signerOf(revision.signedBy) }) : t('verify.revisions.unsigned')}
                    </Text>
                  </Group>
                  {revision.changes.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      {t(revision.number === 1 ? 'verify.revisions.original' : 'verify.revisions.noChanges')}
                    </Text>
                  ) : (
                    <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
                      {revision.changes.map((change, index) => (
                        <ChangeItem key={index} change={change} />
                      ))}
                    </Stack>
                  )}
                  <ChangedRegions regions={revision.regions} />
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      </Stack>
    </Card>
  );
}

function ChangeItem({ change }: { readonly change: RevisionChange }) {
  const { t } = useTranslation();
  const where = [change.page !== null ? t('verify.revisions.page', { page: change.page }) : null, change.name].filter(Boolean).join(' · ');
  return (
    <Paper
      component="li"
      radius="sm"
      px="sm"
      py={6}
      bg={change.allowed ? 'var(--mantine-color-gray-0)' : 'var(--mantine-color-red-0)'}
      style={{ borderInlineStart: `3px solid var(--mantine-color-${change.allowed ? 'gray-4' : 'red-6'})` }}
      data-allowed={change.allowed}
      data-kind={change.kind}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={500} miw={0} style={{ overflowWrap: 'anywhere' }}>
          {t(`verify.revisions.kind.${change.kind}`)}
          {where && (
            <Text component="span" size="sm" c="dimmed" fw={400}>
              {` · ${where}`}
            </Text>
          )}
        </Text>
        <Badge variant={change.allowed ? 'light' : 'filled'} color={change.allowed ? 'teal' : 'red'} tt="none" style={{ flexShrink: 0 }}>
          {t(change.allowed ? 'verify.revisions.allowed' : 'verify.revisions.notAllowed')}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {change.detail}
      </Text>
    </Paper>
  );
}
