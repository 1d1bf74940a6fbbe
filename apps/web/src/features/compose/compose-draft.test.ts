import { newTag, type DocumentTemplate } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { checkCompose, emptyCompose, stepsFromDocumentTemplate } from './compose-draft';

const STATE = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c41';
const TEMPLATE = '6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c42';

const slotTag = (n: number, slot: string) =>
  newTag({ uuid: `6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c5${n}`, type: 'signature', pageNumber: 1, positionX: 10, positionY: 100 * n, userEmail: slot });

const template = (extra: Partial<DocumentTemplate>) => ({ workflowSteps: null, tags: [], ...extra }) as unknown as DocumentTemplate;
const label = (step: number, place: number) => `Step ${step}, person ${place}`;

describe('steps from a document template', () => {
  it("are its workflow template's, placeholders as empty slots", () => {
    const steps = stepsFromDocumentTemplate(
      template({ workflowSteps: [{ order: 1, workflowStateId: STATE, name: 'Sign', type: 'SIGN', recipients: [{ type: 'placeholder', label: 'Tenant' }, { type: 'user', email: 'a@example.test' }] }] }),
      label,
    );
    expect(steps.map((step) => [step.workflowStateId, step.recipients.map((r) => [r.label, r.email])])).toEqual([
      [STATE, [['Tenant', ''], [undefined, 'a@example.test']]],
    ]);
  });

  it('without a workflow, are the places its tags name, with the state left to choose', () => {
    const steps = stepsFromDocumentTemplate(template({ tags: [slotTag(1, 'slot:1.2'), slotTag(2, 'slot:2.1')] }), label);
    expect(steps.map((step) => [step.workflowStateId, step.recipients.map((r) => r.label)])).toEqual([
      ['', ['Step 1, person 1', 'Step 1, person 2']],
      ['', ['Step 2, person 1']],
    ]);
    expect(stepsFromDocumentTemplate(template({}), label)).toHaveLength(1);
  });
});

describe('checking a compose from a template', () => {
  it("needs no document of one's own, and still needs every slot filled", () => {
    const steps = stepsFromDocumentTemplate(
      template({ workflowSteps: [{ order: 1, workflowStateId: STATE, name: 'Sign', type: 'SIGN', recipients: [{ type: 'placeholder', label: 'Tenant' }] }] }),
      label,
    );
    const draft = { ...emptyCompose(), subject: 'Lease', steps, docTemplateId: TEMPLATE };
    const empty = checkCompose(draft);
    expect(empty.ok).toBe(false);
    expect(empty.ok ? null : empty.errors.documents).toBeUndefined();

    const filled = checkCompose({ ...draft, steps: steps.map((step) => ({ ...step, recipients: step.recipients.map((r) => ({ ...r, email: 'b@example.test' })) })) });
    expect(filled.ok).toBe(true);
    expect(filled.ok && filled.body.documentIds).toEqual([]);
    expect(checkCompose({ ...draft, docTemplateId: undefined }).ok).toBe(false);
  });
});
