import { Alert, Box, Button, FileButton, Group, Image, Modal, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import { acceptOf, readImageFile, type ImageFileProblem } from '../../ui/image-file';
import { renderTypedSignature, SIGNATURE_FONT, SIGNATURE_INK, trimmedSignature } from './signature-image';
import { SignerNameField } from './signer-name-field';

/** What the person is making: their signature, or their initials (a smaller mark of the same kind). */
export type MarkKind = 'signature' | 'initials';

/** An uploaded signature: PNG or JPEG, at most 2 MB (a scan is rarely larger; the sign request carries it inline). */
export const SIGNATURE_UPLOAD_MAX_MB = 2;
const UPLOAD_RULE = { types: ['png', 'jpg'], maxBytes: SIGNATURE_UPLOAD_MAX_MB * 1024 * 1024 } as const;

type Mode = 'draw' | 'type' | 'upload';

export interface SignatureDialogProps {
  readonly opened: boolean;
  readonly kind: MarkKind;
  /** What the Type tab starts with: the person's name, or their initials. */
  readonly defaultText: string;
  /**
   * "Your full name", asked here of a signer the ePak knows only by address (issue 22): nothing is
   * adopted without it, and the Type tab writes what they type.
   */
  readonly name?: { readonly value: string; readonly onChange: (value: string) => void } | undefined;
  readonly onClose: () => void;
  /** The mark as a PNG or JPEG data URL. */
  readonly onAdopt: (dataUrl: string) => void;
}

/**
 * The signature popover of spec §2: draw (signature_pad), type (drawn in a handwriting font) or
 * upload a signature or initials. What is adopted is reused for every other field of its kind.
 */
export function SignatureDialog({ opened, kind, defaultText, name, onClose, onAdopt }: SignatureDialogProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('draw');
  const [drawn, setDrawn] = useState(false);
  const [drawUnavailable, setDrawUnavailable] = useState(false);
  const [typed, setTyped] = useState(defaultText);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [uploadProblem, setUploadProblem] = useState<ImageFileProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // A callback ref held in state: the modal mounts its content after it opens (its transition), so
  // the pad is made when the canvas appears, not when `opened` changes.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const resetPicker = useRef<() => void>(null);

  // Each opening starts afresh with the person's name: they may have typed something else before.
  // The name typed above the tabs (when asked) changes what the Type tab writes, and only that.
  const [typedEdited, setTypedEdited] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setTypedEdited(false);
    setDrawn(false);
    setUploaded(null);
    setUploadProblem(null);
    setFailed(false);
  }, [opened]);
  useEffect(() => {
    if (opened && !typedEdited) setTyped(defaultText);
  }, [opened, defaultText, typedEdited]);

  // The pad lives while the Draw tab shows; the canvas is sized to its box at the screen's density
  // so strokes are sharp and land under the pointer.
  useEffect(() => {
    if (!opened || mode !== 'draw' || !canvas) return;
    let pad: SignaturePad;
    try {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = Math.max(1, canvas.offsetWidth * ratio);
      canvas.height = Math.max(1, canvas.offsetHeight * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad = new SignaturePad(canvas, { penColor: SIGNATURE_INK, minWidth: 0.8, maxWidth: 2.6 });
    } catch {
      setDrawUnavailable(true);
      return;
    }
    padRef.current = pad;
    const onEnd = () => setDrawn(!pad.isEmpty());
    pad.addEventListener('endStroke', onEnd);
    return () => {
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      padRef.current = null;
    };
  }, [opened, mode, canvas]);

  const clear = () => {
    padRef.current?.clear();
    setDrawn(false);
  };

  const pick = async (file: File | null) => {
    resetPicker.current?.();
    if (!file) return;
    const checked = await readImageFile(file, UPLOAD_RULE);
    if (!checked.ok) {
      setUploadProblem(checked.problem);
      return;
    }
    setUploadProblem(null);
    setUploaded(checked.dataUrl);
  };

  const nameGiven = !name || name.value.trim() !== '';
  const ready = nameGiven && (mode === 'draw' ? drawn : mode === 'type' ? typed.trim() !== '' : uploaded !== null);

  const adopt = async () => {
    setBusy(true);
    setFailed(false);
    try {
      let image: string | null = null;
      if (mode === 'draw' && canvas) image = trimmedSignature(canvas);
      else if (mode === 'type') image = await renderTypedSignature(typed.trim());
      else image = uploaded;
      if (!image) throw new Error('no image');
      onAdopt(image);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const uploadMessage =
    uploadProblem === 'tooLarge'
      ? t('signing.signature.tooLarge', { size: SIGNATURE_UPLOAD_MAX_MB })
      : uploadProblem === 'wrongType'
        ? t('signing.signature.wrongType')
        : uploadProblem === 'unreadable'
          ? t('signing.signature.unreadable')
          : null;

  return (
    <Modal opened={opened} onClose={onClose} title={t(kind === 'signature' ? 'signing.signature.title' : 'signing.signature.initialsTitle')} size="lg" centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t(kind === 'signature' ? 'signing.signature.intro' : 'signing.signature.initialsIntro')}
        </Text>
        {name && <SignerNameField value={name.value} onChange={name.onChange} error={null} autoFocus />}
        <Tabs value={mode} onChange={(value) => setMode((value as Mode | null) ?? 'draw')} keepMounted={false}>
          <Tabs.List grow aria-label={t('signing.signature.ways')}>
            <Tabs.Tab value="draw">{t('signing.signature.draw')}</Tabs.Tab>
            <Tabs.Tab value="type">{t('signing.signature.type')}</Tabs.Tab>
            <Tabs.Tab value="upload">{t('signing.signature.upload')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="draw" pt="sm">
            {drawUnavailable ? (
              <Alert color="yellow" variant="light">
                {t('signing.signature.drawUnavailable')}
              </Alert>
            ) : (
              <Stack gap={6}>
                <Box
                  component="canvas"
                  ref={setCanvas}
                  aria-label={t('signing.signature.drawArea')}
                  data-testid="signature-pad"
                  w="100%"
                  h={kind === 'signature' ? 180 : 140}
                  style={{
                    display: 'block',
                    border: '1px dashed var(--mantine-color-gray-5)',
                    borderRadius: 'var(--mantine-radius-sm)',
                    background: 'var(--mantine-color-white)',
                    // The pad owns a press on it: no scrolling or zooming of the page while drawing.
                    touchAction: 'none',
                  }}
                />
                <Group justify="space-between">
                  <Text size="xs" c="dimmed">
                    {/* Drawing needs a pointer; the Type tab is the keyboard's full alternative (WCAG 2.1.1). */}
                    {t('signing.signature.drawHint')} {t('signing.signature.keyboardHint')}
                  </Text>
                  <Button size="compact-sm" variant="subtle" onClick={clear} disabled={!drawn}>
                    {t('signing.signature.clear')}
                  </Button>
                </Group>
              </Stack>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="type" pt="sm">
            <Stack gap="xs">
              <TextInput
                label={t(kind === 'signature' ? 'signing.signature.typeLabel' : 'signing.signature.typeInitialsLabel')}
                value={typed}
                maxLength={kind === 'signature' ? 80 : 6}
                onChange={(event) => {
                  setTyped(event.currentTarget.value);
                  setTypedEdited(true);
                }}
              />
              <Box
                aria-hidden
                mih={90}
                px="md"
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  border: '1px dashed var(--mantine-color-gray-5)',
                  borderRadius: 'var(--mantine-radius-sm)',
                  fontFamily: SIGNATURE_FONT,
                  fontSize: 40,
                  color: SIGNATURE_INK,
                  overflow: 'hidden',
                  whiteSpace: 'nowrap',
                }}
              >
                {typed}
              </Box>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="upload" pt="sm">
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                {t('signing.signature.uploadHint', { size: SIGNATURE_UPLOAD_MAX_MB })}
              </Text>
              {uploadMessage && (
                <Alert color="red" variant="light" role="alert" p="xs">
                  {uploadMessage}
                </Alert>
              )}
              {uploaded && <Image src={uploaded} alt={t('signing.signature.preview')} fit="contain" mah={140} radius="sm" bd="1px solid var(--mantine-color-default-border)" />}
              <FileButton onChange={(file) => void pick(file)} accept={acceptOf(UPLOAD_RULE)} resetRef={resetPicker}>
                {(props) => (
                  <Button {...props} variant="light" size="xs" w="fit-content">
                    {t(uploaded ? 'signing.signature.chooseAnother' : 'signing.signature.choose')}
                  </Button>
                )}
              </FileButton>
            </Stack>
          </Tabs.Panel>
        </Tabs>
        {failed && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('signing.signature.failed')}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          {t('signing.signature.consent')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('signing.cancel')}
          </Button>
          <Button onClick={() => void adopt()} disabled={!ready} loading={busy}>
            {t(kind === 'signature' ? 'signing.signature.adopt' : 'signing.signature.adoptInitials')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
