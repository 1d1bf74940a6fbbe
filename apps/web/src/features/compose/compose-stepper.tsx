import { Badge, Box, Group, Loader, Stack, Stepper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangleIcon, CheckIcon } from '../../ui/icons';

export const COMPOSE_STEPS = ['documents', 'recipients', 'fields', 'review'] as const;
export type ComposeStepName = (typeof COMPOSE_STEPS)[number];

/**
 * Where the draft stands, said beside the steps: nothing saved yet (a new ePak is saved on
 * leaving the recipients step), saving (or about to), saved, or not saved and why.
 */
export type SaveStatusState = 'new' | 'saving' | 'saved' | 'failed' | 'invalid';

/** Below this width the steps show their numbers only, and the current one's name under them. */
const PHONE_QUERY = '(max-width: 36em)';

export function SaveStatus({ state }: { readonly state: SaveStatusState }) {
  const { t } = useTranslation();
  const look = {
    new: { color: 'gray', icon: null },
    saving: { color: 'blue', icon: <Loader size={10} color="blue" /> },
    saved: { color: 'teal', icon: <CheckIcon size={12} /> },
    failed: { color: 'red', icon: <AlertTriangleIcon size={12} /> },
    invalid: { color: 'orange', icon: <AlertTriangleIcon size={12} /> },
  }[state];
  return (
    <Badge variant="light" color={look.color} tt="none" leftSection={look.icon} role="status" aria-live="polite" data-testid="compose-save-status" data-state={state}>
      {t(`compose.flow.status.${state}`)}
    </Badge>
  );
}

/**
 * The four steps of compose (documents, recipients and steps, fields, review and send) with the
 * content of the active one. `reachable` says which steps may be opened from the step list: before
 * the draft exists, only the first two. On a phone the labels give way to numbers, with the
 * current step's name under them; each step keeps its name for screen readers either way.
 */
export function ComposeStepper({
  active,
  reachable,
  onStepClick,
  status,
  leaving,
  content,
}: {
  readonly active: number;
  readonly reachable: (step: number) => boolean;
  readonly onStepClick: (step: number) => void;
  readonly status: SaveStatusState;
  /** The step being left while its changes are saved: its icon spins. */
  readonly leaving?: number | null;
  readonly content: ReactNode;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const label = (name: ComposeStepName) => t(`compose.flow.steps.${name}.label`);
  const current = COMPOSE_STEPS[active] ?? 'documents';
  return (
    <Stack gap="sm">
      {/* The save status sits above the steps, not beside them: beside, it pushed the fourth step
          onto a second row at 1280 px. */}
      {!phone && (
        <Group justify="flex-end">
          <SaveStatus state={status} />
        </Group>
      )}
      <Box component="nav" aria-label={t('compose.flow.label')}>
        <Stepper active={active} onStepClick={onStepClick} allowNextStepsSelect={false} size="sm" iconSize={phone ? 28 : 34}>
          {COMPOSE_STEPS.map((name, index) => (
            <Stepper.Step
              key={name}
              label={phone ? undefined : label(name)}
              description={phone ? undefined : t(`compose.flow.steps.${name}.description`)}
              aria-label={t('compose.flow.stepOf', { number: index + 1, count: COMPOSE_STEPS.length, name: label(name) })}
              aria-current={index === active ? 'step' : undefined}
              aria-disabled={index !== active && !reachable(index) ? true : undefined}
              allowStepSelect={index !== active && reachable(index)}
              loading={leaving === index}
              data-testid={`compose-step-${name}`}
            />
          ))}
        </Stepper>
      </Box>
      {phone && (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" fw={600}>
            {t('compose.flow.stepOf', { number: active + 1, count: COMPOSE_STEPS.length, name: label(current) })}
          </Text>
          <SaveStatus state={status} />
        </Group>
      )}
      <div data-testid="compose-step-content" data-step={current}>
        {content}
      </div>
    </Stack>
  );
}
