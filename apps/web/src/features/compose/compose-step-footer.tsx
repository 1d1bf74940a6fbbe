import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface NextAction {
  readonly label: string;
  /** A submit button: the step's form (Enter in a field) goes on as the button does. */
  readonly submit?: boolean;
  readonly onClick?: () => void;
  readonly loading?: boolean;
}

/** Under each step: back to the previous one, and on to the next (its name on the button). */
export function StepFooter({ onBack, next, children }: { readonly onBack?: (() => void) | undefined; readonly next?: NextAction | undefined; readonly children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" gap="sm" wrap="wrap-reverse">
      {onBack ? (
        <Button variant="default" onClick={onBack}>
          {t('compose.flow.back')}
        </Button>
      ) : (
        <span />
      )}
      <Group gap="sm" wrap="wrap" justify="flex-end">
        {children}
        {next && (
          <Button type={next.submit ? 'submit' : 'button'} loading={next.loading} onClick={next.onClick}>
            {next.label}
          </Button>
        )}
      </Group>
    </Group>
  );
}
