import { Alert, Button, Checkbox, FileButton, Group, Image, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { ALLOWED_DOCUMENT_FORMATS, EmailAddress, EPAK_ATTACHMENT_MAX_BYTES, imageLimitKb, isFilledValue, type SigningReason, type Tag, type TagValue } from '@pakt/domain';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage } from './sign-errors';
import { acceptOf, kilobytes, readImageFile, type ImageFileProblem } from '../../ui/image-file';
import { selectOptionsOf } from '../tag-editor';
import { ReasonPicker, type ReasonState } from './reason-picker';
import { formatTagDate, parseTagDate, type ValueKind } from './signing-tags';

/** Text fields hold at most this much: the tag's box shows a line or a few, not pages. */
const TEXT_MAX_LENGTH = 500;

export interface TagFieldEditorProps {
  readonly tag: Tag;
  readonly kind: ValueKind;
  readonly value: TagValue;
  readonly label: string;
  readonly onChange: (value: TagValue) => void;
  readonly onDone: () => void;
  /** For click-filled fields already holding a mark: make a new signature or initials. */
  readonly onChangeMark?: () => void;
  readonly reason: ReasonState;
  readonly onReasonChange: (reason: ReasonState) => void;
  readonly reasons: readonly SigningReason[];
  /** Uploads an attachment tag's file; rejects with the server's refusal. */
  readonly onAttach: (file: File) => Promise<void>;
}

/**
 * The input a tag of the signer's own takes, shown beside it on the page: a text box, a date,
 * a choice, an image upload. Click-filled fields (signature, initials, name) offer to clear or
 * change what the click put there.
 */
export function TagFieldEditor(props: TagFieldEditorProps) {
  const { t } = useTranslation();
  const { tag, kind, value, label, onChange } = props;
  const text = typeof value === 'string' ? value : '';

  const body = (() => {
    switch (kind) {
      case 'text':
        return <TextInput label={label} value={text} maxLength={TEXT_MAX_LENGTH} data-autofocus onChange={(event) => onChange(event.currentTarget.value)} />;
      case 'email': {
        const invalid = text.trim() !== '' && !EmailAddress.safeParse(text.trim()).success;
        return (
          <TextInput
            label={label}
            type="email"
            value={text}
            maxLength={254}
            data-autofocus
            error={invalid ? t('signing.fields.emailInvalid') : undefined}
            onChange={(event) => onChange(event.currentTarget.value)}
          />
        );
      }
      case 'date':
        return <TextInput label={label} type="date" value={parseTagDate(text)} data-autofocus onChange={(event) => onChange(formatTagDate(event.currentTarget.value) || null)} />;
      case 'textArea':
        return <Textarea label={label} value={text} maxLength={TEXT_MAX_LENGTH} rows={4} data-autofocus onChange={(event) => onChange(event.currentTarget.value)} />;
      case 'select': {
        const options = selectOptionsOf(tag);
        return (
          <NativeSelect
            label={label}
            value={text}
            data-autofocus
            data={[{ value: '', label: t('signing.fields.choose') }, ...options.map((option) => ({ value: option, label: option }))]}
            onChange={(event) => onChange(event.currentTarget.value || null)}
          />
        );
      }
      case 'multiSelect': {
        const chosen = Array.isArray(value) ? value : [];
        return (
          <Checkbox.Group label={label} value={chosen} onChange={(next) => onChange(next.length > 0 ? next : null)}>
            <Stack gap={6} mt={6}>
              {selectOptionsOf(tag).map((option) => (
                <Checkbox key={option} value={option} label={option} />
              ))}
            </Stack>
          </Checkbox.Group>
        );
      }
      case 'image':
        return <ImageTagInput tag={tag} label={label} value={text} onChange={onChange} />;
      case 'attachment':
        return <AttachmentInput tag={tag} label={label} value={text} onAttach={props.onAttach} />;
      case 'reason':
        return (
          <Stack gap={6}>
            <Text size="sm">{t('signing.fields.reasonMirrors')}</Text>
            <ReasonPicker value={props.reason} onChange={props.onReasonChange} reasons={props.reasons} />
          </Stack>
        );
      case 'signature':
      case 'initials':
      case 'typedName':
      case 'name':
        return (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {label}
            </Text>
            {typeof value === 'string' && value.startsWith('data:image/') ? (
              <Image src={value} alt={label} fit="contain" mah={80} />
            ) : (
              <Text size="sm">{text}</Text>
            )}
            <Group gap="xs">
              {props.onChangeMark && (kind === 'signature' || kind === 'initials') && (
                <Button size="compact-sm" variant="light" onClick={props.onChangeMark}>
                  {t(kind === 'signature' ? 'signing.fields.changeSignature' : 'signing.fields.changeInitials')}
                </Button>
              )}
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => onChange(null)} disabled={!isFilledValue(value)}>
                {t('signing.fields.clear')}
              </Button>
            </Group>
          </Stack>
        );
      default:
        return null;
    }
  })();

  return (
    <Stack gap="xs" miw={220} maw={320}>
      {body}
      <Group justify="flex-end">
        <Button size="compact-sm" onClick={props.onDone}>
          {t('signing.fields.done')}
        </Button>
      </Group>
    </Stack>
  );
}

/** An image tag: PNG or JPEG up to the tag's own limit in KB, said before choosing (spec §5). */
function ImageTagInput({ tag, label, value, onChange }: { readonly tag: Tag; readonly label: string; readonly value: string; readonly onChange: (value: TagValue) => void }) {
  const { t } = useTranslation();
  const resetPicker = useRef<() => void>(null);
  const [problem, setProblem] = useState<ImageFileProblem | null>(null);
  const maxKb = imageLimitKb(tag) ?? 500;
  const rule = { types: ['png', 'jpg'], maxBytes: kilobytes(maxKb) };
  const pick = async (file: File | null) => {
    resetPicker.current?.();
    if (!file) return;
    const checked = await readImageFile(file, rule);
    if (!checked.ok) return setProblem(checked.problem);
    setProblem(null);
    onChange(checked.dataUrl);
  };
  const message =
    problem === 'tooLarge' ? t('signing.fields.imageTooLarge', { size: maxKb }) : problem === 'wrongType' ? t('signing.fields.imageWrongType') : problem ? t('signing.signature.unreadable') : null;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="xs" c="dimmed">
        {t('signing.fields.imageHint', { size: maxKb })}
      </Text>
      {message && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {message}
        </Alert>
      )}
      {value.startsWith('data:image/') && <Image src={value} alt={label} fit="contain" mah={100} />}
      <Group gap="xs">
        <FileButton onChange={(file) => void pick(file)} accept={acceptOf(rule)} resetRef={resetPicker}>
          {(buttonProps) => (
            <Button {...buttonProps} size="compact-sm" variant="light">
              {t(value ? 'signing.fields.replaceImage' : 'signing.fields.chooseImage')}
            </Button>
          )}
        </FileButton>
        {value && (
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => onChange(null)}>
            {t('signing.fields.clear')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/**
 * An attachment tag: a file of an allowed document format (spec §5), within the tag's maxUpload
 * or the server's 10 MB, uploaded as soon as it is chosen; the tag then shows its name.
 */
function AttachmentInput({ tag, label, value, onAttach }: { readonly tag: Tag; readonly label: string; readonly value: string; readonly onAttach: (file: File) => Promise<void> }) {
  const { t } = useTranslation();
  const resetPicker = useRef<() => void>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const maxBytes = tag.maxUpload ? tag.maxUpload * 1024 : EPAK_ATTACHMENT_MAX_BYTES;
  const maxKb = Math.round(maxBytes / 1024);
  const pick = async (file: File | null) => {
    resetPicker.current?.();
    if (!file) return;
    const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
    if (!(ALLOWED_DOCUMENT_FORMATS as readonly string[]).includes(extension)) return setProblem(t('signing.fields.attachmentWrongType', { formats: ALLOWED_DOCUMENT_FORMATS.join(', ') }));
    if (file.size > maxBytes) return setProblem(t('signing.fields.attachmentTooLarge', { size: maxKb }));
    setProblem(null);
    setUploading(true);
    try {
      await onAttach(file);
    } catch (error) {
      setProblem(actionErrorMessage(t, error));
    } finally {
      setUploading(false);
    }
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="xs" c="dimmed">
        {t('signing.fields.attachmentHint', { size: maxKb })}
      </Text>
      {problem && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {problem}
        </Alert>
      )}
      {value && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('signing.fields.attached', { name: value })}
        </Text>
      )}
      <FileButton onChange={(file) => void pick(file)} accept={ALLOWED_DOCUMENT_FORMATS.map((format) => `.${format}`).join(',')} resetRef={resetPicker}>
        {(buttonProps) => (
          <Button {...buttonProps} size="compact-sm" variant="light" loading={uploading} w="fit-content">
            {t(value ? 'signing.fields.replaceFile' : 'signing.fields.chooseFile')}
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}
