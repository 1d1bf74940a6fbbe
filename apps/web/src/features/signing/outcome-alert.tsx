import { Alert, Text } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../ui/icons';
import type { Outcome } from './action-panel';
import type { WhyNot } from './sign-errors';

/** What became of the person's action: done, and whether the ePak moved on or is complete. */
export function OutcomeAlert({ outcome, epak }: { readonly outcome: Outcome; readonly epak: EpakDetail }) {
  const { t } = useTranslation();
  const completed = outcome.epakStatus === 'Completed' || epak.status === 'Completed';
  const movedOn = epak.currentStep !== outcome.stepOrder;
  const key =
    outcome.kind === 'rejected'
      ? 'signing.outcome.rejected'
      : !outcome.settled && !completed
        ? 'signing.outcome.updating'
        : completed
        ? outcome.kind === 'signed'
          ? 'signing.outcome.signedCompleted'
          : 'signing.outcome.reviewedCompleted'
        : movedOn
          ? outcome.kind === 'signed'
            ? 'signing.outcome.signedNext'
            : 'signing.outcome.reviewedNext'
          : outcome.kind === 'signed'
            ? 'signing.outcome.signedWaiting'
            : 'signing.outcome.reviewedWaiting';
  return (
    <Alert color={outcome.kind === 'rejected' ? 'red' : 'teal'} variant="light" role="status" icon={outcome.kind === 'rejected' ? undefined : <CheckIcon size={18} />} data-testid="signing-outcome">
      <Text size="sm" fw={500}>
        {t(key)}
      </Text>
    </Alert>
  );
}


/** Why the person cannot act on the ePak now (or that they are hosting an in-person signer). */
export function WhyNotAlert({ why }: { readonly why: WhyNot | 'hostInPerson' }) {
  const { t } = useTranslation();
  const color = why === 'rejected' || why === 'expired' || why === 'stopped' ? 'red' : why === 'completed' || why === 'signed' || why === 'reviewed' ? 'teal' : 'blue';
  return (
    <Alert color={color} variant="light" role="status" data-testid="why-not">
      {t(`signing.whyNot.${why}`)}
    </Alert>
  );
}
