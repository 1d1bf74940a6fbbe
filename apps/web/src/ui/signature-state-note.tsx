import { Alert, Text } from '@mantine/core';
import type { DocumentSignatureState } from '@pakt/domain';
import { useTranslation } from 'react-i18next';

/** The people who signed the given signatures, named once each ("someone" when a signature names nobody). */
function signersOf(state: DocumentSignatureState, which: (signature: DocumentSignatureState['signatures'][number]) => boolean, someone: string): string {
  return [...new Set(state.signatures.filter(which).map((signature) => signature.signerName ?? someone))].join(', ');
}

/**
 * What a document's own signatures were when it was uploaded (issue 20, defect 5), for the
 * custodian in compose and for signers in the ceremony: nothing for an unsigned file, a quiet
 * line when its signatures hold, and an alert when one is broken or the file was changed after
 * its last signature, because a new signature would then seal a file whose earlier ones do not hold.
 */
export function SignatureStateNote({ state, compact = false }: { readonly state: DocumentSignatureState | null; readonly compact?: boolean }) {
  const { t } = useTranslation();
  if (!state || state.status === 'unsigned') return null;
  const count = state.signatures.length;
  const someone = t('signatureState.someone');
  if (state.status === 'intact' || state.status === 'unverifiable') {
    return (
      <Text size="xs" c={state.status === 'intact' ? 'teal' : 'dimmed'} data-testid="signature-state" data-status={state.status}>
        {t(`signatureState.${state.status}`, { count, names: signersOf(state, () => true, someone) })}
      </Text>
    );
  }
  const last = state.signatures[state.signatures.length - 1];
  const body =
    state.status === 'broken'
      ? t('signatureState.brokenBody', { names: signersOf(state, (signature) => signature.integrity === 'broken', someone) })
      : t('signatureState.changedBody', { count: last?.revisionsAfter ?? 1, name: last?.signerName ?? someone });
  return (
    <Alert
      color={state.status === 'broken' ? 'red' : 'orange'}
      variant="light"
      p={compact ? 'xs' : undefined}
      title={t(`signatureState.${state.status}`, { count })}
      data-testid="signature-state"
      data-status={state.status}
    >
      <Text size="sm">{body}</Text>
    </Alert>
  );
}
