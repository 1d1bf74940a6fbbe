import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { ResponseCode, startEpak, type EpakDetail, type TagProblem } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { problemMessage } from '../tag-editor';
import { MailIcon } from '../../ui/icons';

/** What the server says when it will not send: -107's signer lists, or the tag problems of -6/-49. */
interface Refusal {
  readonly kind: 'signers' | 'tags' | 'other';
  readonly withoutSignatureField: readonly string[];
  readonly notInWorkflow: readonly string[];
  readonly unassignedFields: number;
  readonly problems: readonly TagProblem[];
  readonly message: string;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

function refusalOf(error: unknown): Refusal {
  const base = { withoutSignatureField: [], notInWorkflow: [], unassignedFields: 0, problems: [], message: error instanceof Error ? error.message : '' };
  if (!(error instanceof ApiError)) return { ...base, kind: 'other' };
  if (error.code === ResponseCode.SIGNER_COUNT_MISMATCH.code) {
    return {
      ...base,
      kind: 'signers',
      withoutSignatureField: strings(error.data?.['withoutSignatureField']),
      notInWorkflow: strings(error.data?.['notInWorkflow']),
      unassignedFields: strings(error.data?.['unassignedFields']).length,
    };
  }
  const problems = error.data?.['problems'];
  if (Array.isArray(problems) && problems.length > 0) return { ...base, kind: 'tags', problems: problems as TagProblem[] };
  return { ...base, kind: 'other' };
}

/**
 * Sends a draft (POST …/start). The server checks the tags with every rule of the policy and
 * that the signature fields are for exactly the workflow's signers; its refusal is spelled out
 * here so the custodian knows which field or person to fix.
 */
export function StartEpakButton({
  epak,
  unsavedFields = false,
  onStarted,
}: {
  readonly epak: EpakDetail;
  /** The tag editor holds changes not yet saved: sending now would leave them out. */
  readonly unsavedFields?: boolean;
  readonly onStarted: (started: EpakDetail) => void;
}) {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: () => callApi(startEpak, { params: { ePakId: epak.ePakId } }, { failures: 'caller' }),
    onSuccess: (started) => onStarted(started),
  });
  if (epak.status !== 'Draft') {
    return (
      <Alert color="teal" variant="light" role="status" title={t('compose.start.sent')}>
        {t('compose.start.sentDetail', { count: epak.signerCount })}
      </Alert>
    );
  }
  const refusal = start.isError ? refusalOf(start.error) : null;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Button leftSection={<MailIcon size={16} />} loading={start.isPending} disabled={unsavedFields} onClick={() => start.mutate()}>
          {t('compose.start.send')}
        </Button>
        <Text size="sm" c={unsavedFields ? 'orange.8' : 'dimmed'}>
          {t(unsavedFields ? 'compose.start.saveFirst' : 'compose.start.hint')}
        </Text>
      </Group>
      {refusal && (
        <Alert color="red" variant="light" role="alert" title={t('compose.start.refused')}>
          {refusal.kind === 'signers' && (
            <Stack gap={4}>
              <Text size="sm">{t('compose.start.signerMismatch')}</Text>
              <List size="sm">
                {refusal.withoutSignatureField.map((email) => (
                  <List.Item key={`missing-${email}`}>{t('compose.start.withoutSignatureField', { email })}</List.Item>
                ))}
                {refusal.notInWorkflow.map((email) => (
                  <List.Item key={`extra-${email}`}>{t('compose.start.notInWorkflow', { email })}</List.Item>
                ))}
                {refusal.unassignedFields > 0 && <List.Item>{t('compose.start.unassigned', { count: refusal.unassignedFields })}</List.Item>}
              </List>
            </Stack>
          )}
          {refusal.kind === 'tags' && (
            <List size="sm">
              {refusal.problems.map((problem, index) => (
                <List.Item key={`${problem.tagUuid}-${problem.messageKey}-${index}`}>{problemMessage(t, problem)}</List.Item>
              ))}
            </List>
          )}
          {refusal.kind === 'other' && <Text size="sm">{refusal.message || t('compose.start.failed')}</Text>}
        </Alert>
      )}
    </Stack>
  );
}
