import { Stack } from '@mantine/core';
import type { EpakRecipient } from '@pakt/domain';
import { useTranslation } from 'react-i18next';
import { ActionPanel } from './action-panel';
import { EpakSteps } from './epak-summary';
import { InPersonPanel } from './in-person-panel';
import { StampChooser } from './stamp-chooser';
import type { CeremonyState } from './use-ceremony';
import { verificationPending } from '../../api/recipient-verification';
import { CeremonyVerificationPanel, showVerificationPanel } from '../../ui/verification-panel';

/** The ceremony's side column: what the person can do, rubber stamps, the in-person host, the steps. */
export function CeremonySide({ ceremony, onSignInPerson }: { readonly ceremony: CeremonyState; readonly onSignInPerson: ((recipient: EpakRecipient) => void) | undefined }) {
  const { t } = useTranslation();
  const { epak, viewer, canAct, progress, entries, place, autoFill, nextMissing, view, stamps, actions, guide, signerName } = ceremony;
  const signingStep = viewer.stepType === 'SIGN' || viewer.stepType === 'INPERSONSIGN';
  // Signer verification (issue 22): a code to confirm first; Sign leads to it until then.
  const verifying = canAct && signingStep && verificationPending(viewer.verification);
  return (
    <Stack gap="lg">
      {verifying && viewer.verification && <CeremonyVerificationPanel ePakId={epak.ePakId} verification={viewer.verification} />}
      {canAct && (
        <ActionPanel
          stepType={viewer.stepType}
          eligible={viewer.eligibleForAction}
          openedCount={epak.documents.filter((document) => viewer.viewedDocumentIds.includes(document.documentId)).length}
          documentCount={epak.documents.length}
          progress={progress.map((entry) => ({ documentId: entry.document.documentId, name: entry.document.name, signed: entry.signed, loaded: entry.loaded, filled: entry.filled, total: entry.total }))}
          reason={entries.reason}
          onReasonChange={entries.setReason}
          reasons={viewer.reasons}
          signerName={signerName.required ? { value: signerName.value, onChange: signerName.setValue, error: signerName.error, inputRef: signerName.inputRef } : null}
          location={place.field}
          autoFill={autoFill.severalComposites ? autoFill.enabled : null}
          onAutoFillChange={autoFill.setEnabled}
          onNextField={nextMissing ? guide.next : null}
          hasSignature={entries.marks.signature !== null}
          onChangeSignature={() => entries.setMarkRequest({ kind: 'signature', then: () => undefined })}
          error={actions.error ?? (entries.markError ? t('signing.signature.failed') : null)}
          signing={actions.signing}
          signPending={actions.sign.isPending}
          reviewPending={actions.review.isPending}
          onSign={verifying ? showVerificationPanel : actions.trySign}
          onReview={() => actions.review.mutate()}
          onReject={actions.startRejecting}
        />
      )}
      {canAct && signingStep && stamps.choices.length > 0 && (
        <StampChooser
          ePakId={epak.ePakId}
          stamps={stamps.choices}
          applied={stamps.appliedHere ? { rubberStampId: stamps.appliedHere.use.rubberStampId, pageNumber: stamps.appliedHere.pageNumber } : null}
          appliedCount={Object.keys(stamps.uses).length}
          documentCount={epak.documents.length}
          disabled={actions.sign.isPending || viewer.signedDocumentIds.includes(view.currentId)}
          onApply={stamps.apply}
          onRemove={stamps.remove}
        />
      )}
      {onSignInPerson && <InPersonPanel epak={epak} onStart={onSignInPerson} />}
      <EpakSteps epak={epak} myRecipientId={viewer.recipientId} />
    </Stack>
  );
}
