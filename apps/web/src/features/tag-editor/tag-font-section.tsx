import { Divider, Group, NativeSelect, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import {
  DEFAULT_FONT_FAMILY,
  DEFAULT_TAG_FONT_SIZE,
  FONT_STYLES,
  FONT_WEIGHTS,
  fontSizeProblem,
  FontStyle,
  FontWeight,
  SUPPORTED_FONTS,
  tagSizeLimits,
  type Tag,
} from '@pakt/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commitOnEnter, numberOf, useDraft } from './draft-input';
import { problemMessage } from './problem-message';

/** The font of a tag drawn as text: its size (within the type's limits), weight, style and family. */
export function TagFontSection({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const limits = tagSizeLimits(tag);
  const [fontSize, setFontSize] = useDraft<number | string>(tag.fontSize ?? DEFAULT_TAG_FONT_SIZE);
  const [fontError, setFontError] = useState<string | null>(null);
  const commitFontSize = () => {
    const size = numberOf(fontSize);
    if (size === (tag.fontSize ?? DEFAULT_TAG_FONT_SIZE)) return;
    if (!Number.isFinite(size)) return setFontSize(tag.fontSize ?? DEFAULT_TAG_FONT_SIZE);
    const next = { ...tag, fontSize: size };
    const problem = fontSizeProblem(next);
    if (problem) {
      setFontSize(tag.fontSize ?? DEFAULT_TAG_FONT_SIZE);
      setFontError(problemMessage(t, problem));
      return;
    }
    setFontError(null);
    onChange(next);
  };
  const fontFamilies = SUPPORTED_FONTS.map((font) => font.name as string);
  // A family from an older document stays choosable rather than silently becoming the default.
  if (tag.fontFamily && !fontFamilies.includes(tag.fontFamily)) fontFamilies.push(tag.fontFamily);

  return (
    <>
      <Divider label={t('tagPanel.font')} labelPosition="left" />
      <NumberInput
        size="xs"
        label={t('tagPanel.fontSize')}
        description={t('tagPanel.fontSizeHint', { minFontSize: limits.minFontSize, maxFontSize: limits.maxFontSize })}
        value={fontSize}
        min={0}
        decimalScale={1}
        clampBehavior="none"
        error={fontError}
        errorProps={{ role: 'alert' }}
        onChange={setFontSize}
        onBlur={commitFontSize}
        onKeyDown={commitOnEnter(commitFontSize)}
      />
      <Group gap="xs" grow align="flex-end">
        <Stack gap={4}>
          <Text size="xs" fw={500} component="span" id={`${id}-weight`}>
            {t('tagPanel.fontWeight')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby={`${id}-weight`}
            data={FONT_WEIGHTS.map((weight) => ({ value: weight, label: t(`tagPanel.fontWeights.${weight}`) }))}
            value={tag.fontWeight ?? 'normal'}
            onChange={(value) => {
              const parsed = FontWeight.safeParse(value);
              if (parsed.success) onChange({ ...tag, fontWeight: parsed.data });
            }}
          />
        </Stack>
        <Stack gap={4}>
          <Text size="xs" fw={500} component="span" id={`${id}-style`}>
            {t('tagPanel.fontStyle')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby={`${id}-style`}
            data={FONT_STYLES.map((style) => ({ value: style, label: t(`tagPanel.fontStyles.${style}`) }))}
            value={tag.fontStyle ?? 'normal'}
            onChange={(value) => {
              const parsed = FontStyle.safeParse(value);
              if (parsed.success) onChange({ ...tag, fontStyle: parsed.data });
            }}
          />
        </Stack>
      </Group>
      <NativeSelect
        size="xs"
        label={t('tagPanel.fontFamily')}
        data={fontFamilies}
        value={tag.fontFamily ?? DEFAULT_FONT_FAMILY}
        onChange={(event) => onChange({ ...tag, fontFamily: event.currentTarget.value })}
      />
    </>
  );
}
