import { Box, Button, ColorSwatch, Group, NativeSelect, Stack, Tabs, Text } from '@mantine/core';
import { RUBBER_STAMP_SUB_TYPE, type Tag } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../api/access';
import { AnchorFinder } from './anchor-suggestions';
import { signerColour, UNASSIGNED_COLOUR } from './signer-colours';
import type { SignerOption } from './signers';
import { TagPalette } from './tag-palette';
import { TagProperties } from './tag-properties';
import type { TagEditorModel } from './use-tag-editor';

/** Beside the pages: the fields to place (for whom, the palette, smart tags), or the selected field's properties. */
export function TagEditorSidePanel({ editor }: { readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const { signers, forSigner, selected, pages, state } = editor;
  const stampArmed = state.armed?.init?.subType === RUBBER_STAMP_SUB_TYPE;
  return (
    // Two tabs rather than one long column: the palette and a tag's properties are each
    // as tall as the pages beside them, and one of them is what the custodian is using.
    <Tabs value={editor.sideTab} onChange={(value) => editor.setSideTab(value === 'properties' ? 'properties' : 'fields')} keepMounted={false}>
      <Tabs.List grow mb="sm">
        <Tabs.Tab value="fields">{t('tagEditor.palette.heading')}</Tabs.Tab>
        <Tabs.Tab value="properties">{t('tagEditor.propertiesTab')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="fields">
        <Stack gap="md">
          <Stack gap={6}>
            {signers.length > 0 ? (
              <NativeSelect
                label={t('tagEditor.for')}
                description={t('tagEditor.forHint')}
                data={signers.map((signer) => ({ value: signer.key, label: `${signer.name} (${signer.stepName})` }))}
                value={forSigner?.key ?? ''}
                onChange={(event) => editor.setForKey(event.currentTarget.value)}
              />
            ) : (
              <Text size="sm" c="dimmed">
                {t('tagEditor.noSigners')}
              </Text>
            )}
            <Legend signers={signers} />
          </Stack>
          <TagPalette armed={stampArmed ? null : (state.armed?.type ?? null)} onArm={(type) => editor.arm(type ? { type } : null)} />
          <RubberStampTagButton armed={stampArmed} onArm={(on) => editor.arm(on ? { type: 'image', init: { subType: RUBBER_STAMP_SUB_TYPE } } : null)} />
          <Button variant="default" size="xs" onClick={() => editor.setPickerOpened(true)}>
            {t('tagEditor.actions.smartTags')}
          </Button>
          <AnchorFinder editor={editor} />
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="properties">
        {selected ? (
          <TagProperties
            tag={selected}
            page={pages[selected.pageNumber - 1] ?? pages[0]!}
            signers={signers}
            onChange={(next: Tag) => editor.update(next)}
            onDelete={() => editor.remove(selected)}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('tagEditor.selectHint')}
          </Text>
        )}
      </Tabs.Panel>
    </Tabs>
  );
}

function Legend({ signers }: { readonly signers: readonly SignerOption[] }) {
  const { t } = useTranslation();
  const id = useId();
  const items: { key: string; colour: string; label: string }[] = [
    ...signers.map((signer) => ({ key: signer.key, colour: `var(--mantine-color-${signerColour(signers, signer)}-6)`, label: signer.name })),
    { key: 'selected', colour: 'var(--mantine-primary-color-filled)', label: t('tagEditor.colours.selected') },
    { key: 'invalid', colour: 'var(--mantine-color-red-7)', label: t('tagEditor.colours.invalid') },
    { key: 'remaining', colour: `var(--mantine-color-${UNASSIGNED_COLOUR}-6)`, label: t('tagEditor.colours.remaining') },
  ];
  return (
    <Box>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" id={id}>
        {t('tagEditor.legend')}
      </Text>
      <Group component="ul" gap="xs" m={0} p={0} mt={4} style={{ listStyle: 'none' }} aria-labelledby={id}>
        {items.map((item) => (
          <Group component="li" key={item.key} gap={4} wrap="nowrap">
            <ColorSwatch color={item.colour} size={12} withShadow={false} />
            <Text size="xs">{item.label}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}

/**
 * The rubber-stamp field (issue 8), offered while the tenant has rubber stamps on; the signer
 * fills it with one of their stamps when they sign. A component of its own so that the tenant's
 * settings arriving re-render this button only, not every page of the editor.
 */
function RubberStampTagButton({ armed, onArm }: { readonly armed: boolean; readonly onArm: (on: boolean) => void }) {
  const { t } = useTranslation();
  if (!useCan('rubberStamp.manage')) return null;
  return (
    <Button variant={armed ? 'filled' : 'light'} size="compact-sm" aria-pressed={armed} justify="flex-start" onClick={() => onArm(!armed)}>
      {t('rubberStamps.chooser.stampTag')}
    </Button>
  );
}
