import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RejectDialog } from './reject-dialog';
import { SignatureDialog } from './signature-dialog';
import { initialsOf } from './signing-tags';
import type { CeremonyState } from './use-ceremony';

/** The ceremony's dialogs: drawing a signature or initials, rejecting, and the auto-fill offer. */
export function CeremonyDialogs({ ceremony }: { readonly ceremony: CeremonyState }) {
  const { t } = useTranslation();
  const { entries, signer, signerName, actions, autoFill } = ceremony;
  const request = entries.markRequest;
  return (
    <>
      <SignatureDialog
        opened={request !== null}
        kind={request?.kind ?? 'signature'}
        defaultText={request?.kind === 'initials' ? initialsOf(signer.name) : signer.name}
        name={signerName.required ? { value: signerName.value, onChange: signerName.setValue } : undefined}
        onClose={() => entries.setMarkRequest(null)}
        onAdopt={entries.adoptMark}
      />
      <RejectDialog
        opened={actions.rejecting}
        pending={actions.reject.isPending}
        error={actions.rejectError}
        onCancel={() => actions.setRejecting(false)}
        onConfirm={(comment) => actions.reject.mutate(comment)}
      />
      <Modal opened={autoFill.offer !== null} onClose={autoFill.decline} title={t('signing.autoFill.title')} centered>
        <Stack gap="sm">
          <Text size="sm">{t('signing.autoFill.question', { count: autoFill.offer ?? 0 })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={autoFill.decline}>
              {t('signing.autoFill.no')}
            </Button>
            <Button onClick={autoFill.accept}>{t('signing.autoFill.yes')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
