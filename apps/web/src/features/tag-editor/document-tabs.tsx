import { Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EpakDocument } from './document-pages';
import { hasUnsavedChanges } from './tag-editor-state';
import type { TagEditorModel } from './use-tag-editor';

/** One tab per document of the ePak, marked while it holds unsaved changes. */
export function DocumentTabs({ editor, current }: { readonly editor: TagEditorModel; readonly current: EpakDocument }) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={current.documentId}
      onChange={(value) => {
        if (!value) return;
        editor.openDocument(value);
      }}
    >
      <Tabs.List aria-label={t('tagEditor.documents')}>
        {editor.epak.documents.map((document) => {
          const entry = editor.state.documents[document.documentId];
          return (
            <Tabs.Tab key={document.documentId} value={document.documentId} style={{ maxWidth: '100%' }}>
              <Text component="span" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {document.name}
                {entry && hasUnsavedChanges(entry) ? ' •' : ''}
              </Text>
            </Tabs.Tab>
          );
        })}
      </Tabs.List>
    </Tabs>
  );
}
