import { List, Text } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, ResponseCode, type PasswordConfig } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';

/** The rules the server may name in a -16 answer's issues (the form's own rules plus history). */
export const SERVER_PASSWORD_RULES = ['minLength', 'maxLength', 'uppercase', 'lowercase', 'digit', 'special', 'history'] as const;
export type ServerPasswordRule = (typeof SERVER_PASSWORD_RULES)[number];

export interface PasswordRefusal {
  /** Rules the new password breaks, by the server's word (-16 passwordInvalid). */
  readonly rules: readonly ServerPasswordRule[];
  /** The confirmation does not match (-6 passwordMissMatch). */
  readonly mismatch: boolean;
}

/** Reads a refused password out of an error, or null when the refusal is about something else. */
export function passwordRefusal(error: unknown): PasswordRefusal | null {
  if (!(error instanceof ApiError)) return null;
  const messages = (error.issues ?? []).map((issue) => issue.message);
  if (error.code === ResponseCode.INVALID_PASSWORD.code) {
    const rules = SERVER_PASSWORD_RULES.filter((rule) => messages.includes(rule));
    return { rules, mismatch: false };
  }
  if (error.code === ResponseCode.INVALID_INPUT.code && messages.includes('passwordMissMatch')) {
    return { rules: [], mismatch: true };
  }
  return null;
}

/** The server's reasons, one line per rule, in the words of the live rule list. */
export function PasswordIssues({ rules, config }: { readonly rules: readonly ServerPasswordRule[]; readonly config: PasswordConfig }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm">{t('passwordInvalid')}</Text>
      {rules.length > 0 && (
        <List size="sm" mt={4} withPadding>
          {rules.map((rule) => (
            <List.Item key={rule} data-issue={rule}>
              {rule === 'history'
                ? t('passwordIssues.history')
                : t('passwordIssues.needs', {
                    rule: t(`passwordRules.${rule}`, { count: rule === 'minLength' ? config.minLength : PASSWORD_MAX_LENGTH }),
                  })}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
