import { describe, expect, it } from 'vitest';
import { emptyCompose, emptyComposeStep, type ComposeDraft } from './compose-draft';
import { composeErrorsByPath, withoutErrorsAt, withoutItemErrors } from './compose-error-paths';

const required = { key: 'common.required' } as const;
const invalid = { key: 'common.emailInvalid' } as const;

describe('compose refusals by path', () => {
  it('puts each refusal at the field that shows it, the documents at documentIds and none for the form', () => {
    const byPath = composeErrorsByPath(emptyCompose(), {
      subject: required,
      message: required,
      documents: required,
      steps: required,
      expiresOn: required,
      notificationStartDate: required,
      form: required,
    });
    expect(Object.keys(byPath).sort()).toEqual(['documentIds', 'expiresOn', 'message', 'notificationStartDate', 'steps', 'subject']);
  });

  it('finds steps and recipients by key where they are now', () => {
    const first = emptyComposeStep();
    const second = { ...emptyComposeStep(), recipients: [{ key: 'r1', email: 'a@example.test' }, { key: 'r2', label: 'Buyer', email: '' }] };
    // Sent as [first, second]; the second has moved up since.
    const draft: ComposeDraft = { ...emptyCompose(), steps: [second, first] };
    const byPath = composeErrorsByPath(draft, {
      step: {
        [second.key]: { state: required, recipients: required, pending: invalid, recipient: { r2: invalid, gone: invalid } },
        [first.key]: { state: required },
        removed: { state: required },
      },
    });
    expect(byPath).toEqual({
      'steps.0.workflowStateId': required,
      'steps.0.recipients': required,
      'steps.0.pendingText': invalid,
      'steps.0.recipients.1.email': invalid,
      'steps.1.workflowStateId': required,
    });
  });
});

describe('clearing refusals', () => {
  const errors = {
    steps: 'a',
    'steps.0.workflowStateId': 'b',
    'steps.0.recipients': 'c',
    'steps.0.recipients.0.email': 'd',
    'steps.0.recipients.12.email': 'e',
    'steps.1.recipients.0.email': 'f',
    stepsX: 'g',
    documentIds: 'h',
  };

  it("drops a list's items' refusals and keeps the list's own", () => {
    expect(withoutItemErrors(errors, 'steps.0.recipients')).toEqual({
      steps: 'a',
      'steps.0.workflowStateId': 'b',
      'steps.0.recipients': 'c',
      'steps.1.recipients.0.email': 'f',
      stepsX: 'g',
      documentIds: 'h',
    });
  });

  it('drops a refusal and every one under it', () => {
    expect(withoutErrorsAt(errors, 'steps')).toEqual({ stepsX: 'g', documentIds: 'h' });
    expect(withoutErrorsAt(errors, 'documentIds')).not.toHaveProperty('documentIds');
  });
});
