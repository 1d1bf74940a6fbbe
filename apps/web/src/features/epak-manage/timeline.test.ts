import type { ActivityEntry, EpakDetail, EpakManagedRecipient, EpakRecipient } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { buildTimeline, type Timeline } from './timeline';

const NOW = Date.parse('2025-03-06T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

const person = (id: string, name: string, status: EpakRecipient['status'], type: EpakRecipient['type'] = 'internal'): EpakRecipient => ({
  recipientId: `00000000-0000-4000-8000-0000000000${id}`,
  userId: `00000000-0000-4000-9000-0000000000${id}`,
  email: `${name.toLowerCase()}@example.com`,
  firstName: name,
  lastName: 'X',
  type,
  status,
});

const LATA = person('01', 'Lata', 'Reviewed');
const RAVI = person('02', 'Ravi', 'Pending', 'external');
const ASHA = person('03', 'Asha', 'Pending');
const OMAR = person('04', 'Omar', 'Pending', 'external');
const DEV = person('05', 'Dev', 'Pending');

function epakWith(status: EpakDetail['status'], currentStep: number | null, steps: EpakRecipient[][]): Pick<EpakDetail, 'status' | 'currentStep' | 'steps'> {
  return {
    status,
    currentStep,
    steps: steps.map((recipients, index) => ({
      order: index + 1,
      workflowStateId: `00000000-0000-4000-a000-00000000000${index + 1}`,
      name: `Step ${index + 1}`,
      type: index === 0 ? 'REVIEW' : 'SIGN',
      recipients,
    })),
  };
}

const fact = (recipient: EpakRecipient, over: Partial<EpakManagedRecipient> = {}): EpakManagedRecipient => ({
  recipientId: recipient.recipientId,
  actedOn: null,
  lastRemindedOn: null,
  receivesSigningLink: recipient.type === 'external',
  delegatedFromId: null,
  ...over,
});

const entry = (seq: number, action: string, actor: EpakRecipient | null, details: ActivityEntry['details'] = {}): ActivityEntry => ({
  seq,
  at: minutesAgo(100 - seq),
  action,
  actor: actor ? { userId: actor.userId, name: `${actor.firstName} ${actor.lastName}`, email: actor.email } : null,
  details,
  ip: null,
  hash: null,
  prevHash: null,
});

const OWNER = person('09', 'Meera', 'Pending');

/** What a case is checked on: per recipient, the flags the view offers actions by. */
function summary(timeline: Timeline) {
  return {
    steps: timeline.steps.map((step) => step.state),
    recipients: Object.fromEntries(
      timeline.steps.flatMap((step) =>
        step.recipients.map((r) => [
          r.name.split(' ')[0],
          [r.waiting && 'waiting', r.remindable && 'remindable', r.removable && 'removable', r.linkable && 'linkable', r.delegationOpen && 'recall'].filter(Boolean).join(' '),
        ]),
      ),
    ),
    remindable: timeline.remindable.map((r) => r.name.split(' ')[0]),
  };
}

describe('buildTimeline', () => {
  it.each([
    {
      name: 'under way: the current step waits, an outsider gets links, a done step offers nothing',
      epak: epakWith('InProgress', 2, [[LATA], [ASHA, RAVI], [OMAR]]),
      facts: [fact(LATA, { actedOn: minutesAgo(90) }), fact(ASHA), fact(RAVI), fact(OMAR)],
      expected: {
        steps: ['done', 'current', 'upcoming'],
        recipients: { Lata: '', Asha: 'waiting remindable removable', Ravi: 'waiting remindable removable linkable', Omar: 'removable' },
        remindable: ['Asha', 'Ravi'],
      },
    },
    {
      name: 'reminded 10 minutes ago: not again before the hour is up, and not in "remind all"',
      epak: epakWith('InProgress', 2, [[LATA], [ASHA, RAVI]]),
      facts: [fact(LATA), fact(ASHA, { lastRemindedOn: minutesAgo(10) }), fact(RAVI, { lastRemindedOn: minutesAgo(61) })],
      expected: {
        steps: ['done', 'current'],
        recipients: { Lata: '', Asha: 'waiting removable', Ravi: 'waiting remindable removable linkable' },
        remindable: ['Ravi'],
      },
    },
    {
      name: 'stopped: nobody waits, nothing is removable; an outsider who never acted gets no link',
      epak: epakWith('Stopped', null, [[LATA], [{ ...ASHA, status: 'Skipped' }, { ...RAVI, status: 'Skipped' }]]),
      facts: [fact(LATA), fact(ASHA), fact(RAVI)],
      expected: { steps: ['done', 'done'], recipients: { Lata: '', Asha: '', Ravi: '' }, remindable: [] },
    },
    {
      name: 'completed: an outsider who signed still gets a link to come back for the documents',
      epak: epakWith('Completed', null, [[LATA], [{ ...RAVI, status: 'Signed' }]]),
      facts: [fact(LATA), fact(RAVI, { actedOn: minutesAgo(5) })],
      expected: { steps: ['done', 'done'], recipients: { Lata: '', Ravi: 'linkable' }, remindable: [] },
    },
    {
      name: 'delegated: the delegation is open until the delegate acts; the delegated place gets no link',
      epak: epakWith('InProgress', 2, [[LATA], [{ ...RAVI, status: 'Delegated' }, DEV]]),
      facts: [fact(LATA), fact(RAVI, { actedOn: minutesAgo(3) }), fact(DEV, { delegatedFromId: RAVI.recipientId })],
      expected: { steps: ['done', 'current'], recipients: { Lata: '', Ravi: 'recall', Dev: 'waiting remindable removable' }, remindable: ['Dev'] },
    },
    {
      name: 'delegate has signed: nothing to take back',
      epak: epakWith('InProgress', 3, [[LATA], [{ ...RAVI, status: 'Delegated' }, { ...DEV, status: 'Signed' }], [ASHA]]),
      facts: [fact(LATA), fact(RAVI), fact(DEV, { delegatedFromId: RAVI.recipientId }), fact(ASHA)],
      expected: { steps: ['done', 'done', 'current'], recipients: { Lata: '', Ravi: '', Dev: '', Asha: 'waiting remindable removable' }, remindable: ['Asha'] },
    },
    {
      name: 'without the management facts yet: nobody gets links, reminders are not held back',
      epak: epakWith('InProgress', 1, [[{ ...RAVI, status: 'Pending' }]]),
      facts: null,
      expected: { steps: ['current'], recipients: { Ravi: 'waiting remindable removable' }, remindable: ['Ravi'] },
    },
  ])('$name', ({ epak, facts, expected }) => {
    const timeline = buildTimeline({ epak, management: facts && { ePakId: 'e', archivedOn: null, archivalPeriodDays: null, recipients: facts }, activity: [], now: NOW });
    expect(summary(timeline)).toEqual(expected);
  });

  it('says when the next reminder may go, and since when someone was reminded', () => {
    const epak = epakWith('InProgress', 1, [[RAVI]]);
    const timeline = buildTimeline({ epak, management: { ePakId: 'e', archivedOn: null, archivalPeriodDays: 3, recipients: [fact(RAVI, { lastRemindedOn: minutesAgo(15) })] }, activity: [], now: NOW });
    const ravi = timeline.steps[0]!.recipients[0]!;
    expect(ravi.lastRemindedOn).toBe(minutesAgo(15));
    expect(ravi.nextReminderOn).toBe(new Date(NOW + 45 * 60_000).toISOString());
  });

  it.each([
    {
      name: 'a rejection: its comment on the rejecter and as the ending, with who and when',
      epak: epakWith('Rejected', null, [[LATA], [{ ...RAVI, status: 'Rejected' }]]),
      activity: [entry(1, 'started', OWNER, { status: 'InProgress' }), entry(2, 'reviewed', LATA, { comment: 'Fine by legal' }), entry(3, 'rejected', RAVI, { comment: 'Wrong rent amount', status: 'Rejected' })],
      comments: { Lata: 'Fine by legal', Ravi: 'Wrong rent amount' },
      ending: { status: 'Rejected', by: 'Ravi X', comment: 'Wrong rent amount' },
    },
    {
      name: "a stop: the owner's reason is the ending, no recipient's comment",
      epak: epakWith('Stopped', null, [[{ ...RAVI, status: 'Skipped' }]]),
      activity: [entry(1, 'started', OWNER), entry(2, 'stopped', OWNER, { comment: 'Sent by mistake', status: 'Stopped' })],
      comments: { Ravi: null },
      ending: { status: 'Stopped', by: 'Meera X', comment: 'Sent by mistake' },
    },
    {
      name: 'under way: no ending; a comment of someone still pending is not shown on their place',
      epak: epakWith('InProgress', 1, [[RAVI]]),
      activity: [entry(1, 'reviewed', RAVI, { comment: 'from another step' })],
      comments: { Ravi: null },
      ending: null,
    },
  ])('$name', ({ epak, activity, comments, ending }) => {
    const timeline = buildTimeline({ epak, management: null, activity, now: NOW });
    const said = Object.fromEntries(timeline.steps.flatMap((step) => step.recipients.map((r) => [r.name.split(' ')[0], r.comment])));
    expect(said).toEqual(comments);
    expect(timeline.ending && { status: timeline.ending.status, by: timeline.ending.by, comment: timeline.ending.comment }).toEqual(ending);
  });
});
