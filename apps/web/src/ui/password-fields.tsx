import { Stack } from '@mantine/core';
import { DEFAULT_PASSWORD_CONFIG, passwordProblems, type PasswordConfig } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './password-field';
import { PasswordRules } from './password-rules';

export interface NewPassword {
  readonly password: string;
  readonly confirm: string;
}

export type NewPasswordProblem = 'passwordInvalid' | 'passwordMissMatch';

/** Spec section 5: the rules of the password configuration, and the confirmation must match. */
export function newPasswordProblems(value: NewPassword, config: PasswordConfig = DEFAULT_PASSWORD_CONFIG): {
  password?: NewPasswordProblem;
  confirm?: NewPasswordProblem;
} {
  return {
    ...(passwordProblems(value.password, config).length > 0 ? { password: 'passwordInvalid' as const } : {}),
    ...(value.confirm !== value.password ? { confirm: 'passwordMissMatch' as const } : {}),
  };
}

/**
 * A new password with its confirmation and the live rule list. Errors appear only once the form was
 * submitted (`showErrors`), so nobody is scolded for a password they have not finished typing.
 */
export function NewPasswordFields({
  value,
  onChange,
  showErrors,
  config = DEFAULT_PASSWORD_CONFIG,
  label,
  serverProblem,
  autoFocus = false,
}: {
  /** Focus the password when the form opens in a dialog (Mantine's focus trap looks for data-autofocus). */
  readonly autoFocus?: boolean;
  /** The password field's label; "Password" unless the form has an old one as well. */
  readonly label?: string;
  /** What the server said about the password or its confirmation, shown under the field. */
  readonly serverProblem?: { password?: string; confirm?: string };
  readonly value: NewPassword;
  readonly onChange: (value: NewPassword) => void;
  readonly showErrors: boolean;
  readonly config?: PasswordConfig;
}) {
  const { t } = useTranslation();
  const rulesId = useId();
  const problems = showErrors ? newPasswordProblems(value, config) : {};
  return (
    <Stack gap="md">
      <PasswordField
        label={label ?? t('common.password')}
        autoComplete="new-password"
        required
        value={value.password}
        error={(problems.password && t(problems.password)) ?? serverProblem?.password}
        aria-describedby={rulesId}
        data-autofocus={autoFocus || undefined}
        onChange={(event) => onChange({ ...value, password: event.currentTarget.value })}
      />
      <PasswordRules id={rulesId} password={value.password} config={config} />
      <PasswordField
        label={t('common.confirmPassword')}
        autoComplete="new-password"
        required
        value={value.confirm}
        error={(problems.confirm && t(problems.confirm)) ?? serverProblem?.confirm}
        onChange={(event) => onChange({ ...value, confirm: event.currentTarget.value })}
      />
    </Stack>
  );
}
