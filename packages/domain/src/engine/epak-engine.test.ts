import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkflowStateType } from '../constants/workflow';
import { progressPercent, transition, type EngineEvent, type EngineResult, type EngineState } from './epak-engine';

/** A draft whose steps are given as types with recipient ids, e.g. ['REVIEW', ['r1']]. */
function draft(...steps: Array<[WorkflowStateType, string[]]>): EngineState {
  return {
    status: 'Draft',
    currentStep: null,
    steps: steps.map(([type, ids], index) => ({ order: index + 1, type, recipients: ids.map((recipientId) => ({ recipientId, status: 'Pending' as const })) })),
  };
}

function run(state: EngineState, ...events: EngineEvent[]): EngineResult {
  let result: EngineResult = { ok: true, state, effects: [] };
  for (const event of events) {
    if (!result.ok) return result;
    result = transition(result.state, event);
  }
  return result;
}

const ok = (result: EngineResult) => {
  if (!result.ok) throw new Error(`refused: ${result.code} ${result.reason}`);
  return result;
};

const statusOf = (state: EngineState, id: string) => state.steps.flatMap((s) => s.recipients).find((r) => r.recipientId === id)!.status;

const flow = draft(['REVIEW', ['lawyer']], ['SIGN', ['buyer', 'seller']], ['EMAIL', ['archive']], ['INPERSONSIGN', ['witness']]);

describe('the ePak engine', () => {
  it('starts at the first step and tells its people', () => {
    const started = ok(transition(flow, { type: 'start' }));
    expect(started.state).toMatchObject({ status: 'InProgress', currentStep: 1 });
    expect(started.effects).toEqual([{ type: 'notifyStep', order: 1, recipientIds: ['lawyer'], stepType: 'REVIEW' }]);
  });

  it('runs the workflow in order: review, both signers in any order, email, in-person signing, completed', () => {
    let result = ok(run(flow, { type: 'start' }, { type: 'review', recipientId: 'lawyer' }));
    expect(result.state.currentStep).toBe(2);
    expect(result.effects).toEqual([{ type: 'notifyStep', order: 2, recipientIds: ['buyer', 'seller'], stepType: 'SIGN' }]);
    result = ok(transition(result.state, { type: 'sign', recipientId: 'seller' }));
    // One signer left: the step waits.
    expect([result.state.currentStep, result.effects]).toEqual([2, []]);
    result = ok(transition(result.state, { type: 'sign', recipientId: 'buyer' }));
    // The EMAIL step runs at once and the in-person step is next.
    expect(result.effects).toEqual([
      { type: 'mailDocuments', order: 3, recipientIds: ['archive'] },
      { type: 'notifyStep', order: 4, recipientIds: ['witness'], stepType: 'INPERSONSIGN' },
    ]);
    expect(statusOf(result.state, 'archive')).toBe('Emailed');
    result = ok(transition(result.state, { type: 'sign', recipientId: 'witness' }));
    expect(result.state).toMatchObject({ status: 'Completed', currentStep: null });
    expect(result.effects).toEqual([{ type: 'completed' }]);
    expect(progressPercent(result.state)).toBe(100);
  });

  it.each<[string, EngineEvent[], string]>([
    ['a signer before their step (-28)', [{ type: 'start' }, { type: 'sign', recipientId: 'buyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
    ['someone twice (-28)', [{ type: 'start' }, { type: 'review', recipientId: 'lawyer' }, { type: 'sign', recipientId: 'buyer' }, { type: 'sign', recipientId: 'buyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
    ['a stranger (-28)', [{ type: 'start' }, { type: 'review', recipientId: 'nobody' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
    ['signing a review step (-6)', [{ type: 'start' }, { type: 'sign', recipientId: 'lawyer' }], 'INVALID_INPUT'],
    ['anything after a rejection (-23)', [{ type: 'start' }, { type: 'reject', recipientId: 'lawyer' }, { type: 'review', recipientId: 'lawyer' }], 'EPAK_REJECTED'],
    ['starting twice (-6)', [{ type: 'start' }, { type: 'start' }], 'INVALID_INPUT'],
    ['acting on a draft (-28)', [{ type: 'review', recipientId: 'lawyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
    ['acting on a stopped ePak (-28)', [{ type: 'start' }, { type: 'stop' }, { type: 'review', recipientId: 'lawyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
  ])('refuses %s', (_name, events, code) => {
    const result = run(flow, ...events);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe(code);
  });

  it('refuses anything on a completed ePak with -72', () => {
    const done = ok(run(draft(['SIGN', ['a']]), { type: 'start' }, { type: 'sign', recipientId: 'a' }));
    const again = transition(done.state, { type: 'sign', recipientId: 'a' });
    expect(!again.ok && again.code).toBe('EPAK_ALREADY_COMPLETED');
  });

  it('ends the ePak on a rejection; nobody else is asked any more', () => {
    const result = ok(run(flow, { type: 'start' }, { type: 'review', recipientId: 'lawyer' }, { type: 'reject', recipientId: 'buyer' }));
    expect(result.state).toMatchObject({ status: 'Rejected', currentStep: null });
    expect(['buyer', 'seller', 'archive', 'witness'].map((id) => statusOf(result.state, id))).toEqual(['Rejected', 'NotRequired', 'NotRequired', 'NotRequired']);
    expect(result.effects).toEqual([{ type: 'rejected', recipientId: 'buyer' }]);
  });

  it('stops and expires an ePak under way, skipping whoever was still to act', () => {
    for (const type of ['stop', 'expire'] as const) {
      const result = ok(run(flow, { type: 'start' }, { type }));
      expect(result.state.status).toBe(type === 'stop' ? 'Stopped' : 'Expired');
      expect(statusOf(result.state, 'lawyer')).toBe('Skipped');
    }
  });

  it('completes a workflow of EMAIL steps only at start', () => {
    const result = ok(transition(draft(['EMAIL', ['a']]), { type: 'start' }));
    expect(result.state.status).toBe('Completed');
    expect(result.effects.map((effect) => effect.type)).toEqual(['mailDocuments', 'completed']);
  });

  it('always ends in Completed when everyone acts in any order (property)', () => {
    const types = fc.constantFrom<WorkflowStateType>('REVIEW', 'SIGN', 'EMAIL', 'INPERSONSIGN');
    fc.assert(
      fc.property(fc.array(fc.tuple(types, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 6 }), fc.integer(), (spec, seed) => {
        const state = draft(...spec.map(([type, n], i): [WorkflowStateType, string[]] => [type, Array.from({ length: n }, (_, j) => `p${i}-${j}`)]));
        let result = ok(transition(state, { type: 'start' }));
        let turn = seed;
        while (result.state.status === 'InProgress') {
          const step = result.state.steps.find((s) => s.order === result.state.currentStep)!;
          const pending = step.recipients.filter((r) => r.status === 'Pending');
          const who = pending[Math.abs(turn++) % pending.length]!;
          result = ok(transition(result.state, { type: step.type === 'REVIEW' ? 'review' : 'sign', recipientId: who.recipientId }));
        }
        expect(result.state.status).toBe('Completed');
        expect(progressPercent(result.state)).toBe(100);
      }),
    );
  });
  describe('delegation', () => {
    const started = () => ok(run(flow, { type: 'start' }, { type: 'review', recipientId: 'lawyer' })).state;

    it('hands a waiting place to a delegate in the same step, who is told; the step waits for the delegate', () => {
      const result = ok(transition(started(), { type: 'delegate', recipientId: 'buyer', delegateId: 'agent' }));
      expect(statusOf(result.state, 'buyer')).toBe('Delegated');
      expect(statusOf(result.state, 'agent')).toBe('Pending');
      expect(result.state.steps[1]!.recipients.map((r) => r.recipientId)).toEqual(['buyer', 'seller', 'agent']);
      expect(result.effects).toEqual([{ type: 'notifyStep', order: 2, recipientIds: ['agent'], stepType: 'SIGN' }]);
      // The delegate signs in the buyer's place; the buyer has nothing left to do.
      const signed = ok(run(result.state, { type: 'sign', recipientId: 'agent' }, { type: 'sign', recipientId: 'seller' }));
      expect(signed.state.currentStep).toBe(4);
      const again = transition(signed.state, { type: 'sign', recipientId: 'buyer' });
      expect(!again.ok && again.code).toBe('USER_WORKFLOW_STATUS_NOT_PENDING');
    });

    it('keeps an unregistered delegate DelegatePending, who may still act', () => {
      const result = ok(transition(started(), { type: 'delegate', recipientId: 'seller', delegateId: 'new', delegateStatus: 'DelegatePending' }));
      expect(statusOf(result.state, 'new')).toBe('DelegatePending');
      expect(ok(transition(result.state, { type: 'sign', recipientId: 'new' })).state.currentStep).toBe(2);
    });

    it.each<[string, EngineEvent[], string]>([
      ['from a step not under way (-28)', [{ type: 'start' }, { type: 'delegate', recipientId: 'buyer', delegateId: 'x' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['twice (-28)', [{ type: 'start' }, { type: 'delegate', recipientId: 'lawyer', delegateId: 'x' }, { type: 'delegate', recipientId: 'lawyer', delegateId: 'y' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['to an existing place (-6)', [{ type: 'start' }, { type: 'delegate', recipientId: 'lawyer', delegateId: 'buyer' }], 'INVALID_INPUT'],
      ['on a draft (-28)', [{ type: 'delegate', recipientId: 'lawyer', delegateId: 'x' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['after a rejection (-23)', [{ type: 'start' }, { type: 'reject', recipientId: 'lawyer' }, { type: 'delegate', recipientId: 'lawyer', delegateId: 'x' }], 'EPAK_REJECTED'],
    ])('refuses delegating %s', (_name, events, code) => {
      const result = run(flow, ...events);
      expect(!result.ok && result.code).toBe(code);
    });

    it('takes a delegation back before the delegate acts, and not after', () => {
      const delegated = ok(transition(started(), { type: 'delegate', recipientId: 'buyer', delegateId: 'agent' })).state;
      const back = ok(transition(delegated, { type: 'delegateCancel', delegateId: 'agent', originalId: 'buyer' }));
      expect(back.state.steps[1]!.recipients).toEqual([
        { recipientId: 'buyer', status: 'Pending' },
        { recipientId: 'seller', status: 'Pending' },
      ]);
      expect(back.effects).toEqual([{ type: 'notifyStep', order: 2, recipientIds: ['buyer'], stepType: 'SIGN' }]);
      const acted = ok(transition(delegated, { type: 'sign', recipientId: 'agent' })).state;
      const late = transition(acted, { type: 'delegateCancel', delegateId: 'agent', originalId: 'buyer' });
      expect(!late.ok && late.code).toBe('USER_WORKFLOW_STATUS_NOT_PENDING');
      expect(!late.ok && late.reason).toMatch(/already acted/);
      // Only a Delegated place is given back.
      const wrong = transition(delegated, { type: 'delegateCancel', delegateId: 'agent', originalId: 'seller' });
      expect(!wrong.ok && wrong.code).toBe('USER_WORKFLOW_STATUS_NOT_PENDING');
    });
  });

  describe('removing a recipient', () => {
    it('leaves the step waiting for the others', () => {
      const state = ok(run(flow, { type: 'start' }, { type: 'review', recipientId: 'lawyer' })).state;
      const result = ok(transition(state, { type: 'removeRecipient', recipientId: 'buyer' }));
      expect(result.state.steps[1]!.recipients.map((r) => r.recipientId)).toEqual(['seller']);
      expect([result.state.currentStep, result.effects]).toEqual([2, []]);
    });

    it('moves on when the step under way has nobody left to wait for', () => {
      const state = ok(run(flow, { type: 'start' }, { type: 'review', recipientId: 'lawyer' }, { type: 'sign', recipientId: 'seller' })).state;
      const result = ok(transition(state, { type: 'removeRecipient', recipientId: 'buyer' }));
      expect(result.state.currentStep).toBe(4);
      expect(result.effects.map((effect) => effect.type)).toEqual(['mailDocuments', 'notifyStep']);
    });

    it('skips a later step left empty, and completes when nothing is left', () => {
      const state = ok(transition(draft(['REVIEW', ['a']], ['SIGN', ['b']], ['EMAIL', ['c']]), { type: 'start' })).state;
      let result = ok(run(state, { type: 'removeRecipient', recipientId: 'b' }, { type: 'removeRecipient', recipientId: 'c' }));
      expect(result.state.steps.map((s) => s.recipients.length)).toEqual([1, 0, 0]);
      result = ok(transition(result.state, { type: 'review', recipientId: 'a' }));
      // Neither the empty signing step nor the empty mailing step holds it up, or mails anyone.
      expect(result.state.status).toBe('Completed');
      expect(result.effects).toEqual([{ type: 'completed' }]);
      const last = ok(transition(draft(['SIGN', ['only']]), { type: 'start' })).state;
      expect(ok(transition(last, { type: 'removeRecipient', recipientId: 'only' })).state.status).toBe('Completed');
    });

    it.each<[string, EngineEvent[], string]>([
      ['who has acted (-28)', [{ type: 'start' }, { type: 'review', recipientId: 'lawyer' }, { type: 'sign', recipientId: 'buyer' }, { type: 'removeRecipient', recipientId: 'buyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['from a finished step (-28)', [{ type: 'start' }, { type: 'review', recipientId: 'lawyer' }, { type: 'removeRecipient', recipientId: 'lawyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['who is not there (-28)', [{ type: 'start' }, { type: 'removeRecipient', recipientId: 'nobody' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
      ['from a stopped ePak (-28)', [{ type: 'start' }, { type: 'stop' }, { type: 'removeRecipient', recipientId: 'buyer' }], 'USER_WORKFLOW_STATUS_NOT_PENDING'],
    ])('refuses removing someone %s', (_name, events, code) => {
      const result = run(flow, ...events);
      expect(!result.ok && result.code).toBe(code);
    });
  });

  it('still ends in Completed with delegations and removals along the way (property)', () => {
    const types = fc.constantFrom<WorkflowStateType>('REVIEW', 'SIGN', 'EMAIL', 'INPERSONSIGN');
    fc.assert(
      fc.property(fc.array(fc.tuple(types, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (spec, dice) => {
        const state = draft(...spec.map(([type, n], i): [WorkflowStateType, string[]] => [type, Array.from({ length: n }, (_, j) => `p${i}-${j}`)]));
        let result = ok(transition(state, { type: 'start' }));
        let turn = 0;
        let made = 0;
        while (result.state.status === 'InProgress') {
          const roll = dice[turn++ % dice.length]!;
          const step = result.state.steps.find((s) => s.order === result.state.currentStep)!;
          const pending = step.recipients.filter((r) => r.status === 'Pending' || r.status === 'DelegatePending');
          const who = pending[roll % pending.length]!;
          const event: EngineEvent =
            roll % 5 === 0 && made < 10
              ? { type: 'delegate', recipientId: who.recipientId, delegateId: `d${made++}` }
              : roll % 7 === 0
                ? { type: 'removeRecipient', recipientId: who.recipientId }
                : { type: step.type === 'REVIEW' ? 'review' : 'sign', recipientId: who.recipientId };
          result = ok(transition(result.state, event));
        }
        expect(result.state.status).toBe('Completed');
        expect(progressPercent(result.state)).toBe(100);
      }),
    );
  });
});
