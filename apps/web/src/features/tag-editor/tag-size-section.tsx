import { Divider, Group, NumberInput, Text } from '@mantine/core';
import { resizeTagAsShown, shownSize, tagSizeLimits, type PageGeometry, type Tag } from '@pakt/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commitOnEnter, numberOf, useDraft } from './draft-input';
import { problemMessage } from './problem-message';

/**
 * The tag's width and height. The inputs never clamp on their own: an out-of-range size must
 * reach the rules, which refuse it with the limits, instead of quietly becoming another size.
 */
export function TagSizeSection({ tag, page, onChange }: { readonly tag: Tag; readonly page: PageGeometry; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const limits = tagSizeLimits(tag);
  // Sizes are edited as shown (geometry.ts shownSize): on a page turned a quarter the page-frame
  // sides are swapped, and the limits in the hint mean the shown size too.
  const shown = shownSize({ width: tag.blockWidth, height: tag.blockHeight }, page.rotate);
  const [width, setWidth] = useDraft<number | string>(shown.width);
  const [height, setHeight] = useDraft<number | string>(shown.height);
  const [sizeError, setSizeError] = useState<string | null>(null);
  const commitSize = () => {
    const next = { width: numberOf(width), height: numberOf(height) };
    if (next.width === shown.width && next.height === shown.height) return;
    // A blank or unreadable number is no size at all: the rules answer "width and height must be set".
    const size = { width: Number.isFinite(next.width) ? next.width : 0, height: Number.isFinite(next.height) ? next.height : 0 };
    const edit = resizeTagAsShown(tag, size, page);
    if (edit.ok) {
      setSizeError(null);
      onChange(edit.tag);
      return;
    }
    // Refused (spec §3: rolled back): the inputs go back to the size the tag still has.
    setWidth(shown.width);
    setHeight(shown.height);
    setSizeError(edit.problems.map((problem) => problemMessage(t, problem)).join(' '));
  };

  return (
    <>
      <Divider label={t('tagPanel.size')} labelPosition="left" />
      <Group gap="xs" grow align="flex-start">
        <NumberInput
          size="xs"
          label={t('tagPanel.width')}
          value={width}
          min={0}
          decimalScale={2}
          clampBehavior="none"
          onChange={setWidth}
          onBlur={commitSize}
          onKeyDown={commitOnEnter(commitSize)}
        />
        <NumberInput
          size="xs"
          label={t('tagPanel.height')}
          value={height}
          min={0}
          decimalScale={2}
          clampBehavior="none"
          onChange={setHeight}
          onBlur={commitSize}
          onKeyDown={commitOnEnter(commitSize)}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('tagPanel.sizeHint', { minWidth: limits.minWidth, minHeight: limits.minHeight, maxWidth: limits.maxWidth, maxHeight: limits.maxHeight })}
      </Text>
      {sizeError && (
        <Text size="xs" c="red" role="alert">
          {sizeError}
        </Text>
      )}
    </>
  );
}
