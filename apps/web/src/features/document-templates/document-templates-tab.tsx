import { ActionIcon, Alert, Badge, Button, FileButton, Group, Modal, Paper, Stack, Text, Tooltip } from '@mantine/core';
import {
  deleteDocumentTemplates,
  exportDocumentTemplate,
  listDocumentTemplates,
  ResponseCode,
  updateDocumentTemplate,
  uploadDocument,
  uploadDocumentTemplate,
  type DocumentTemplate,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { CheckIcon, DownloadIcon, PencilIcon, RefreshIcon, TrashIcon, UploadIcon } from '../../ui/icons';
import { saveBlob } from '../../ui/save-blob';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { documentTemplateQueryKeys } from './queries';
import { RenameDialog } from './rename-template-dialog';

/** The tenant's document templates, shared by the compose tab and whoever saves one. */
export function useDocumentTemplates() {
  const session = useSession();
  return useQuery({
    queryKey: documentTemplateQueryKeys.list(session?.tenantUuid),
    queryFn: ({ signal }) => callApi(listDocumentTemplates, undefined, { signal }),
  });
}

/** A refusal's words: the server's own message says which upload rule the file broke. */
function uploadProblem(error: unknown): { key: ParseKeys; detail?: string } {
  if (!(error instanceof ApiError)) return { key: 'docTemplates.uploadFailed' };
  if (error.httpStatus === 0) return { key: 'common.unreachable' };
  const keys: Partial<Record<number, ParseKeys>> = {
    [ResponseCode.INVALID_DOCUMENT.code]: 'compose.upload.invalid',
    [ResponseCode.INVALID_CHARACTER_IN_FILENAME.code]: 'compose.upload.badName',
    [ResponseCode.DOCUMENT_EXTENSION_NOT_ENABLED.code]: 'compose.upload.badFormat',
    [ResponseCode.DOCUMENT_CONVERSION_FAILED.code]: 'compose.upload.conversion',
  };
  return { key: keys[error.code] ?? 'docTemplates.uploadFailed', ...(error.message ? { detail: error.message } : {}) };
}

export interface DocumentTemplatesTabProps {
  /** The template whose document, tags and workflow the form holds now. */
  readonly chosenId: string | null;
  readonly onChoose: (template: DocumentTemplate) => void;
}

/**
 * The compose tab docTemplates (spec §9): the tenant's document templates, each with "Use", which
 * fills the document, its tags and the workflow steps in one step. Upload makes a template from a
 * file (its form fields become its tags); its author or an admin renames or deletes it; anyone who
 * composes exports it with its workflow template.
 */
export function DocumentTemplatesTab({ chosenId, onChoose }: DocumentTemplatesTabProps) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const listKey = documentTemplateQueryKeys.list(session?.tenantUuid);
  const list = useDocumentTemplates();
  const resetPicker = useRef<() => void>(null);
  const [problem, setProblem] = useState<{ key: ParseKeys; detail?: string } | null>(null);
  const [renaming, setRenaming] = useState<DocumentTemplate | null>(null);
  const [deleting, setDeleting] = useState<DocumentTemplate | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: listKey, exact: true });

  const upload = useMutation({
    mutationFn: (file: File) => callApi(uploadDocumentTemplate, { body: {}, files: { file } }, { failures: 'caller' }),
    onSuccess: (created) => {
      setProblem(null);
      queryClient.setQueryData(listKey, (current: { templates: DocumentTemplate[] } | undefined) => (current ? { templates: [created, ...current.templates] } : current));
      refresh();
    },
    onError: (error) => setProblem(uploadProblem(error)),
  });

  const remove = useMutation({
    mutationFn: (template: DocumentTemplate) => callApi(deleteDocumentTemplates, { body: { docTemplateIds: [template.docTemplateId] } }, { failures: 'caller' }),
    onSuccess: (_, template) => {
      setProblem(null);
      setDeleting(null);
      queryClient.setQueryData(listKey, (current: { templates: DocumentTemplate[] } | undefined) =>
        current ? { templates: current.templates.filter((other) => other.docTemplateId !== template.docTemplateId) } : current,
      );
    },
    // Someone may have deleted or changed it meanwhile: the fresh list says what is left.
    onError: () => {
      setDeleting(null);
      setProblem({ key: 'docTemplates.deleteFailed' });
      refresh();
    },
  });

  const exportOne = useMutation({
    mutationFn: (template: DocumentTemplate) =>
      callApi(exportDocumentTemplate, { params: { docTemplateId: template.docTemplateId, workflowTemplateId: template.workflowId ?? '' } }, { failures: 'caller' }),
    onSuccess: (blob, template) => {
      setProblem(null);
      saveBlob(blob, `${template.name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_').trim() || 'template'}.template.json`);
    },
    onError: () => setProblem({ key: 'docTemplates.exportFailed' }),
  });

  // A new version of the paper: uploaded as a document, then put in the template's place. The
  // server keeps the tags where they are, so the pages must be the same (-189 otherwise).
  const replace = useMutation({
    mutationFn: async ({ template, file }: { template: DocumentTemplate; file: File }) => {
      const document = await callApi(uploadDocument, { files: { file } }, { failures: 'caller' });
      return callApi(updateDocumentTemplate, { params: { docTemplateId: template.docTemplateId }, body: { documentId: document.documentId } }, { failures: 'caller' });
    },
    onSuccess: (updated) => {
      setProblem(null);
      queryClient.setQueryData(listKey, (current: { templates: DocumentTemplate[] } | undefined) =>
        current ? { templates: current.templates.map((other) => (other.docTemplateId === updated.docTemplateId ? updated : other)) } : current,
      );
      refresh();
    },
    onError: (error) =>
      setProblem(
        error instanceof ApiError && error.code === ResponseCode.DOCUMENT_SIZE_MISMATCH_WITH_TEMPLATE.code ? { key: 'docTemplates.sizeMismatch' } : uploadProblem(error),
      ),
  });

  const onPick = (file: File | null) => {
    // Cleared so that picking the same file again is noticed.
    resetPicker.current?.();
    if (file) upload.mutate(file);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" align="flex-start">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 220px' }}>
          {t('docTemplates.hint')}
        </Text>
        <FileButton onChange={onPick} resetRef={resetPicker}>
          {(props) => (
            <Button {...props} size="xs" variant="light" leftSection={<UploadIcon size={14} />} loading={upload.isPending}>
              {t('docTemplates.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {problem && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {t(problem.key)}
          {problem.detail ? ` ${problem.detail}` : ''}
        </Alert>
      )}
      {!list.isSuccess ? (
        queryPlaceholder(list, { loading: t('docTemplates.loading'), loadFailed: t('docTemplates.loadFailed'), retry: t('workflows.retry') })
      ) : list.data.templates.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('docTemplates.empty')}
        </Text>
      ) : (
        <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('docTemplates.listLabel')}>
          {list.data.templates.map((template) => (
            <Paper component="li" key={template.docTemplateId} withBorder px="sm" py={8} radius="sm" aria-label={template.name}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Stack gap={0} miw={0} style={{ flex: '1 1 200px' }}>
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {template.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {t('docTemplates.details', {
                      document: template.documentName,
                      pages: t('compose.documents.pages', { count: template.pageCount }),
                      fields: t('docTemplates.fields', { count: template.tags.length }),
                    })}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {template.workflowName ? t('docTemplates.workflow', { name: template.workflowName }) : t('docTemplates.noWorkflow')}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  {chosenId === template.docTemplateId ? (
                    <Badge variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />}>
                      {t('docTemplates.inUse')}
                    </Badge>
                  ) : (
                    <Button size="compact-sm" variant="light" onClick={() => onChoose(template)} aria-label={t('docTemplates.useNamed', { name: template.name })}>
                      {t('docTemplates.use')}
                    </Button>
                  )}
                  {template.workflowId && (
                    <Tooltip label={t('docTemplates.export')}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('docTemplates.exportNamed', { name: template.name })}
                        loading={exportOne.isPending && exportOne.variables?.docTemplateId === template.docTemplateId}
                        onClick={() => exportOne.mutate(template)}
                      >
                        <DownloadIcon size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {template.editable && (
                    <>
                      <FileButton onChange={(file) => file && replace.mutate({ template, file })}>
                        {(props) => (
                          <Tooltip label={t('docTemplates.replace')}>
                            <ActionIcon
                              {...props}
                              variant="subtle"
                              color="gray"
                              aria-label={t('docTemplates.replaceNamed', { name: template.name })}
                              loading={replace.isPending && replace.variables?.template.docTemplateId === template.docTemplateId}
                            >
                              <RefreshIcon size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </FileButton>
                      <Tooltip label={t('docTemplates.rename')}>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('docTemplates.renameNamed', { name: template.name })} onClick={() => setRenaming(template)}>
                          <PencilIcon size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('docTemplates.delete')}>
                        <ActionIcon variant="subtle" color="red" aria-label={t('docTemplates.deleteNamed', { name: template.name })} onClick={() => setDeleting(template)}>
                          <TrashIcon size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </>
                  )}
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <RenameDialog template={renaming} onClose={() => setRenaming(null)} onRenamed={refresh} />
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('docTemplates.deleteTitle')} centered>
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('docTemplates.deleteBody', { name: deleting?.name ?? '' })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('docTemplates.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              {t('docTemplates.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
