import { Alert, Button, Checkbox, Code, CopyButton, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../ui/save-blob';

export const RECOVERY_CODES_FILE = 'pakt-recovery-codes.txt';

/** The codes as the copied and downloaded text: one a line, under a heading saying what they are. */
export function recoveryCodesText(codes: readonly string[], heading: string): string {
  return `${heading}\n\n${codes.join('\n')}\n`;
}

/**
 * Shows the recovery codes the server answered, once: the server keeps only their digests, so
 * closing this is the last time anyone sees them. It closes only after the person says they
 * stored them (no Escape, no click outside), so they cannot be dismissed unread.
 */
export function RecoveryCodesDialog({ codes, onClose }: { readonly codes: readonly string[] | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const [stored, setStored] = useState(false);
  const close = () => {
    setStored(false);
    onClose();
  };
  const text = codes ? recoveryCodesText(codes, t('profile.recoveryCodes.fileHeading')) : '';
  return (
    <Modal
      opened={codes !== null}
      onClose={() => stored && close()}
      title={t('profile.recoveryCodes.title')}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
      centered
      size="md"
    >
      <Stack gap="md">
        <Alert color="orange" variant="light" title={t('profile.recoveryCodes.storeNowTitle')}>
          {t('profile.recoveryCodes.storeNow')}
        </Alert>
        <Text size="sm">{t('profile.recoveryCodes.intro')}</Text>
        <SimpleGrid cols={2} spacing="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('profile.recoveryCodes.listLabel')}>
          {codes?.map((code) => (
            <li key={code}>
              <Code data-testid="recovery-code" fz={16} style={{ letterSpacing: '0.05em' }}>
                {code}
              </Code>
            </li>
          ))}
        </SimpleGrid>
        <Group gap="sm">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? t('profile.recoveryCodes.copied') : t('profile.recoveryCodes.copy')}
              </Button>
            )}
          </CopyButton>
          <Button variant="light" onClick={() => saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), RECOVERY_CODES_FILE)}>
            {t('profile.recoveryCodes.download')}
          </Button>
        </Group>
        <Checkbox checked={stored} onChange={(event) => setStored(event.currentTarget.checked)} label={t('profile.recoveryCodes.acknowledge')} />
        <Group justify="flex-end">
          <Button disabled={!stored} onClick={close}>
            {t('profile.recoveryCodes.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
