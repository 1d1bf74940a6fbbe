import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DocumentTemplateName, updateDocumentTemplate, type DocumentTemplate } from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';

const nameTaken = (error: unknown) => error instanceof ApiError && error.issues?.some((issue) => issue.path.endsWith('name') && /already used/i.test(issue.message)) === true;

/** Renames a document template (its author or an admin), in a dialog. */
export function RenameDialog({ template, onClose, onRenamed }: { readonly template: DocumentTemplate | null; readonly onClose: () => void; readonly onRenamed: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={template !== null} onClose={onClose} title={t('docTemplates.renameTitle')} centered>
      {/* Keyed: each opening starts from the template's current name. */}
      {template && <RenameForm key={template.docTemplateId} template={template} onClose={onClose} onRenamed={onRenamed} />}
    </Modal>
  );
}

function RenameForm({ template, onClose, onRenamed }: { readonly template: DocumentTemplate; readonly onClose: () => void; readonly onRenamed: () => void }) {
  const { t } = useTranslation();
  const [initialValues] = useState(() => ({ name: template.name }));
  // The name's refusal stays until the name changes, even through another press of Save.
  const form = useForm({ mode: 'controlled', initialValues, clearInputErrorOnChange: false });
  const rename = useMutation({
    mutationFn: (value: string) => callApi(updateDocumentTemplate, { params: { docTemplateId: template.docTemplateId }, body: { name: value } }, { failures: 'caller' }),
    onSuccess: () => {
      onRenamed();
      onClose();
    },
    onError: (failure) => form.setFieldError('name', t(nameTaken(failure) ? 'docTemplates.nameTaken' : 'docTemplates.saveFailed')),
  });
  // Not form.onSubmit: with no rules given, it would first clear the name's refusal.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = DocumentTemplateName.safeParse(form.getValues().name);
    if (!parsed.success) return form.setFieldError('name', t('common.required'));
    rename.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('docTemplates.name')}
          required
          maxLength={200}
          {...form.getInputProps('name')}
          data-autofocus
          onChange={(event) => {
            form.setFieldValue('name', event.currentTarget.value);
            form.clearFieldError('name');
          }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('docTemplates.cancel')}
          </Button>
          <Button type="submit" loading={rename.isPending}>
            {t('docTemplates.saveChanges')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
