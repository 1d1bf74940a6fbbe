import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { PublicVerificationRecord } from '@pakt/domain';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangleIcon, BanIcon, CheckIcon, ShieldIcon } from '../../ui/icons';
import { fileSha256, matchingDocument } from './file-sha256';

/** A file chosen against a QR code's record: its SHA-256 once computed, or why it could not be. */
export interface FileComparison {
  readonly file: File;
  readonly sha256: string | null;
  /** This browser could not hash it (WebCrypto exists only on a secure connection). */
  readonly failed: boolean;
}

/**
 * Hashes a chosen file in the browser. A file chosen while an earlier one is still being read
 * replaces it: the earlier answer, arriving late, is dropped rather than shown for the new file.
 */
export function useFileComparison() {
  const [comparison, setComparison] = useState<FileComparison | null>(null);
  const compare = useCallback((file: File) => {
    setComparison({ file, sha256: null, failed: false });
    const settle = (next: FileComparison) => setComparison((current) => (current?.file === file ? next : current));
    fileSha256(file).then(
      (sha256) => settle({ file, sha256, failed: false }),
      () => settle({ file, sha256: null, failed: true }),
    );
  }, []);
  const clear = useCallback(() => setComparison(null), []);
  return { comparison, compare, clear };
}

/**
 * Whether the chosen file is one of the record's documents, said at once and in colour, with the
 * file's own SHA-256 beneath so a doubter can compare it with the card above by eye. The full
 * check (which uploads the file) is offered, not run: the comparison alone sends nothing.
 */
export function RecordFileMatch({
  comparison,
  record,
  onCheck,
  checkDisabled,
}: {
  readonly comparison: FileComparison;
  readonly record: PublicVerificationRecord;
  /** Absent once the full check runs or has answered. */
  readonly onCheck?: () => void;
  readonly checkDisabled: boolean;
}) {
  const { t } = useTranslation();
  const { file, sha256, failed } = comparison;
  if (sha256 === null && !failed) {
    return (
      <Group gap="sm" justify="center" py="md" role="status" wrap="nowrap" data-testid="verify-record-comparing">
        <Loader size="sm" />
        <Text miw={0} style={{ overflowWrap: 'anywhere' }}>
          {t('verify.record.comparing', { name: file.name })}
        </Text>
      </Group>
    );
  }
  const number = sha256 === null ? null : matchingDocument(sha256, record);
  return (
    <Stack gap="sm">
      {sha256 === null ? (
        <Alert color="orange" variant="light" role="status" icon={<AlertTriangleIcon size={22} />} data-testid="verify-record-match" data-match="unknown">
          <Text size="sm">{t('verify.record.hashFailed')}</Text>
        </Alert>
      ) : (
        <Alert
          color={number !== null ? 'teal' : 'red'}
          variant="light"
          // A mismatch is what the QR code exists to catch: it interrupts, a match informs.
          role={number !== null ? 'status' : 'alert'}
          icon={number !== null ? <CheckIcon size={22} /> : <BanIcon size={22} />}
          title={
            <Text component="span" fw={700} style={{ overflowWrap: 'anywhere' }}>
              {number !== null ? t('verify.record.match', { number }) : t('verify.record.mismatch')}
            </Text>
          }
          data-testid="verify-record-match"
          data-match={number !== null}
          style={{ borderInlineStart: `4px solid var(--mantine-color-${number !== null ? 'teal' : 'red'}-6)` }}
        >
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('verify.record.fileSha256', { name: file.name })}
          </Text>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {sha256}
          </Text>
        </Alert>
      )}
      {onCheck && (
        <Group gap="sm" wrap="wrap">
          <Button variant="default" leftSection={<ShieldIcon size={16} />} onClick={onCheck} disabled={checkDisabled}>
            {t('verify.record.checkSignatures')}
          </Button>
          <Text size="xs" c="dimmed" miw={0}>
            {t('verify.record.checkSignaturesHint')}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
