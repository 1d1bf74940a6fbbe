import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { ResponseCode, startEpak, type EpakDetail, type TagProblem } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { problemMessage } from '../tag-editor';
import { MailIcon } from '../../ui/icons';

/**
 * What the server says when it will not send: -107's signer lists, -62's signers without a
 * signature field, -49's missing reasons (with the tag problems it carries, as -6's).
 */
interface Refusal {
  readonly kind: 'signers' | 'signatureMissing' | 'reasons' | 'tags' | 'other';
  readonly withoutSignatureField: readonly string[];
  readonly notInWorkflow: readonly string[];
  readonly unassignedFields: number;
  readonly problems: readonly TagProblem[];
  readonly message: string;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

export function refusalOf(error: unknown): Refusal {
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
  const problems = Array.isArray(error.data?.['problems']) ? (error.data['problems'] as TagProblem[]) : [];
  if (error.code === ResponseCode.USER_SIGNATURE_TAG_NOT_FOUND.code) {
    // The addresses may come as a list or one by one; either way each is named.
    const email = error.data?.['email'];
    const emails = [...strings(error.data?.['withoutSignatureField']), ...strings(error.data?.['emails']), ...(typeof email === 'string' ? [email] : [])];
    return { ...base, kind: 'signatureMissing', withoutSignatureField: [...new Set(emails)] };
  }
  if (error.code === ResponseCode.ESIGNATURE_REASON_TAG_NOT_SELECTED.code) return { ...base, kind: 'reasons', problems };
  if (problems.length > 0) return { ...base, kind: 'tags', problems };
  return { ...base, kind: 'other' };
}

/**
 * Sends a draft (POST …/start). The review step has checked the fields already and keeps this
 * disabled while something is missing (`blocked`); the server checks again with every rule of
 * the policy, and its refusal is spelled out here with the way to the fields that fix it.
 */
export function StartEpakButton({
  epak,
  blocked = false,
  onStarted,
  onFix,
}: {
  readonly epak: EpakDetail;
  /** Something the review found missing: sending would only be refused. */
  readonly blocked?: boolean;
  readonly onStarted: (started: EpakDetail) => void;
  /** Opens the fields step, where a refusal about fields is fixed. */
  readonly onFix: () => void;
}) {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: () => callApi(startEpak, { params: { ePakId: epak.ePakId } }, { failures: 'caller' }),
    onSuccess: (started) => onStarted(started),
  });
  const refusal = start.isError ? refusalOf(start.error) : null;
  const aboutFields = refusal !== null && refusal.kind !== 'other';
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Button leftSection={<MailIcon size={16} />} loading={start.isPending} disabled={blocked} onClick={() => start.mutate()}>
          {t('compose.start.send')}
        </Button>
        <Text size="sm" c={blocked ? 'orange' : 'dimmed'}>
          {t(blocked ? 'compose.review.sendBlocked' : 'compose.start.hint')}
        </Text>
      </Group>
      {refusal && (
        <Alert color="red" variant="light" role="alert" title={t('compose.start.refused')}>
          <Stack gap={6}>
            {refusal.kind === 'signers' && <Text size="sm">{t('compose.start.signerMismatch')}</Text>}
            {refusal.kind === 'signatureMissing' && <Text size="sm">{t('compose.start.signatureMissing')}</Text>}
            {refusal.kind === 'reasons' && <Text size="sm">{t('compose.start.reasonsMissing', { policy: t(`compose.policies.${epak.signingPolicy}.name`) })}</Text>}
            {(refusal.kind === 'signers' || refusal.kind === 'signatureMissing') && (
              <List size="sm">
                {refusal.withoutSignatureField.map((email) => (
                  <List.Item key={`missing-${email}`}>{t('compose.start.withoutSignatureField', { email })}</List.Item>
                ))}
                {refusal.notInWorkflow.map((email) => (
                  <List.Item key={`extra-${email}`}>{t('compose.start.notInWorkflow', { email })}</List.Item>
                ))}
                {refusal.unassignedFields > 0 && <List.Item>{t('compose.start.unassigned', { count: refusal.unassignedFields })}</List.Item>}
              </List>
            )}
            {(refusal.kind === 'tags' || refusal.kind === 'reasons') && refusal.problems.length > 0 && (
              <List size="sm">
                {refusal.problems.map((problem, index) => (
                  <List.Item key={`${problem.tagUuid}-${problem.messageKey}-${index}`}>{problemMessage(t, problem)}</List.Item>
                ))}
              </List>
            )}
            {refusal.kind === 'other' && (
              <Text size="sm">{start.error instanceof ApiError && start.error.httpStatus === 0 ? t('common.unreachable') : refusal.message || t('compose.start.failed')}</Text>
            )}
            {aboutFields && (
              <div>
                <Button variant="light" color="red" size="compact-sm" onClick={onFix}>
                  {t('compose.review.fix')}
                </Button>
              </div>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
