import {
  displayName,
  REMINDER_INTERVAL_MINUTES,
  type ActivityEntry,
  type EpakDetail,
  type EpakManagement,
  type EpakStatus,
  type SignerStatus,
  type UserType,
  type WorkflowStateType,
} from '@pakt/domain';

/**
 * The recipients' timeline of the owner's management view (issue 21), built from what three
 * answers say: the detail (steps, recipients, statuses), the owner's management facts (when each
 * person acted and was last reminded, who gets signing links, who delegated to whom) and the
 * activity log (the comments people left). Pure, so every rule of what is offered for whom is
 * tested as a table (timeline.test.ts); the components only draw it.
 */

/** Places that wait for their holder now or later. */
const WAITING: readonly SignerStatus[] = ['Pending', 'DelegatePending'];
/** Places that are no longer their holder's: handed on, or never reached. */
const NO_PART: readonly SignerStatus[] = ['Delegated', 'Skipped', 'NotRequired'];
/** Statuses of someone who has acted: their link still opens the ePak to read and download. */
const ACTED: readonly SignerStatus[] = ['Signed', 'Reviewed', 'Rejected', 'Emailed'];
/** Entries whose comment is the actor's word on their own place. */
const COMMENTED_ACTIONS = ['rejected', 'reviewed', 'signed', 'delegated'];
const ENDED = ['Completed', 'Rejected', 'Stopped', 'Expired'] as const;
export type EndedStatus = (typeof ENDED)[number];
const isEnded = (status: EpakStatus): status is EndedStatus => (ENDED as readonly string[]).includes(status);

export interface PersonRef {
  readonly name: string;
  readonly email: string;
}

export interface TimelineRecipient {
  readonly recipientId: string;
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly type: UserType;
  readonly status: SignerStatus;
  /** When they acted (signed, reviewed, rejected, delegated); null while they have not. */
  readonly actedOn: string | null;
  /** What they said when they acted (a rejection's reason, a reviewer's or delegator's note). */
  readonly comment: string | null;
  readonly lastRemindedOn: string | null;
  /** When the next reminder may go (REMINDER_INTERVAL_MINUTES after the last); null: any time. */
  readonly nextReminderOn: string | null;
  /** Waiting for them now: the step under way, and they have not acted. */
  readonly waiting: boolean;
  /** Waiting, and the reminder interval has passed. */
  readonly remindable: boolean;
  /** Not acted, in a step not finished: the owner may take them out, or give their place to someone else. */
  readonly removable: boolean;
  /** They get signing links (not a member) and have a part to open now. */
  readonly linkable: boolean;
  /** Whom they delegated to, or who delegated to them. */
  readonly delegatedTo: PersonRef | null;
  readonly delegatedFrom: PersonRef | null;
  /** They delegated, and the delegate has not acted yet: the delegation can be taken back. */
  readonly delegationOpen: boolean;
}

export type StepState = 'done' | 'current' | 'upcoming';

export interface TimelineStep {
  readonly order: number;
  readonly workflowStateId: string;
  readonly name: string;
  readonly type: WorkflowStateType;
  readonly state: StepState;
  readonly recipients: readonly TimelineRecipient[];
}

/** How the ePak ended, when it has: by whom, when, and why (a rejection's or stop's comment). */
export interface TimelineEnding {
  readonly status: EndedStatus;
  readonly at: string | null;
  readonly by: string | null;
  readonly comment: string | null;
}

export interface Timeline {
  readonly steps: readonly TimelineStep[];
  readonly ending: TimelineEnding | null;
  /** Everyone the "remind all" button would remind now. */
  readonly remindable: readonly TimelineRecipient[];
}

export interface TimelineInput {
  readonly epak: Pick<EpakDetail, 'status' | 'currentStep' | 'steps'>;
  readonly management: EpakManagement | null | undefined;
  readonly activity: readonly ActivityEntry[] | null | undefined;
  readonly now: number;
}

function stepState(order: number, epak: TimelineInput['epak']): StepState {
  if (epak.status === 'InProgress' && epak.currentStep !== null) {
    if (order < epak.currentStep) return 'done';
    return order === epak.currentStep ? 'current' : 'upcoming';
  }
  // Ended (or a draft): every step is as far as it got; none is under way.
  return epak.status === 'Draft' ? 'upcoming' : 'done';
}

/** The latest comment a person left on an action of theirs (entries are in log order). */
function commentsByUser(activity: readonly ActivityEntry[]): Map<string, { comment: string; at: string }> {
  const out = new Map<string, { comment: string; at: string }>();
  for (const entry of activity) {
    const comment = entry.details.comment ?? entry.details.reason;
    if (entry.actor && comment && COMMENTED_ACTIONS.includes(entry.action)) out.set(entry.actor.userId, { comment, at: entry.at });
  }
  return out;
}

function endingOf(epak: TimelineInput['epak'], activity: readonly ActivityEntry[]): TimelineEnding | null {
  const status = epak.status;
  if (!isEnded(status)) return null;
  const entry = [...activity].reverse().find((candidate) => candidate.details.status === status);
  return {
    status,
    at: entry?.at ?? null,
    by: entry?.actor?.name || entry?.actor?.email || null,
    comment: entry?.details.comment ?? entry?.details.reason ?? null,
  };
}

export function buildTimeline({ epak, management, activity, now }: TimelineInput): Timeline {
  const facts = new Map((management?.recipients ?? []).map((recipient) => [recipient.recipientId, recipient]));
  const comments = commentsByUser(activity ?? []);
  const everyone = epak.steps.flatMap((step) => step.recipients);
  const live = epak.status === 'InProgress';
  const steps = epak.steps.map((step): TimelineStep => {
    const state = stepState(step.order, epak);
    const recipients = step.recipients.map((recipient): TimelineRecipient => {
      const fact = facts.get(recipient.recipientId);
      const delegate = everyone.find((other) => facts.get(other.recipientId)?.delegatedFromId === recipient.recipientId);
      const origin = fact?.delegatedFromId ? everyone.find((other) => other.recipientId === fact.delegatedFromId) : undefined;
      const waiting = live && state === 'current' && WAITING.includes(recipient.status);
      const last = fact?.lastRemindedOn ?? null;
      const next = last ? new Date(new Date(last).getTime() + REMINDER_INTERVAL_MINUTES * 60_000) : null;
      const reminderDue = next === null || next.getTime() <= now;
      const reached = ACTED.includes(recipient.status) || (live && state !== 'upcoming');
      const said = comments.get(recipient.userId);
      return {
        recipientId: recipient.recipientId,
        userId: recipient.userId,
        name: displayName(recipient),
        email: recipient.email,
        type: recipient.type,
        status: recipient.status,
        actedOn: fact?.actedOn ?? null,
        // A comment belongs to this place only once they have acted in it.
        comment: said && (ACTED.includes(recipient.status) || recipient.status === 'Delegated') ? said.comment : null,
        lastRemindedOn: last,
        nextReminderOn: reminderDue ? null : next!.toISOString(),
        waiting,
        remindable: waiting && reminderDue,
        removable: live && state !== 'done' && WAITING.includes(recipient.status),
        linkable: Boolean(fact?.receivesSigningLink) && reached && !NO_PART.includes(recipient.status),
        delegatedTo: delegate ? { name: displayName(delegate), email: delegate.email } : null,
        delegatedFrom: origin ? { name: displayName(origin), email: origin.email } : null,
        delegationOpen: live && recipient.status === 'Delegated' && delegate !== undefined && WAITING.includes(delegate.status),
      };
    });
    return { order: step.order, workflowStateId: step.workflowStateId, name: step.name, type: step.type, state, recipients };
  });
  return {
    steps,
    ending: endingOf(epak, activity ?? []),
    remindable: steps.flatMap((step) => step.recipients.filter((recipient) => recipient.remindable)),
  };
}
