import { Alert, Text } from '@mantine/core';
import type { VerificationReport } from '@pakt/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangleIcon, BanIcon, CheckIcon, CircleIcon, HelpIcon } from '../../ui/icons';

type Verdict = VerificationReport['verdict'];

/** Green only for valid: "changed" is intact signatures over a file that is no longer what was signed, so it warns. */
const LOOK: Record<Verdict, { readonly color: string; readonly icon: ReactNode }> = {
  valid: { color: 'teal', icon: <CheckIcon size={22} /> },
  changed: { color: 'orange', icon: <AlertTriangleIcon size={22} /> },
  invalid: { color: 'red', icon: <BanIcon size={22} /> },
  unsigned: { color: 'gray', icon: <CircleIcon size={22} /> },
  unknown: { color: 'yellow', icon: <HelpIcon size={22} /> },
};

/** The answer first, in one line a stranger can act on; the details follow in the report. */
export function VerdictBanner({ verdict }: { readonly verdict: Verdict }) {
  const { t } = useTranslation();
  const look = LOOK[verdict];
  return (
    <Alert
      color={look.color}
      variant="light"
      // A status, not an alert: the report is what was asked for, whatever it says.
      role="status"
      icon={look.icon}
      title={
        <Text component="span" fw={700} fz="lg">
          {t(`verify.verdict.${verdict}.title`)}
        </Text>
      }
      data-testid="verify-verdict"
      data-verdict={verdict}
      style={{ borderInlineStart: `4px solid var(--mantine-color-${look.color}-6)` }}
    >
      <Text size="sm">{t(`verify.verdict.${verdict}.body`)}</Text>
    </Alert>
  );
}
