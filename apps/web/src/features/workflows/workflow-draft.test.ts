import { describe, expect, it } from 'vitest';
import { addPending, checkDraft, emptyDraft, emptyStep, errorsByPath, moveStep, placeIssues, type DraftErrors, type StepDraft, type WorkflowDraft } from './workflow-draft';

const STATE = '1d1c5a2e-0a6b-4c5e-9f1a-000000000001';

function stepWith(...texts: string[]): StepDraft {
  let step: StepDraft = { ...emptyStep(), workflowStateId: STATE, pendingKind: 'placeholder' };
  for (const text of texts) {
    const added = addPending({ ...step, pendingText: text });
    if (!('step' in added)) throw new Error(`could not add ${text}`);
    step = added.step;
  }
  return step;
}

const draftWith = (...steps: StepDraft[]): WorkflowDraft => ({ ...emptyDraft(), name: 'Sale deed', steps });

describe('workflow draft', () => {
  it('reads addresses through the domain schema: trimmed, lower-cased, validated', () => {
    const step = { ...emptyStep(), pendingKind: 'user' as const };
    expect(addPending({ ...step, pendingText: ' Asha@Example.COM ' })).toMatchObject({
      step: { recipients: [{ recipient: { type: 'user', email: 'asha@example.com' } }], pendingText: '' },
    });
    expect(addPending({ ...step, pendingText: 'asha@' })).toEqual({ error: { key: 'common.emailInvalid' } });
    expect(addPending({ ...step, pendingText: '  ' })).toEqual({ error: { key: 'workflows.errors.emailRequired' } });
  });

  it('refuses someone a step has already, as the server does: placeholders ignore case', () => {
    const step = stepWith('Buyer');
    expect(addPending({ ...step, pendingText: 'BUYER' })).toEqual({ error: { key: 'workflows.errors.alreadyPresent' } });
  });

  it('moves steps within bounds only', () => {
    const [a, b] = [stepWith('A'), stepWith('B')];
    expect(moveStep([a, b], 1, -1)).toEqual([b, a]);
    expect(moveStep([a, b], 0, -1)).toEqual([a, b]);
    expect(moveStep([a, b], 1, 1)).toEqual([a, b]);
  });

  it('places issues of the domain checks and of schema validation on the step and recipient they name', () => {
    const first = stepWith('Buyer', 'Seller');
    const second = stepWith('Witness');
    const { errors, unplaced } = placeIssues(draftWith(first, second), [
      { path: 'steps.0.recipients.1', message: 'already present' },
      { path: 'body.steps.1.recipients.0.label', message: 'Too big' },
      { path: 'steps.1.workflowStateId', message: 'no such workflow state' },
      { path: 'name', message: 'Too small' },
      { path: 'signingPolicy', message: 'Invalid option' },
      { path: 'steps.7.recipients.0', message: 'already present' },
    ]);
    expect(errors.step?.[first.key]?.recipient).toEqual({ [first.recipients[1]!.key]: { key: 'workflows.errors.alreadyPresent' } });
    expect(errors.step?.[second.key]).toEqual({
      recipient: { [second.recipients[0]!.key]: { key: 'workflows.errors.recipientInvalid' } },
      state: { key: 'workflows.errors.stateUnavailable' },
    });
    expect(errors.name).toEqual({ key: 'workflows.errors.invalidValue' });
    // A policy the form cannot get wrong, and a step that does not exist, go to the form as a whole.
    expect(unplaced).toBe(2);
  });

  it('adds a valid recipient still being typed when the form is checked, and builds the body', () => {
    const step = { ...emptyStep(), workflowStateId: STATE, pendingText: 'records@example.com' };
    const checked = checkDraft({ ...draftWith(step), description: '   ' });
    expect(checked.ok).toBe(true);
    expect(checked.ok && checked.body).toEqual({
      name: 'Sale deed',
      description: null,
      signingPolicy: 'ESIGNATURE',
      steps: [{ workflowStateId: STATE, recipients: [{ type: 'user', email: 'records@example.com' }] }],
    });
    expect(checked.draft.steps[0]?.pendingText).toBe('');
  });

  it('stops on a recipient being typed that is not valid, instead of dropping it silently', () => {
    const step = { ...stepWith('Buyer'), pendingKind: 'user' as const, pendingText: 'nobody' };
    const checked = checkDraft(draftWith(step));
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.errors.step?.[step.key]).toEqual({ pending: { key: 'common.emailInvalid' } });
  });

  it("puts each refusal on the path of the field that shows it, finding steps and recipients by key where they are now", () => {
    const first = stepWith('Buyer', 'Seller');
    const second = stepWith('Witness');
    const seller = first.recipients[1]!.key;
    const errors: DraftErrors = {
      name: { key: 'workflows.errors.nameTaken' },
      form: { key: 'workflows.errors.invalid' },
      step: {
        [first.key]: { state: { key: 'workflows.errors.stateRequired' }, recipient: { [seller]: { key: 'workflows.errors.alreadyPresent' } } },
        [second.key]: { pending: { key: 'common.emailInvalid' }, recipients: { key: 'workflows.errors.recipientsInvalid' } },
      },
    };
    // The steps were swapped after the draft was sent: each refusal follows its step.
    expect(errorsByPath(draftWith(second, first), errors)).toEqual({
      name: { key: 'workflows.errors.nameTaken' },
      'steps.0.pendingText': { key: 'common.emailInvalid' },
      'steps.0.recipients': { key: 'workflows.errors.recipientsInvalid' },
      'steps.1.workflowStateId': { key: 'workflows.errors.stateRequired' },
      'steps.1.recipients.1': { key: 'workflows.errors.alreadyPresent' },
    });
  });
});
