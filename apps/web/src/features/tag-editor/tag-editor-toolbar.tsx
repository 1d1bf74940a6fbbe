import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyIcon, PlusIcon, TrashIcon } from '../../ui/icons';
import { MinusIcon, PasteIcon, UndoIcon } from './tag-editor-icons';
import type { TagEditorModel } from './use-tag-editor';
import { zoomPercent } from './zoom';

/** Above the pages: the zoom, then undo, copy, paste, delete and save. */
export function TagEditorToolbar({ editor }: { readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const { zoom, selected } = editor;
  return (
    <Group gap="xs" justify="space-between" role="toolbar" aria-label={t('tagEditor.actions.label')}>
      <Group gap={4} role="group" aria-label={t('tagEditor.zoom.toolbar')} wrap="nowrap">
        <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.out')} disabled={!zoom.canZoomOut} onClick={() => zoom.zoomBy(-1)}>
          <MinusIcon />
        </ActionIcon>
        <Text size="sm" w={48} ta="center" aria-label={t('tagEditor.zoom.level')} data-testid="zoom-level">
          {zoomPercent(zoom.zoom)}%
        </Text>
        <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.zoom.in')} disabled={!zoom.canZoomIn} onClick={() => zoom.zoomBy(1)}>
          <PlusIcon size={18} />
        </ActionIcon>
        <Button variant={zoom.zoomMode === 'fitToWidth' ? 'light' : 'default'} size="compact-sm" aria-pressed={zoom.zoomMode === 'fitToWidth'} onClick={() => zoom.setMode('fitToWidth')}>
          {t('tagEditor.zoom.fitToWidth')}
        </Button>
        <Button variant={zoom.zoomMode === 'actual' ? 'light' : 'default'} size="compact-sm" aria-pressed={zoom.zoomMode === 'actual'} onClick={() => zoom.setMode('actual')}>
          {t('tagEditor.zoom.actual')}
        </Button>
      </Group>
      <Group gap={4} wrap="nowrap">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('tagEditor.actions.undo')}
          title={t('tagEditor.actions.undo')}
          disabled={editor.doc.history.length === 0}
          onClick={editor.undo}
        >
          <UndoIcon />
        </ActionIcon>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('tagEditor.actions.copy')}
          title={t('tagEditor.actions.copy')}
          disabled={!selected}
          onClick={() => selected && editor.copy(selected)}
        >
          <CopyIcon size={18} />
        </ActionIcon>
        <ActionIcon variant="default" size="lg" aria-label={t('tagEditor.actions.paste')} title={t('tagEditor.actions.paste')} disabled={!editor.state.clipboard} onClick={editor.paste}>
          <PasteIcon />
        </ActionIcon>
        <ActionIcon
          variant="default"
          color="red"
          size="lg"
          aria-label={t('tagEditor.actions.delete')}
          title={t('tagEditor.actions.delete')}
          disabled={!selected}
          onClick={() => selected && editor.remove(selected)}
        >
          <TrashIcon size={18} />
        </ActionIcon>
        {!editor.autoSaves && (
          <Button size="compact-md" ml={4} loading={editor.saving} disabled={!editor.anyUnsaved} onClick={editor.saveAll}>
            {t('tagEditor.actions.save')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
