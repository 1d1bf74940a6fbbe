import { ActionIcon, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { Tag } from '@pakt/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from '../../ui/icons';
import { commitOnEnter } from './draft-input';
import { addSelectOption, SELECT_OPTIONS_MAX_CHARS, selectOptionsOf, withSelectOptions, type SelectOptionProblem } from './select-options';

const OPTION_MESSAGES = {
  blank: 'tagPanel.options.blank',
  duplicate: 'tagPanel.options.duplicate',
  tooLong: 'tagPanel.options.tooLong',
} as const satisfies Record<SelectOptionProblem, string>;

/** The choices of a select tag (stored as select-options.ts describes). */
export function SelectOptionsEditor({ tag, onChange }: { readonly tag: Tag; readonly onChange: (next: Tag) => void }) {
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
