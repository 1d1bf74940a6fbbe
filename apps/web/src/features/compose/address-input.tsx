import {
  Autocomplete,
} from '@mantine/core';
import {
  fullName,
} from '@pakt/domain';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDirectorySearch } from '../../api/tenant-queries';

/**
 * An address field with suggestions from the tenant's directory once DIRECTORY_SEARCH_MIN_LENGTH
 * characters are typed, asked DIRECTORY_SEARCH_DEBOUNCE_MS after the last keystroke.
 */
export function AddressInput({
  label,
  value = '',
  error,
  onChange,
  onFocus,
  onBlur,
  onPick,
  onEnter,
  rightSection,
  required,
}: {
  readonly label: string;
  // value, error, onFocus and onBlur come from the compose form (`form.getInputProps(path)`), whose
  // props have them optional; a controlled form always gives the value.
  readonly value?: string;
  readonly error?: ReactNode;
  readonly onChange: (value: string) => void;
  readonly onFocus?: () => void;
  readonly onBlur?: () => void;
  readonly onPick: (email: string) => void;
  readonly onEnter?: () => void;
  readonly rightSection?: ReactNode;
  readonly required?: boolean;
}) {
  const { t } = useTranslation();
  // A list of addresses (a;b) is not a name to look up.
  const directory = useDirectorySearch(value, { accepts: (text) => !text.includes(';') });
  const users = directory.users;
  // Autocomplete writes the chosen option's label into the field right after onOptionSubmit; the
  // pick has been handled by then, so that write is skipped.
  const picked = useRef(false);
  const data = users.map((user) => ({
    value: user.email,
    label: [fullName(user), user.email].filter(Boolean).join(' · '),
  }));
  return (
    <Autocomplete
      label={label}
      required={required}
      placeholder={t('workflows.form.emailExample')}
      inputMode="email"
      autoComplete="off"
      value={value}
      data={data}
      filter={({ options }) => options}
      // Suggestions are a convenience: when the directory cannot answer, a full address still works.
      description={directory.failed ? t('compose.workflow.directoryFailed') : undefined}
      error={error}
      onFocus={onFocus}
      onBlur={onBlur}
      onChange={(text) => {
        if (picked.current) {
          picked.current = false;
          return;
        }
        onChange(text);
      }}
      onOptionSubmit={(email) => {
        picked.current = true;
        queueMicrotask(() => (picked.current = false));
        onPick(email);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || !onEnter) return;
        event.preventDefault();
        onEnter();
      }}
      rightSectionWidth={rightSection ? 88 : undefined}
      rightSectionPointerEvents="all"
      rightSection={rightSection}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
