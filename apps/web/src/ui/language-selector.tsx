import { LanguageCode } from '@pakt/domain';
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../i18n/i18n';
import { useLanguageOptions } from '../i18n/use-languages';
import { GlobeIcon } from './icons';

/** A native select: on phones it opens the platform picker, which beats any custom dropdown. */
export function LanguageSelector() {
  const { t } = useTranslation();
  const options = useLanguageOptions();
  // Subscribing through useTranslation re-renders this on every language change.
  const value = currentLanguage();

  return (
    <NativeSelect
      aria-label={t('shell.language')}
      title={t('shell.language')}
      size="sm"
      w={{ base: 128, xs: 140 }}
      leftSection={<GlobeIcon size={16} />}
      value={value}
      data={options.map((option) => ({ value: option.code, label: option.nativeName }))}
      onChange={(event) => {
        const parsed = LanguageCode.safeParse(event.currentTarget.value);
        if (parsed.success) void chooseLanguage(parsed.data);
      }}
    />
  );
}
