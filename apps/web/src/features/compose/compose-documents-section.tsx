import {
  Card,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import type { DocumentSummary } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { LetterheadTemplates } from '../letterheads';
import { DocumentTemplatesTab } from '../document-templates';
import { ChosenDocuments } from './chosen-documents';
import { DraftDocuments } from './draft-documents';
import { MergeDocumentsTab } from './merge-documents-tab';
import { Uploader } from './uploader';
import { ConfirmReplaceModal } from './confirm-replace-modal';
import type { ComposeFormState } from './use-compose-form';

/**
 * The documents of the new ePak: from a document template, uploaded (or converted first), among
 * earlier uploads (where they can be deleted), or merged from several; chosen ones can be renamed.
 */
export function ComposeDocumentsSection({ compose }: { readonly compose: ComposeFormState }) {
  const { t } = useTranslation();
  const { docTemplate, requestDocTemplate, toggleDocument, documents, setDocTemplate, form, setDocuments, pendingDocTemplate, setPendingDocTemplate, chooseDocTemplate } = compose;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="compose-documents-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="compose-documents-heading">
          {t('compose.documents.heading')}
        </Title>
        <Tabs defaultValue="uploader" keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="docTemplates">{t('docTemplates.tab')}</Tabs.Tab>
            <Tabs.Tab value="uploader">{t('compose.tabs.uploader')}</Tabs.Tab>
            <Tabs.Tab value="drafts">{t('compose.tabs.drafts')}</Tabs.Tab>
            <Tabs.Tab value="letterheadTemplates">{t('letterheads.tab')}</Tabs.Tab>
            <Tabs.Tab value="mergeDocuments">{t('compose.tabs.mergeDocuments')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="docTemplates">
            <DocumentTemplatesTab chosenId={docTemplate?.docTemplateId ?? null} onChoose={requestDocTemplate} />
          </Tabs.Panel>
          <Tabs.Panel value="uploader">
            <Uploader onUploaded={(document) => toggleDocument(document, true)} />
          </Tabs.Panel>
          <Tabs.Panel value="drafts">
            <DraftDocuments chosen={documents} onToggle={toggleDocument} onDeleted={(documentId) => setDocuments(documents.filter((document) => document.documentId !== documentId))} />
          </Tabs.Panel>
          {/* The tenant's letterheads; one is put on the document with a letterhead tag once the draft is saved. */}
          <Tabs.Panel value="letterheadTemplates">
            <Stack gap="xs">
              <Text size="sm">{t('letterheads.composeIntro')}</Text>
              <LetterheadTemplates />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="mergeDocuments">
            <MergeDocumentsTab onMerged={(merged, parts) => setDocuments(withMerged(documents, merged, parts))} />
          </Tabs.Panel>
        </Tabs>
        <ChosenDocuments
          documents={documents}
          template={docTemplate}
          onClearTemplate={() => setDocTemplate(null)}
          error={form.errors.documentIds}
          onChange={setDocuments}
        />
        <ConfirmReplaceModal
          opened={pendingDocTemplate !== null}
          title={t('docTemplates.switchTitle')}
          body={t('docTemplates.switchBody')}
          confirm={t('docTemplates.switchConfirm')}
          onKeep={() => setPendingDocTemplate(null)}
          onConfirm={() => {
            if (pendingDocTemplate) chooseDocTemplate(pendingDocTemplate);
            setPendingDocTemplate(null);
          }}
        />
      </Stack>
    </Card>
  );
}

/** The merged document takes the place of the first of its parts that was chosen (else goes last); the other parts leave. */
export function withMerged(documents: readonly DocumentSummary[], merged: DocumentSummary, parts: readonly DocumentSummary[]): DocumentSummary[] {
  const partIds = new Set(parts.map((part) => part.documentId));
  const at = documents.findIndex((document) => partIds.has(document.documentId));
  const rest = documents.filter((document) => !partIds.has(document.documentId));
  if (at < 0) return [...rest, merged];
  const before = documents.slice(0, at).filter((document) => !partIds.has(document.documentId)).length;
  return [...rest.slice(0, before), merged, ...rest.slice(before)];
}
