import { Loader, Stack } from '@mantine/core';
import type { EpakDetail } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session-store';
import { ComposeFieldsStep } from './compose-fields-step';
import { ComposeReviewStep } from './compose-review-step';
import { StepFooter } from './compose-step-footer';
import { ComposeStepper, type SaveStatusState } from './compose-stepper';
import { DraftDocumentsStep, DraftRecipientsStep } from './draft-steps';
import { composeQueryKeys, useDraftTags } from './queries';
import { missingForSend } from './send-checklist';
import { useDraftDetails, type DetailsSaveState } from './use-draft-details';
import { useFieldsAutosave, type FieldsSaveState } from './use-fields-autosave';

export const FIELDS_STEP = 2;
export const REVIEW_STEP = 3;

/** One word for the draft: saving while anything waits or goes, else failed, invalid or saved. */
function statusOf(details: DetailsSaveState, fields: FieldsSaveState): SaveStatusState {
  if (details === 'saving' || details === 'pending' || fields === 'saving' || fields === 'unsaved') return 'saving';
  if (details === 'failed' || fields === 'failed') return 'failed';
  if (details === 'invalid') return 'invalid';
  return 'saved';
}

/**
 * A saved draft in the compose steps. Its documents and people are as created; its details and
 * fields are saved as they change (useDraftDetails, useFieldsAutosave), and a step is left only
 * once what was changed in it is saved. Opened by its address, it resumes at the fields, or at
 * review and send when nothing is missing any more; `initialStep` overrides that (a draft just
 * created goes on to its fields).
 */
export function DraftComposeFlow({ epak, initialStep }: { readonly epak: EpakDetail; readonly initialStep?: number | undefined }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const tags = useDraftTags(epak);
  const details = useDraftDetails(epak);
  const fields = useFieldsAutosave();
  const [chosen, setChosen] = useState<number | null>(initialStep ?? null);

  // Where a reopened draft resumes is decided once, when its fields have come: fields saved
  // later must not move the person on by themselves.
  if (chosen === null && !tags.isPending) {
    setChosen(!tags.isError && missingForSend(epak, tags.tags).length === 0 ? REVIEW_STEP : FIELDS_STEP);
  }
  if (chosen === null) return <Loader size="sm" aria-label={t('compose.draft.loading')} />;
  const active = chosen;

  const go = (step: number) => {
    if (step === active) return;
    if (active === 1) details.flush();
    if (active !== FIELDS_STEP) return setChosen(step);
    // The editor goes when its step does: what it holds is saved first (and the step kept if that fails).
    fields.flush(() => setChosen(step));
  };
  const label = (name: 'documents' | 'recipients' | 'fields' | 'review') => t(`compose.flow.steps.${name}.label`);
  const next = (step: number, name: Parameters<typeof label>[0]) => ({ label: t('compose.flow.nextTo', { step: label(name) }), onClick: () => go(step) });

  const content = [
    <>
      <DraftDocumentsStep epak={epak} />
      <StepFooter next={next(1, 'recipients')} />
    </>,
    <>
      <DraftRecipientsStep epak={epak} details={details} />
      <StepFooter onBack={() => go(0)} next={next(FIELDS_STEP, 'fields')} />
    </>,
    <>
      <ComposeFieldsStep epak={epak} autosave={fields} />
      <StepFooter onBack={() => go(1)} next={{ ...next(REVIEW_STEP, 'review'), loading: fields.leaving }} />
    </>,
    <>
      <ComposeReviewStep
        epak={epak}
        tags={tags}
        onFix={() => go(FIELDS_STEP)}
        onStarted={(started) => queryClient.setQueryData(composeQueryKeys.epak(session?.tenantUuid, epak.ePakId), started)}
      />
      <StepFooter onBack={() => go(FIELDS_STEP)} />
    </>,
  ][active];

  return (
    <ComposeStepper
      active={active}
      reachable={() => true}
      onStepClick={go}
      status={statusOf(details.state, fields.state)}
      leaving={fields.leaving ? FIELDS_STEP : null}
      content={<Stack gap="lg">{content}</Stack>}
    />
  );
}
