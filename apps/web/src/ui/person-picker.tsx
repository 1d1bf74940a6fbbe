import { Autocomplete, Pill, Stack } from '@mantine/core';
import { displayName } from '@pakt/domain';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDirectorySearch } from '../api/tenant-queries';

export interface PickedPerson {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
}

/**
 * People of the tenant picked one by one from the directory, as compose's recipient field finds
 * them: suggestions once DIRECTORY_SEARCH_MIN_LENGTH characters are typed, asked
 * DIRECTORY_SEARCH_DEBOUNCE_MS after the last keystroke. The chosen ones show as removable pills;
 * `exclude` (a group's members) never shows up among the suggestions.
 */
export function PersonPicker({
  label,
  chosen,
  onChange,
  exclude,
  disabled,
}: {
  readonly label: string;
  readonly chosen: readonly PickedPerson[];
  readonly onChange: (chosen: PickedPerson[]) => void;
  readonly exclude?: ReadonlySet<string>;
  readonly disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const directory = useDirectorySearch(text);
  const taken = new Set([...(exclude ?? []), ...chosen.map((person) => person.userId)]);
  const people = directory.users
    .filter((user) => !taken.has(user.userId))
    .map((user) => ({ userId: user.userId, name: displayName(user), email: user.email }));
  const data = people.map((person) => ({ value: person.userId, label: `${person.name} · ${person.email}` }));
  // Autocomplete writes the chosen option's label into the field right after onOptionSubmit; the
  // pick has been handled by then and the field is to be empty for the next person.
  const picked = useRef(false);

  let description: string = t('groups.picker.hint');
  if (directory.failed) description = t('groups.picker.failed');
  else if (directory.answered && data.length === 0) description = t('groups.picker.noMatch');

  return (
    <Stack gap="xs">
      <Autocomplete
        label={label}
        placeholder={t('groups.picker.placeholder')}
        description={description}
        value={text}
        data={data}
        // The options are already what matches; Mantine's own filter would drop directory hits by their address.
        filter={({ options }) => options}
        autoComplete="off"
        disabled={disabled}
        onChange={(value) => {
          if (picked.current) {
            picked.current = false;
            return;
          }
          setText(value);
        }}
        onOptionSubmit={(userId) => {
          const person = people.find((candidate) => candidate.userId === userId);
          picked.current = true;
          queueMicrotask(() => (picked.current = false));
          setText('');
          if (person) onChange([...chosen, person]);
        }}
        comboboxProps={{ withinPortal: true }}
      />
      {chosen.length > 0 && (
        <Pill.Group aria-label={t('groups.picker.chosen')} role="list">
          {chosen.map((person) => (
            <Pill
              key={person.userId}
              role="listitem"
              size="md"
              withRemoveButton={!disabled}
              title={person.email}
              onRemove={() => onChange(chosen.filter((other) => other.userId !== person.userId))}
              removeButtonProps={{ 'aria-label': t('groups.picker.remove', { name: person.name }) }}
            >
              {person.name}
            </Pill>
          ))}
        </Pill.Group>
      )}
    </Stack>
  );
}
