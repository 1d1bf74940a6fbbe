import { displayName } from '@pakt/domain';
import { Button } from '@mantine/core';
import type { EpakDetail, EpakRecipient } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { SidePanel } from '../../ui/side-panel';


/**
 * The in-person signers the host may call up now (spec INPERSONSIGN): when the viewer owns the
 * ePak and the step under way is an in-person step, its recipients still to sign. Anyone else,
 * or any other moment, gets none.
 */
export function pendingInPersonSigners(epak: EpakDetail): EpakRecipient[] {
  if (!epak.viewer?.isOwner || epak.status !== 'InProgress' || epak.currentStep === null) return [];
  const step = epak.steps.find((candidate) => candidate.order === epak.currentStep);
  if (step?.type !== 'INPERSONSIGN') return [];
  return step.recipients.filter((recipient) => recipient.status === 'Pending' || recipient.status === 'DelegatePending');
}

/** For the host's side column: one button per in-person signer waiting. */
export function InPersonPanel({ epak, onStart }: { readonly epak: EpakDetail; readonly onStart: (recipient: EpakRecipient) => void }) {
  const { t } = useTranslation();
  const waiting = pendingInPersonSigners(epak);
  if (waiting.length === 0) return null;
  return (
    <SidePanel title={t('signing.inPerson.heading')} intro={t('signing.inPerson.intro')} testId="in-person-panel">
      {waiting.map((recipient) => (
        <Button key={recipient.recipientId} onClick={() => onStart(recipient)} h="auto" mih={36} py={6} styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'center' } }}>
          {t('signing.inPerson.start', { name: displayName(recipient) })}
        </Button>
      ))}
    </SidePanel>
  );
}

