import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { TAG_PALETTE, TAG_PALETTE_GROUPS, TagType } from '@pakt/domain';
import { useId, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The drag-and-drop data type of a palette item; its data is the tag type. */
export const TAG_DRAG_TYPE = 'application/x-pakt-tag-type';

/** The tag type a drag from the palette carries, if it is one. */
export function draggedTagType(event: DragEvent): TagType | null {
  if (!event.dataTransfer.types.includes(TAG_DRAG_TYPE)) return null;
  const parsed = TagType.safeParse(event.dataTransfer.getData(TAG_DRAG_TYPE));
  return parsed.success ? parsed.data : null;
}

/**
 * The 23 tag types in their palette groups (domain's TAG_PALETTE). A click arms a type for the
 * next click on a page (a second click disarms it); dragging an item onto a page places it
 * where it is dropped.
 */
export function TagPalette({ armed, onArm }: { readonly armed: TagType | null; readonly onArm: (type: TagType | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Stack gap="sm" role="group" aria-labelledby={`${id}-heading`}>
      <Text fw={600} size="sm" id={`${id}-heading`}>
        {t('tagEditor.palette.heading')}
      </Text>
      {TAG_PALETTE_GROUPS.map((group) => (
        <Stack key={group} gap={6} role="group" aria-labelledby={`${id}-${group}`}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" id={`${id}-${group}`}>
            {t(`tagEditor.palette.groups.${group}`)}
          </Text>
          <SimpleGrid cols={{ base: 2, xs: 3, md: 2 }} spacing={6} verticalSpacing={6}>
            {TAG_PALETTE[group].map((type) => (
              <Button
                key={type}
                size="compact-sm"
                variant={armed === type ? 'filled' : 'light'}
                aria-pressed={armed === type}
                data-tag-type={type}
                draggable
                onDragStart={(event) => {
                  event.dataTransfer.setData(TAG_DRAG_TYPE, type);
                  event.dataTransfer.effectAllowed = 'copy';
                }}
                onClick={() => onArm(armed === type ? null : type)}
                justify="flex-start"
                h="auto"
                mih={28}
                py={4}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'start', lineHeight: 1.2 } }}
              >
                {t(`tagEditor.types.${type}`)}
              </Button>
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
