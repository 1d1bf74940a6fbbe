import { Badge, Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorSuggestionList } from './anchor-suggestions';
import { DocumentTabs } from './document-tabs';
import { SmartTagsPicker } from './smart-tags-picker';
import { TagEditorNotices } from './tag-editor-notices';
import { TagEditorPages } from './tag-editor-pages';
import { TagEditorSidePanel } from './tag-editor-side-panel';
import { TagEditorToolbar } from './tag-editor-toolbar';
import type { TagEditorAutoSave } from './use-tag-autosave';
import { useTagEditor } from './use-tag-editor';

/**
 * The tag editor of /compose (issue 4): the custodian places form fields (tags) on the pages of
 * a draft ePak's documents for its signers, and saves them. Every edit goes through the domain
 * rules (tag-editor-state.ts); the layout is re-validated live with the ePak's policy and again
 * by the server on save.
 */
export function TagEditor({
  epak,
  onUnsavedChange,
  autoSave,
}: {
  readonly epak: EpakDetail;
  /** Told whenever the editor starts or stops holding changes not yet saved (Send waits for a save). */
  readonly onUnsavedChange?: (unsaved: boolean) => void;
  /** Given, the editor saves by itself a moment after each change (use-tag-autosave.ts). */
  readonly autoSave?: TagEditorAutoSave;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const editor = useTagEditor(epak, onUnsavedChange, autoSave);
  const { current } = editor;
  if (!current) return null;

  return (
    <Card withBorder p={{ base: 'xs', sm: 'md' }} component="section" aria-labelledby={headingId} onKeyDown={editor.onEditorKeyDown}>
      <Stack gap="md">
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4" id={headingId}>
              {t('tagEditor.title')}
            </Title>
            {editor.anyUnsaved && !editor.autoSaves && (
              <Badge variant="light" color="yellow" tt="none">
                {t('tagEditor.unsaved')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('tagEditor.intro')}
          </Text>
        </Stack>

        {epak.documents.length > 1 && <DocumentTabs editor={editor} current={current} />}

        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
            <Stack gap="sm">
              <TagEditorToolbar editor={editor} />
              <TagEditorNotices editor={editor} />
              <AnchorSuggestionList editor={editor} />
              <TagEditorPages editor={editor} document={current} />
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
            <TagEditorSidePanel editor={editor} />
          </Grid.Col>
        </Grid>
      </Stack>
      <SmartTagsPicker opened={editor.pickerOpened} onClose={() => editor.setPickerOpened(false)} onPick={editor.pickSmartTag} />
    </Card>
  );
}
