import { Alert, Button, Card, Group, Modal, NativeSelect, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createDocumentTemplate, DocumentTemplateName, type DocumentTemplate, type EpakDetail } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { useCan } from '../../api/access';
import { documentTemplateQueryKeys } from './queries';

/**
 * "Save as template" for an ePak's owner (spec §7 POST documenttemplates): one of its documents
 * with its saved tags and its workflow, under a name, for the compose tab docTemplates. Tags still
 * only in the editor are not saved, so the button waits for them (as sending does).
 */
export function SaveAsTemplate({ epak, unsavedFields = false }: { readonly epak: EpakDetail; readonly unsavedFields?: boolean }) {
  const { t } = useTranslation();
  const allowed = useCan('document.manage');
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<DocumentTemplate | null>(null);
  if (!allowed || !epak.viewer?.isOwner) return null;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="save-template-heading">
      <Stack gap="xs">
        <Title order={2} size="h5" id="save-template-heading">
          {t('docTemplates.save.heading')}
        </Title>
        <Group gap="sm" wrap="wrap">
          <Button variant="light" disabled={unsavedFields} onClick={() => setOpen(true)}>
            {t('docTemplates.save.open')}
          </Button>
          <Text size="sm" c={unsavedFields ? 'orange' : 'dimmed'} style={{ flex: '1 1 220px' }}>
            {t(unsavedFields ? 'docTemplates.save.saveTagsFirst' : 'docTemplates.save.hint')}
          </Text>
        </Group>
        {saved && (
          <Alert color="teal" variant="light" role="status" title={t('docTemplates.save.done', { name: saved.name })}>
            {t('docTemplates.save.doneDetail')}
          </Alert>
        )}
      </Stack>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('docTemplates.save.title')} centered>
        {open && (
          <SaveForm
            epak={epak}
            onClose={() => setOpen(false)}
            onSaved={(template) => {
              setSaved(template);
              setOpen(false);
            }}
          />
        )}
      </Modal>
    </Card>
  );
}

interface SaveValues {
  readonly name: string;
  readonly description: string;
  readonly documentId: string;
}

function SaveForm({ epak, onClose, onSaved }: { readonly epak: EpakDetail; readonly onClose: () => void; readonly onSaved: (template: DocumentTemplate) => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [initialValues] = useState<SaveValues>(() => ({
    name: epak.subject.slice(0, 200),
    description: '',
    documentId: epak.documents[0]?.documentId ?? '',
  }));
  // The name's refusal stays until the name changes, even through another press of Save.
  const form = useForm<SaveValues>({ mode: 'controlled', initialValues, clearInputErrorOnChange: false });
  const [failed, setFailed] = useState(false);
  const save = useMutation({
    mutationFn: (body: { name: string; description: string; documentId: string }) =>
      callApi(
        createDocumentTemplate,
        { body: { ePakId: epak.ePakId, documentId: body.documentId, name: body.name, ...(body.description ? { description: body.description } : {}) } },
        { failures: 'caller' },
      ),
    onSuccess: (template) => {
      void queryClient.invalidateQueries({ queryKey: documentTemplateQueryKeys.list(session?.tenantUuid) });
      onSaved(template);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.issues?.some((issue) => issue.path === 'name')) return form.setFieldError('name', t('docTemplates.nameTaken'));
      setFailed(true);
    },
  });
  // Not form.onSubmit: with no rules given, it would first clear the name's refusal.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { name, description, documentId } = form.getValues();
    const parsed = DocumentTemplateName.safeParse(name);
    if (!parsed.success) return form.setFieldError('name', t('common.required'));
    setFailed(false);
    save.mutate({ name: parsed.data, description: description.trim(), documentId });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('docTemplates.save.intro')}</Text>
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
        <Textarea label={t('docTemplates.description')} maxLength={1000} rows={2} {...form.getInputProps('description')} />
        {epak.documents.length > 1 && (
          <NativeSelect
            label={t('docTemplates.save.document')}
            data={epak.documents.map((document) => ({ value: document.documentId, label: document.name }))}
            {...form.getInputProps('documentId')}
          />
        )}
        {failed && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('docTemplates.saveFailed')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('docTemplates.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('docTemplates.save.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
