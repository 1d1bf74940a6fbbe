import { ActionIcon, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { renameDocument, type DocumentSummary } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { ArrowDownIcon, ArrowUpIcon, PencilIcon, XIcon } from '../../ui/icons';
import { SignatureStateNote } from '../../ui/signature-state-note';
import { documentNameError } from './document-names';
import { composeQueryKeys } from './queries';
import { uploadRefusal } from './upload-refusal';

/**
 * One chosen document: its place in the order, and renaming it (the name signers see), moving it
 * and taking it out of the ePak. Renaming renames the stored document, so the drafts tab and later
 * ePaks show the new name too.
 */
export function ChosenDocumentRow({
  document,
  number,
  first,
  last,
  onMove,
  onRemove,
  onRenamed,
}: {
  readonly document: DocumentSummary;
  /** Its number in the ePak, counting a template's document before it. */
  readonly number: number;
  readonly first: boolean;
  readonly last: boolean;
  readonly onMove: (by: -1 | 1) => void;
  readonly onRemove: () => void;
  readonly onRenamed: (renamed: DocumentSummary) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [draftName, setDraftName] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (name: string) => callApi(renameDocument, { params: { documentId: document.documentId }, body: { name } }, { failures: 'caller' }),
    onSuccess: (renamed) => {
      setDraftName(null);
      onRenamed(renamed);
      void queryClient.invalidateQueries({ queryKey: composeQueryKeys.allDocuments(session?.tenantUuid) });
    },
    onError: (error) => {
      const refusal = uploadRefusal(error);
      setNameError(`${t(refusal.reason)}${refusal.detail ? ` ${refusal.detail}` : ''}`);
    },
  });
  const save = () => {
    if (draftName === null) return;
    const problem = documentNameError(draftName);
    if (problem) return setNameError(t(problem.key, problem.values));
    if (draftName.trim() === document.name) return setDraftName(null);
    rename.mutate(draftName.trim());
  };

  return (
    <Paper component="li" withBorder px="sm" py={6} radius="sm" aria-label={document.name}>
      {draftName !== null ? (
        <Stack gap={6}>
          <TextInput
            label={t('compose.documents.renameLabel', { name: document.name })}
            value={draftName}
            error={nameError}
            data-autofocus
            onChange={(event) => {
              setDraftName(event.currentTarget.value);
              setNameError(null);
            }}
            onKeyDown={(event) => {
              // Enter renames here; it must not also submit the compose form around the row.
              if (event.key === 'Enter') {
                event.preventDefault();
                save();
              } else if (event.key === 'Escape') setDraftName(null);
            }}
          />
          <Group gap="xs" justify="flex-end">
            <Button variant="default" size="compact-sm" onClick={() => setDraftName(null)}>
              {t('compose.documents.renameCancel')}
            </Button>
            <Button size="compact-sm" loading={rename.isPending} onClick={save}>
              {t('compose.documents.renameSave')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Stack gap={0} miw={0}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {number}. {document.name}
            </Text>
            <Text size="xs" c="dimmed">
              {t('compose.documents.pages', { count: document.pageCount })}
            </Text>
            <SignatureStateNote state={document.signatureState} compact />
          </Stack>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('compose.documents.rename', { name: document.name })}
              onClick={() => {
                setDraftName(document.name);
                setNameError(null);
              }}
            >
              <PencilIcon size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="gray" disabled={first} aria-label={t('compose.documents.moveUp', { name: document.name })} onClick={() => onMove(-1)}>
              <ArrowUpIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="gray" disabled={last} aria-label={t('compose.documents.moveDown', { name: document.name })} onClick={() => onMove(1)}>
              <ArrowDownIcon size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('compose.documents.remove', { name: document.name })} onClick={onRemove}>
              <XIcon size={16} />
            </ActionIcon>
          </Group>
        </Group>
      )}
    </Paper>
  );
}
