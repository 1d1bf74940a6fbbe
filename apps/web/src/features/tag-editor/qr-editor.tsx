import { ActionIcon, Alert, Button, Center, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  qrEditProblem,
  qrEntriesOf,
  qrPayload,
  removeQrEntry,
  saveQrEntry,
  withQrEntries,
  type QrEntry,
  type QrEntryProblems,
  type QrMessageKey,
  type Tag,
} from '@pakt/domain';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PencilIcon, TrashIcon } from '../../ui/icons';
import { QrCode } from '../../ui/qr-code';

const EMPTY: QrEntry = { label: '', value: '' };

interface Errors {
  readonly label?: QrMessageKey;
  readonly value?: QrMessageKey;
  readonly payload?: NonNullable<QrEntryProblems['payload']>;
}

/**
 * The QR key-value editor of spec §5. One pair of fields adds entries and, after "edit", changes
 * one (see domain's qrEditProblem for when an entry may be loaded into them); the four checks
 * answer the spec's messages at the field they concern. Deleting asks first. The preview shows
 * the code as it will be printed, from the saved entries.
 */
export function QrEditor({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const entries = qrEntriesOf(tag);
  const [fields, setFields] = useState<QrEntry>(EMPTY);
  const [editingIndex, setEditingIndex] = useState<number | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [deleting, setDeleting] = useState<number | null>(null);

  const reset = () => {
    setFields(EMPTY);
    setEditingIndex(null);
    setErrors({});
  };

  const startEditing = (index: number) => {
    const entry = entries[index];
    if (!entry) return;
    const problem = qrEditProblem(fields, { editingIndex: editingIndex ?? undefined, requestedIndex: index });
    if (problem) {
      setErrors({ label: problem });
      return;
    }
    setFields(entry);
    setEditingIndex(index);
    setErrors({});
  };

  const save = () => {
    const saved = saveQrEntry(entries, fields, editingIndex ?? undefined);
    if (!saved.ok) {
      setErrors(saved.problems);
      return;
    }
    onChange(withQrEntries(tag, saved.entries));
    reset();
  };

  const confirmDelete = () => {
    if (deleting === null) return;
    onChange(withQrEntries(tag, removeQrEntry(entries, deleting)));
    // The entry in the fields keeps pointing at the same entry, or stops being edited if it went.
    if (editingIndex === deleting) reset();
    else if (editingIndex !== null && editingIndex > deleting) setEditingIndex(editingIndex - 1);
    setDeleting(null);
  };

  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // The panel may sit inside a form; Enter here saves the entry and nothing else.
    event.preventDefault();
    save();
  };

  const setField = (name: keyof QrEntry, text: string) => {
    setFields((current) => ({ ...current, [name]: text }));
    setErrors(({ [name]: _fixed, payload: _payload, ...rest }) => rest);
  };

  const payload = qrPayload(entries);
  const deletingEntry = deleting === null ? undefined : entries[deleting];

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h6" id={headingId}>
        {t('tagPanel.qr.heading')}
      </Title>

      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('tagPanel.qr.empty')}
        </Text>
      ) : (
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={headingId}>
          {entries.map((entry, index) => (
            <Paper
              key={`${index}-${entry.label}`}
              component="li"
              withBorder
              px="xs"
              py={4}
              bg={index === editingIndex ? 'var(--mantine-primary-color-light)' : undefined}
            >
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Stack gap={0} miw={0}>
                  <Text size="sm" fw={600} truncate>
                    {entry.label}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {entry.value}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={t('tagPanel.qr.edit', { label: entry.label })} onClick={() => startEditing(index)}>
                    <PencilIcon size={16} />
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="red" aria-label={t('tagPanel.qr.delete', { label: entry.label })} onClick={() => setDeleting(index)}>
                    <TrashIcon size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      <TextInput
        size="xs"
        label={t('tagPanel.qr.label')}
        value={fields.label}
        error={errors.label && t(errors.label)}
        errorProps={{ role: 'alert' }}
        onChange={(event) => setField('label', event.currentTarget.value)}
        onKeyDown={onEnter}
      />
      <TextInput
        size="xs"
        label={t('tagPanel.qr.value')}
        value={fields.value}
        error={errors.value && t(errors.value)}
        errorProps={{ role: 'alert' }}
        onChange={(event) => setField('value', event.currentTarget.value)}
        onKeyDown={onEnter}
      />
      {errors.payload && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {t('tagPanel.qr.payloadTooLong', { max: errors.payload.max, bytes: errors.payload.bytes })}
        </Alert>
      )}
      <Group gap="xs">
        <Button size="xs" variant="light" onClick={save}>
          {t(editingIndex === null ? 'tagPanel.qr.add' : 'tagPanel.qr.save')}
        </Button>
        {editingIndex !== null && (
          <Button size="xs" variant="default" onClick={reset}>
            {t('tagPanel.qr.cancel')}
          </Button>
        )}
      </Group>

      {entries.length > 0 && (
        <Center>
          <QrCode value={payload} label={t('tagPanel.qr.preview')} size={140} testId="qr-preview" />
        </Center>
      )}

      <Modal opened={deletingEntry !== undefined} onClose={() => setDeleting(null)} title={t('tagPanel.qr.confirmTitle')} centered size="sm">
        <Stack gap="md">
          <Text size="sm">{t('tagPanel.qr.confirmText', { label: deletingEntry?.label ?? '' })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('tagPanel.qr.keep')}
            </Button>
            <Button color="red" onClick={confirmDelete} data-autofocus>
              {t('tagPanel.qr.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
