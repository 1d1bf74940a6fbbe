import { NativeSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { TAG_CATEGORIES, TAG_ROLES, TagCategory, TagRole, type Tag } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { commitOnEnter, useDraft } from './draft-input';
import { assignTo, signerOfTag, type SignerOption } from './signers';
import { tagName } from './tag-names';

// Someone not among this ePak's signers (a recipient removed since): shown, not silently dropped.
const UNKNOWN = '?';

/** The top of the properties panel: the tag's type, its label, who fills it in, their role and its category. */
export function TagBasicsSection({
  tag,
  signers,
  onChange,
}: {
  readonly tag: Tag;
  readonly signers: readonly SignerOption[];
  readonly onChange: (next: Tag) => void;
}) {
  const { t } = useTranslation();
  const id = useId();

  // --- label
  const [label, setLabel] = useDraft(tag.label ?? '');
  const commitLabel = () => {
    const next = label.trim();
    if (next !== (tag.label ?? '')) onChange({ ...tag, label: next });
    setLabel(next);
  };

  // --- signer
  const assigned = signerOfTag(signers, tag);
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

  return (
    <>
      {/* The type's name is the palette's, so the two never disagree. */}
      <TextInput size="xs" label={t('tagPanel.type')} value={tagName(t, tag)} readOnly variant="filled" />
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
        <Text size="xs" fw={500} component="span" id={`${id}-category`}>
          {t('tagPanel.category')}
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby={`${id}-category`}
          data={TAG_CATEGORIES.map((category) => ({ value: category, label: t(`tagPanel.categories.${category}`) }))}
          value={tag.category}
          onChange={(value) => {
            const parsed = TagCategory.safeParse(value);
            if (parsed.success) onChange({ ...tag, category: parsed.data });
          }}
        />
      </Stack>
    </>
  );
}
