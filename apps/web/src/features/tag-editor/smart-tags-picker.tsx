import { Modal, NavLink, Stack, Text, TextInput, Title } from '@mantine/core';
import { groupSmartFields, SMART_TAG_FIELDS, searchSmartFields, type SmartTagField } from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SmartTagsPickerProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onPick: (field: SmartTagField) => void;
}

/**
 * The smart-tags picker dialog of spec §2: a searchable list of the data fields a non-printed tag
 * can be filled from, grouped (ePak, signer, document). Picking one closes the dialog.
 */
export function SmartTagsPicker({ opened, onClose, onPick }: SmartTagsPickerProps) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const [query, setQuery] = useState('');
  // Each labelKey is in the bundles (smart-tags-picker.test.tsx checks); the cast only widens.
  const label = (field: Pick<SmartTagField, 'labelKey'>) => t(field.labelKey as ParseKeys);
  // The labels are searched in the language shown, as well as the keys.
  const groups = groupSmartFields(searchSmartFields(SMART_TAG_FIELDS, query, (labelKey) => label({ labelKey })));

  const close = () => {
    // Each opening starts from the whole list.
    setQuery('');
    onClose();
  };

  const pick = (field: SmartTagField) => {
    onPick(field);
    close();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('tagPanel.smartTags.title')} closeButtonProps={{ 'aria-label': t('tagPanel.smartTags.close') }}>
      <Stack gap="md">
        <TextInput
          label={t('tagPanel.smartTags.search')}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          data-autofocus
        />
        {groups.length === 0 ? (
          <Text size="sm" c="dimmed" role="status">
            {t('tagPanel.smartTags.empty', { query: query.trim() })}
          </Text>
        ) : (
          groups.map(({ group, fields }) => (
            <Stack key={group} gap={4} component="section" aria-labelledby={`${idPrefix}-${group}`}>
              <Title order={3} size="h6" c="dimmed" tt="uppercase" id={`${idPrefix}-${group}`}>
                {t(`tagPanel.smartGroups.${group}`)}
              </Title>
              <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {fields.map((field) => (
                  <li key={field.key}>
                    <NavLink
                      component="button"
                      type="button"
                      label={label(field)}
                      description={field.key}
                      data-key={field.key}
                      onClick={() => pick(field)}
                      styles={{ description: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    />
                  </li>
                ))}
              </Stack>
            </Stack>
          ))
        )}
      </Stack>
    </Modal>
  );
}
