import { Switch, Text } from '@mantine/core';
import { SIGNING_STATE_TYPES, type WorkflowStateType } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import type { ComposeRecipient, ComposeStep } from './compose-draft';
import type { ComposeFormState } from './use-compose-form';

/** Only signers confirm a code (a reviewer never is asked): is this step a signing one? */
function isSigningStep(compose: ComposeFormState, step: ComposeStep): boolean {
  const type = compose.states.data?.states.find((state) => state.workflowStateId === step.workflowStateId)?.type;
  return type !== undefined && (SIGNING_STATE_TYPES as readonly WorkflowStateType[]).includes(type);
}

/**
 * Signer verification per recipient (spec §9), when the tenant's mode lets the composer choose
 * (DefaultSelectiveON/OFF): a switch starting at the mode's default. Untouched, nothing is sent
 * and the server applies that default.
 */
export function RecipientVerifySwitch({
  compose,
  step,
  stepIndex,
  recipient,
  recipientIndex,
}: {
  readonly compose: ComposeFormState;
  readonly step: ComposeStep;
  readonly stepIndex: number;
  readonly recipient: ComposeRecipient;
  readonly recipientIndex: number;
}) {
  const { t } = useTranslation();
  const { verification } = compose;
  if (!verification?.shown || !isSigningStep(compose, step)) return null;
  const who = recipient.email || recipient.label || '';
  return (
    <Switch
      size="xs"
      mt={6}
      label={t('compose.verification.switch')}
      aria-label={t('compose.verification.switchFor', { name: who })}
      checked={recipient.verify ?? verification.initial}
      onChange={(event) => compose.form.setFieldValue(`steps.${stepIndex}.recipients.${recipientIndex}.verify`, event.currentTarget.checked)}
      data-testid="compose-recipient-verify"
    />
  );
}

/** When the tenant decides for everyone (ON or OFF), a short note under a signing step instead of switches. */
export function StepVerificationNote({ compose, step }: { readonly compose: ComposeFormState; readonly step: ComposeStep }) {
  const { t } = useTranslation();
  const { verification } = compose;
  if (!verification || verification.shown || !isSigningStep(compose, step)) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="compose-verification-note">
      {t(verification.required ? 'compose.verification.always' : 'compose.verification.never')}
    </Text>
  );
}
