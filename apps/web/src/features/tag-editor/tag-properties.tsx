import {
  ActionIcon,
  Button,
  Divider,
  Group,
  NativeSelect,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  DEFAULT_FONT_FAMILY,
  DEFAULT_TAG_FONT_SIZE,
  FONT_STYLES,
  FONT_WEIGHTS,
  fontSizeProblem,
  isRubberStamp,
  resizeTagAsShown,
  shownSize,
  SUPPORTED_FONTS,
  TAG_CATEGORIES,
  TAG_ROLES,
  tagSizeLimits,
  TagCategory,
  TagRole,
  FontStyle,
  FontWeight,
  type PageGeometry,
  type Tag,
  type TagType,
} from '@pakt/domain';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon, XIcon } from '../../ui/icons';
import { ImageTagUpload, imageTagMaxKb } from './image-tag-upload';
import { LetterheadUpload } from './letterhead-upload';
import { problemMessage } from './problem-message';
import { QrEditor } from './qr-editor';
import { addSelectOption, SELECT_OPTIONS_MAX_CHARS, selectOptionsOf, withSelectOptions, type SelectOptionProblem } from './select-options';
import { assignTo, signerOfTag, type SignerOption } from './signers';

/**
 * Types drawn as a picture, a code or a file rather than as text, so a font means nothing for
 * them. A composite's font belongs to its members, each of which has its own panel.
 */
export const FONTLESS_TAG_TYPES = ['signature', 'image', 'letterHead', 'qrcode', 'attachment', 'selfSignAttachment', 'composite'] as const satisfies readonly TagType[];

export function hasFont(type: TagType): boolean {
  return !(FONTLESS_TAG_TYPES as readonly TagType[]).includes(type);
}

export interface TagPropertiesProps {
  readonly tag: Tag;
  /** The page the tag is on: a resize must keep the tag inside it. */
  readonly page: PageGeometry;
  readonly signers: readonly SignerOption[];
  readonly onChange: (next: Tag) => void;
  /** Deletes at once: the editor's undo is the way back. */
  readonly onDelete: () => void;
}

/**
 * The properties panel of the selected tag (spec §2 tags palette): who fills it in, its size and
 * font, whether it is required, and what only some types have (QR entries, letterhead or image
 * file, the options of a select). Every edit goes out through onChange as a whole new tag; the
 * editor owns the tags and their undo.
 */
export function TagProperties(props: TagPropertiesProps) {
  // Another tag starts afresh: its own drafts, no refusal left over from the last one.
  return <TagPropertiesPanel key={props.tag.uuid} {...props} />;
}

/**
 * What an input shows while being typed in, apart from the committed value: it follows the
 * committed value whenever that changes (an undo, a drag on the page) and can be put back to it.
 */
function useDraft<T>(committed: T): readonly [T, (draft: T) => void] {
  const [state, setState] = useState({ committed, draft: committed });
  if (!Object.is(state.committed, committed)) {
    // Adjusting state while rendering (React's documented pattern) so no stale draft is ever shown.
    setState({ committed, draft: committed });
    return [committed, (draft: T) => setState((current) => ({ ...current, draft }))] as const;
  }
  return [state.draft, (draft: T) => setState((current) => ({ ...current, draft }))] as const;
}

/** Enter commits an input, as leaving it does; the panel may sit in a form, which must not submit. */
function commitOnEnter(commit: () => void) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    commit();
  };
}

/** A number input's text as a number; NaN when there is none. */
const numberOf = (value: number | string): number => (typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value));

function TagPropertiesPanel({ tag, page, signers, onChange, onDelete }: TagPropertiesProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const limits = tagSizeLimits(tag);

  // --- label
  const [label, setLabel] = useDraft(tag.label ?? '');
  const commitLabel = () => {
    const next = label.trim();
    if (next !== (tag.label ?? '')) onChange({ ...tag, label: next });
    setLabel(next);
  };

  // --- signer
  const assigned = signerOfTag(signers, tag);
  // Someone not among this ePak's signers (a recipient removed since): shown, not silently dropped.
  const UNKNOWN = '?';
  const signerData = [
    { value: '', label: t('tagPanel.noSigner') },
    ...(tag.userEmail && !assigned ? [{ value: UNKNOWN, label: tag.userEmail, disabled: true }] : []),
    ...signers.map((signer) => ({ value: signer.key, label: t('tagPanel.signerOption', { name: signer.name, step: signer.stepName }) })),
  ];
  const onSigner = (key: string) => {
    const signer = signers.find((candidate) => candidate.key === key);
    if (signer) return onChange({ ...tag, ...assignTo(signer) });
    if (key === '') {
      const { userEmail: _email, userUuid: _uuid, wfsOrderId: _order, ...unassigned } = tag;
      onChange(unassigned);
    }
  };

  // --- size (inputs never clamp on their own: an out-of-range size must reach the rules, which
  // refuse it with the limits, instead of quietly becoming another size)
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

  // --- font
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

  // --- required
  const required = tag.validations?.required?.value ?? false;
  const requiredMessage = tag.validations?.required?.message || t(required ? 'tagPanel.mandatoryMessage' : 'tagPanel.optionalMessage');
  const onRequired = (value: boolean) =>
    onChange({
      ...tag,
      validations: { ...tag.validations, required: { value, message: t(value ? 'tagPanel.mandatoryMessage' : 'tagPanel.optionalMessage') } },
    });

  // --- image tag's upload limit
  const [maxUpload, setMaxUpload] = useDraft<number | string>(imageTagMaxKb(tag));
  const [maxUploadError, setMaxUploadError] = useState(false);
  const commitMaxUpload = () => {
    const kb = numberOf(maxUpload);
    if (kb === imageTagMaxKb(tag)) return setMaxUploadError(false);
    if (!Number.isInteger(kb) || kb < 1) {
      setMaxUpload(imageTagMaxKb(tag));
      setMaxUploadError(true);
      return;
    }
    setMaxUploadError(false);
    onChange({ ...tag, maxUpload: kb });
  };

  return (
    <Stack gap="sm" component="section" aria-label={t('tagPanel.title')}>
      <Title order={3} size="h5" id={headingId}>
        {t('tagPanel.title')}
      </Title>

      {/* The type's name is the palette's, so the two never disagree. */}
      <TextInput size="xs" label={t('tagPanel.type')} value={isRubberStamp(tag) ? t('rubberStamps.chooser.stampTag') : t(`tagEditor.types.${tag.type}`)} readOnly variant="filled" />
      <TextInput
        size="xs"
        label={t('tagPanel.label')}
        value={label}
        maxLength={500}
        onChange={(event) => setLabel(event.currentTarget.value)}
        onBlur={commitLabel}
        onKeyDown={commitOnEnter(commitLabel)}
      />
      <NativeSelect
        size="xs"
        label={t('tagPanel.signer')}
        data={signerData}
        value={assigned?.key ?? (tag.userEmail ? UNKNOWN : '')}
        onChange={(event) => onSigner(event.currentTarget.value)}
      />
      <NativeSelect
        size="xs"
        label={t('tagPanel.role')}
        data={TAG_ROLES.map((role) => ({ value: role, label: t(`tagPanel.roles.${role}`) }))}
        value={tag.tagFor}
        onChange={(event) => {
          const parsed = TagRole.safeParse(event.currentTarget.value);
          if (parsed.success) onChange({ ...tag, tagFor: parsed.data });
        }}
      />
      <Stack gap={4}>
        <Text size="xs" fw={500} component="span" id={`${headingId}-category`}>
          {t('tagPanel.category')}
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby={`${headingId}-category`}
          data={TAG_CATEGORIES.map((category) => ({ value: category, label: t(`tagPanel.categories.${category}`) }))}
          value={tag.category}
          onChange={(value) => {
            const parsed = TagCategory.safeParse(value);
            if (parsed.success) onChange({ ...tag, category: parsed.data });
          }}
        />
      </Stack>

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

      {hasFont(tag.type) && (
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
              <Text size="xs" fw={500} component="span" id={`${headingId}-weight`}>
                {t('tagPanel.fontWeight')}
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby={`${headingId}-weight`}
                data={FONT_WEIGHTS.map((weight) => ({ value: weight, label: t(`tagPanel.fontWeights.${weight}`) }))}
                value={tag.fontWeight ?? 'normal'}
                onChange={(value) => {
                  const parsed = FontWeight.safeParse(value);
                  if (parsed.success) onChange({ ...tag, fontWeight: parsed.data });
                }}
              />
            </Stack>
            <Stack gap={4}>
              <Text size="xs" fw={500} component="span" id={`${headingId}-style`}>
                {t('tagPanel.fontStyle')}
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby={`${headingId}-style`}
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
      )}

      <Divider />
      <Switch
        label={t('tagPanel.required')}
        // Mantine's label element wraps the description too; the name is the label alone.
        aria-label={t('tagPanel.required')}
        description={requiredMessage}
        checked={required}
        onChange={(event) => onRequired(event.currentTarget.checked)}
      />

      {tag.type === 'qrcode' && <QrEditor tag={tag} onChange={onChange} />}
      {tag.type === 'letterHead' && <LetterheadUpload tag={tag} onChange={onChange} />}
      {/* A rubber stamp's picture is the signer's stamp, chosen when they sign: nothing to upload. */}
      {tag.type === 'image' && !isRubberStamp(tag) && (
        <>
          <NumberInput
            size="xs"
            label={t('tagPanel.maxUpload')}
            value={maxUpload}
            min={1}
            allowDecimal={false}
            clampBehavior="none"
            error={maxUploadError ? t('tagPanel.maxUploadInvalid') : null}
            errorProps={{ role: 'alert' }}
            onChange={setMaxUpload}
            onBlur={commitMaxUpload}
            onKeyDown={commitOnEnter(commitMaxUpload)}
          />
          <ImageTagUpload tag={tag} onChange={onChange} />
        </>
      )}
      {(tag.type === 'singleSelect' || tag.type === 'multiSelect') && <SelectOptionsEditor tag={tag} onChange={onChange} />}

      <Divider />
      <Button color="red" variant="light" leftSection={<TrashIcon size={16} />} onClick={onDelete}>
        {t('tagPanel.delete')}
      </Button>
    </Stack>
  );
}

const OPTION_MESSAGES = {
  blank: 'tagPanel.options.blank',
  duplicate: 'tagPanel.options.duplicate',
  tooLong: 'tagPanel.options.tooLong',
} as const satisfies Record<SelectOptionProblem, string>;

/** The choices of a select tag (stored as select-options.ts describes). */
function SelectOptionsEditor({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const options = selectOptionsOf(tag);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<SelectOptionProblem | null>(null);

  const add = () => {
    const added = addSelectOption(options, draft);
    if (!added.ok) return setProblem(added.problem);
    setProblem(null);
    setDraft('');
    onChange(withSelectOptions(tag, added.options));
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h6" id={headingId}>
        {t('tagPanel.options.heading')}
      </Title>
      {options.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('tagPanel.options.none')}
        </Text>
      ) : (
        <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {options.map((option) => (
            <Group key={option} component="li" gap="xs" justify="space-between" wrap="nowrap">
              <Text size="sm" truncate>
                {option}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label={t('tagPanel.options.remove', { option })}
                onClick={() => onChange(withSelectOptions(tag, options.filter((other) => other !== option)))}
              >
                <XIcon size={14} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          size="xs"
          style={{ flex: 1 }}
          label={t('tagPanel.options.new')}
          value={draft}
          error={problem ? t(OPTION_MESSAGES[problem], { max: SELECT_OPTIONS_MAX_CHARS }) : null}
          errorProps={{ role: 'alert' }}
          onChange={(event) => {
            setDraft(event.currentTarget.value);
            setProblem(null);
          }}
          onKeyDown={commitOnEnter(add)}
        />
        <Button size="xs" variant="light" mt={22} onClick={add}>
          {t('tagPanel.options.add')}
        </Button>
      </Group>
    </Stack>
  );
}
