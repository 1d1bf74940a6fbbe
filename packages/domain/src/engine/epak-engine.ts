import type { EpakStatus } from '../api/epaks';
import type { SignerStatus } from '../constants/statuses';
import type { WorkflowStateType } from '../constants/workflow';
import type { ResponseCodeName } from '../response-codes';

/**
 * The ePak lifecycle (spec §4) as one pure transition function: the server loads an ePak's state,
 * asks `transition` what an event does, and stores the answer with its activity record in one
 * transaction; the effects are the jobs it enqueues after commit. Nothing here reads a clock, a
 * database or the network, so every rule is a table test away.
 *
 * Steps run in workflow order, one at a time. Within a step everyone acts in any order and the
 * step is done when nobody is left pending. REVIEW records Reviewed, SIGN and INPERSONSIGN
 * record Signed (the caller has already checked the signer's required tags and sealed the
 * revision), EMAIL mails the documents to its recipients and moves on at once. A rejection ends
 * the ePak.
 *
 * The owner may change who a step waits for while the ePak is under way: a recipient of the step
 * under way delegates their place (they become Delegated, the delegate takes a new place in the
 * same step), the delegation is taken back before the delegate acts, or the owner removes a
 * recipient who has not acted from a step not yet finished (a step under way left with nobody to
 * wait for is done, and the ePak moves on).
 */

/** The ePak statuses of api/epaks.ts. */
export type EngineEpakStatus = EpakStatus;

export interface EngineRecipient {
  readonly recipientId: string;
  readonly status: SignerStatus;
}

export interface EngineStep {
  /** 1-based, in workflow order. */
  readonly order: number;
  readonly type: WorkflowStateType;
  readonly recipients: readonly EngineRecipient[];
}

export interface EngineState {
  readonly status: EngineEpakStatus;
  /** The order of the step under way; null before start and after the end. */
  readonly currentStep: number | null;
  readonly steps: readonly EngineStep[];
}

export type EngineEvent =
  | { readonly type: 'start' }
  | { readonly type: 'review'; readonly recipientId: string }
  | { readonly type: 'sign'; readonly recipientId: string }
  | { readonly type: 'reject'; readonly recipientId: string }
  | { readonly type: 'stop' }
  | { readonly type: 'expire' }
  /**
   * `recipientId` hands their place in the step under way to a new recipient `delegateId` (an id
   * the caller made), Pending, or DelegatePending while the delegate has not registered.
   */
  | { readonly type: 'delegate'; readonly recipientId: string; readonly delegateId: string; readonly delegateStatus?: 'Pending' | 'DelegatePending' }
  /** The place `delegateId` took from `originalId` goes back to `originalId`, Pending again. */
  | { readonly type: 'delegateCancel'; readonly delegateId: string; readonly originalId: string }
  /** A recipient who has not acted leaves a step not yet finished. */
  | { readonly type: 'removeRecipient'; readonly recipientId: string };

/** What the server does after commit. */
export type EngineEffect =
  | { readonly type: 'notifyStep'; readonly order: number; readonly recipientIds: readonly string[]; readonly stepType: WorkflowStateType }
  | { readonly type: 'mailDocuments'; readonly order: number; readonly recipientIds: readonly string[] }
  | { readonly type: 'completed' }
  | { readonly type: 'rejected'; readonly recipientId: string }
  | { readonly type: 'stopped' }
  | { readonly type: 'expired' };

export type EngineResult =
  | { readonly ok: true; readonly state: EngineState; readonly effects: readonly EngineEffect[] }
  | { readonly ok: false; readonly code: ResponseCodeName; readonly reason: string };

/** Which recipient statuses each step type records for an action. */
const ACTION_OF_STEP: Record<WorkflowStateType, 'review' | 'sign' | null> = {
  REVIEW: 'review',
  SIGN: 'sign',
  INPERSONSIGN: 'sign',
  // Nobody acts on an EMAIL step: the server mails and moves on.
  EMAIL: null,
};

const DONE_STATUSES: readonly SignerStatus[] = ['Reviewed', 'Signed', 'Emailed', 'NotRequired', 'Skipped', 'Delegated'];

const refuse = (code: ResponseCodeName, reason: string): EngineResult => ({ ok: false, code, reason });

const isWaiting = (recipient: EngineRecipient) => recipient.status === 'Pending' || recipient.status === 'DelegatePending';

function withSteps(state: EngineState, order: number, update: (recipients: readonly EngineRecipient[]) => EngineRecipient[]): EngineState {
  return { ...state, steps: state.steps.map((step) => (step.order !== order ? step : { ...step, recipients: update(step.recipients) })) };
}

/** The step under way is done once nobody in it is left to act: the ePak moves on. */
function advanceIfStepDone(state: EngineState, order: number, effects: EngineEffect[]): EngineState {
  const step = state.steps.find((candidate) => candidate.order === order)!;
  return step.recipients.every((r) => DONE_STATUSES.includes(r.status)) ? advance(state, order, effects) : state;
}

function withRecipient(state: EngineState, order: number, recipientId: string, status: SignerStatus): EngineState {
  return {
    ...state,
    steps: state.steps.map((step) =>
      step.order !== order ? step : { ...step, recipients: step.recipients.map((r) => (r.recipientId === recipientId ? { ...r, status } : r)) },
    ),
  };
}

/** Every still-pending recipient of steps not yet finished is no longer needed. */
function closeOpenRecipients(state: EngineState, status: SignerStatus): EngineState {
  return {
    ...state,
    steps: state.steps.map((step) => ({
      ...step,
      recipients: step.recipients.map((r) => (r.status === 'Pending' || r.status === 'DelegatePending' ? { ...r, status } : r)),
    })),
  };
}

/**
 * Moves to the step after `from` (0: the first), running EMAIL steps on the way, until a step
 * someone has to act on, or the end (Completed).
 */
function advance(state: EngineState, from: number, effects: EngineEffect[]): EngineState {
  let current = state;
  const ordered = [...state.steps].sort((a, b) => a.order - b.order);
  for (const step of ordered) {
    if (step.order <= from) continue;
    if (step.type === 'EMAIL') {
      // A mailing step whose recipients were all removed has nobody to mail.
      if (step.recipients.length === 0) continue;
      effects.push({ type: 'mailDocuments', order: step.order, recipientIds: step.recipients.map((r) => r.recipientId) });
      for (const recipient of step.recipients) current = withRecipient(current, step.order, recipient.recipientId, 'Emailed');
      continue;
    }
    const pending = step.recipients.filter((r) => r.status === 'Pending' || r.status === 'DelegatePending');
    if (pending.length === 0) continue;
    effects.push({ type: 'notifyStep', order: step.order, recipientIds: pending.map((r) => r.recipientId), stepType: step.type });
    return { ...current, status: 'InProgress', currentStep: step.order };
  }
  effects.push({ type: 'completed' });
  return { ...current, status: 'Completed', currentStep: null };
}

/** Why an ePak that is not under way refuses an action. */
function notUnderWay(state: EngineState): EngineResult | null {
  switch (state.status) {
    case 'InProgress':
      return null;
    case 'Completed':
      return refuse('EPAK_ALREADY_COMPLETED', 'The ePak is already completed.');
    case 'Rejected':
      return refuse('EPAK_REJECTED', 'The ePak was rejected.');
    default:
      return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', `The ePak is ${state.status}: nothing is waiting for anyone.`);
  }
}

export function transition(state: EngineState, event: EngineEvent): EngineResult {
  const effects: EngineEffect[] = [];
  switch (event.type) {
    case 'start': {
      if (state.status !== 'Draft') return refuse('INVALID_INPUT', 'Only a draft is started.');
      if (state.steps.length === 0) return refuse('INVALID_INPUT', 'An ePak needs at least one step.');
      return { ok: true, state: advance(state, 0, effects), effects };
    }
    case 'review':
    case 'sign':
    case 'reject': {
      const refused = notUnderWay(state);
      if (refused) return refused;
      const step = state.steps.find((candidate) => candidate.order === state.currentStep);
      const recipient = step?.recipients.find((candidate) => candidate.recipientId === event.recipientId);
      if (!step || !recipient || (recipient.status !== 'Pending' && recipient.status !== 'DelegatePending')) {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', 'Nothing of this ePak is waiting for this person now.');
      }
      if (event.type === 'reject') {
        const rejected = closeOpenRecipients(withRecipient(state, step.order, recipient.recipientId, 'Rejected'), 'NotRequired');
        effects.push({ type: 'rejected', recipientId: recipient.recipientId });
        return { ok: true, state: { ...rejected, status: 'Rejected', currentStep: null }, effects };
      }
      if (ACTION_OF_STEP[step.type] !== event.type) {
        return refuse('INVALID_INPUT', `This step asks for ${ACTION_OF_STEP[step.type] ?? 'nothing'}, not ${event.type}.`);
      }
      const acted = withRecipient(state, step.order, recipient.recipientId, event.type === 'review' ? 'Reviewed' : 'Signed');
      return { ok: true, state: advanceIfStepDone(acted, step.order, effects), effects };
    }
    case 'delegate': {
      const refused = notUnderWay(state);
      if (refused) return refused;
      const step = state.steps.find((candidate) => candidate.order === state.currentStep);
      const recipient = step?.recipients.find((candidate) => candidate.recipientId === event.recipientId);
      if (!step || !recipient || !isWaiting(recipient)) {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', 'Only a place waiting in the step under way can be delegated.');
      }
      if (state.steps.some((candidate) => candidate.recipients.some((r) => r.recipientId === event.delegateId))) {
        return refuse('INVALID_INPUT', 'The delegate needs a place of their own.');
      }
      const delegated = withSteps(state, step.order, (recipients) => [
        ...recipients.map((r) => (r.recipientId === recipient.recipientId ? { ...r, status: 'Delegated' as const } : r)),
        { recipientId: event.delegateId, status: event.delegateStatus ?? 'Pending' },
      ]);
      effects.push({ type: 'notifyStep', order: step.order, recipientIds: [event.delegateId], stepType: step.type });
      return { ok: true, state: delegated, effects };
    }
    case 'delegateCancel': {
      const refused = notUnderWay(state);
      if (refused) return refused;
      const step = state.steps.find((candidate) => candidate.order === state.currentStep);
      const delegate = step?.recipients.find((candidate) => candidate.recipientId === event.delegateId);
      const original = step?.recipients.find((candidate) => candidate.recipientId === event.originalId);
      if (!step || !delegate || !original || original.status !== 'Delegated') {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', 'No delegation of the step under way can be taken back here.');
      }
      if (!isWaiting(delegate)) {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', `The delegate has already acted (${delegate.status}): the delegation cannot be taken back.`);
      }
      const restored = withSteps(state, step.order, (recipients) =>
        recipients.filter((r) => r.recipientId !== delegate.recipientId).map((r) => (r.recipientId === original.recipientId ? { ...r, status: 'Pending' as const } : r)),
      );
      effects.push({ type: 'notifyStep', order: step.order, recipientIds: [original.recipientId], stepType: step.type });
      return { ok: true, state: restored, effects };
    }
    case 'removeRecipient': {
      const refused = notUnderWay(state);
      if (refused) return refused;
      const step = state.steps.find((candidate) => candidate.recipients.some((r) => r.recipientId === event.recipientId));
      const recipient = step?.recipients.find((r) => r.recipientId === event.recipientId);
      if (!step || !recipient) return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', 'This person has no place in the ePak.');
      if (state.currentStep === null || step.order < state.currentStep) {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', 'This step is finished: nobody is removed from it.');
      }
      if (!isWaiting(recipient)) {
        return refuse('USER_WORKFLOW_STATUS_NOT_PENDING', `This person has already acted (${recipient.status}) and stays in the ePak.`);
      }
      const removed = withSteps(state, step.order, (recipients) => recipients.filter((r) => r.recipientId !== recipient.recipientId));
      // A later step left with nobody is skipped when the ePak gets there.
      return { ok: true, state: step.order === state.currentStep ? advanceIfStepDone(removed, step.order, effects) : removed, effects };
    }
    case 'stop':
    case 'expire': {
      const refused = notUnderWay(state);
      if (refused) return refused;
      const closed = closeOpenRecipients(state, 'Skipped');
      effects.push({ type: event.type === 'stop' ? 'stopped' : 'expired' });
      return { ok: true, state: { ...closed, status: event.type === 'stop' ? 'Stopped' : 'Expired', currentStep: null }, effects };
    }
  }
}

/** Progress as the inbox shows it: the share of recipients who have done their part. */
export function progressPercent(state: EngineState): number {
  const all = state.steps.flatMap((step) => step.recipients);
  if (all.length === 0) return state.status === 'Completed' ? 100 : 0;
  const done = all.filter((r) => DONE_STATUSES.includes(r.status)).length;
  return Math.round((done / all.length) * 100);
}
