import { List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, passwordProblems, type PasswordConfig, type PasswordRule } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CircleIcon } from './icons';

/** The rules a configuration asks for, in the order passwordProblems reports them. */
export function rulesOf(config: PasswordConfig): PasswordRule[] {
  const rules: PasswordRule[] = ['minLength'];
  if (config.requireUppercase) rules.push('uppercase');
  if (config.requireLowercase) rules.push('lowercase');
  if (config.requireDigit) rules.push('digit');
  if (config.requireSpecial) rules.push('special');
  return rules;
}

/**
 * Live feedback while a password is typed: every rule of the configuration with whether it is met
 * yet. The length cap appears only once it is broken; nobody types 256 characters by accident.
 */
export function PasswordRules({ password, config, id }: { readonly password: string; readonly config: PasswordConfig; readonly id: string }) {
  const { t } = useTranslation();
  const problems = new Set(passwordProblems(password, config));
  const shown = problems.has('maxLength') ? [...rulesOf(config), 'maxLength' as const] : rulesOf(config);
  const count = (rule: PasswordRule) => (rule === 'minLength' ? config.minLength : PASSWORD_MAX_LENGTH);

  return (
    <div id={id}>
      <Text size="sm" fw={500} mb={6}>
        {t('passwordRules.heading')}
      </Text>
      <List spacing={4} size="sm" center>
        {shown.map((rule) => {
          const met = !problems.has(rule);
          return (
            <List.Item
              key={rule}
              data-rule={rule}
              data-met={met}
              c={met ? 'teal' : 'dimmed'}
              icon={
                <ThemeIcon size={18} radius="xl" variant={met ? 'filled' : 'light'} color={met ? 'teal' : 'gray'}>
                  {met ? <CheckIcon size={12} /> : <CircleIcon size={8} />}
                </ThemeIcon>
              }
            >
              {t(`passwordRules.${rule}`, { count: count(rule) })}
              <VisuallyHidden>{` (${t(met ? 'passwordRules.met' : 'passwordRules.notMet')})`}</VisuallyHidden>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
