import {
  ActionIcon,
  Group,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import {
  type DocumentSummary,
  type DocumentTemplate,
} from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from '../../ui/icons';
import { moveStep } from '../workflows';
import { ChosenDocumentRow } from './chosen-document-row';

/** The chosen documents in the order the ePak will show them, each to rename, move or take out. */
export function ChosenDocuments({
  documents,
  template,
  onClearTemplate,
  error,
  onChange,
}: {
  readonly documents: readonly DocumentSummary[];
  /** A document template's document, first in the ePak, with its tags. */
  readonly template: DocumentTemplate | null;
  readonly onClearTemplate: () => void;
  readonly error: ReactNode;
  readonly onChange: (documents: DocumentSummary[]) => void;
}) {
  const { t } = useTranslation();
  const offset = template ? 1 : 0;
  return (
    <Stack gap={6} data-invalid={error ? true : undefined}>
      <Text size="sm" fw={500} id="compose-chosen-heading">
        {t('compose.documents.chosen', { count: documents.length + offset })}
      </Text>
      {template && (
        <Paper withBorder px="sm" py={6} radius="sm" aria-label={t('docTemplates.chosen', { name: template.name })} data-testid="compose-template-document">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Stack gap={0} miw={0}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                1. {template.documentName}
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('docTemplates.chosenDetail', {
                  name: template.name,
                  pages: t('compose.documents.pages', { count: template.pageCount }),
                  fields: t('docTemplates.fields', { count: template.tags.length }),
                })}
              </Text>
            </Stack>
            <ActionIcon variant="subtle" color="red" aria-label={t('docTemplates.clear', { name: template.name })} onClick={onClearTemplate}>
              <XIcon size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      )}
      {documents.length === 0 && template ? null : documents.length === 0 ? (
        <Text size="sm" c={error ? 'red' : 'dimmed'} role={error ? 'alert' : undefined}>
          {error ?? t('compose.documents.none')}
        </Text>
      ) : (
        <Stack component="ol" gap={6} m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby="compose-chosen-heading">
          {documents.map((document, index) => (
            <ChosenDocumentRow
              key={document.documentId}
              document={document}
              number={index + 1 + offset}
              first={index === 0}
              last={index === documents.length - 1}
              onMove={(by) => onChange(moveStep(documents, index, by))}
              onRemove={() => onChange(documents.filter((other) => other.documentId !== document.documentId))}
              onRenamed={(renamed) => onChange(documents.map((other) => (other.documentId === renamed.documentId ? renamed : other)))}
            />
          ))}
        </Stack>
      )}
      {/* A refusal of documents that are there (one twice, too many) is said below them. */}
      {error && (documents.length > 0 || template) ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
