import { describe, expect, it } from 'vitest';
import { newTag } from './tags/tag';
import { bindTemplateTags, parseTemplateSlot, sameStepShape, slotStepsOf, slotsNeeded, templateSlot, unbindTemplateTags, unboundSlots } from './template-slots';

const tag = (uuid: string, extra: Record<string, unknown>) =>
  newTag({ uuid, type: 'signature', pageNumber: 1, positionX: 10, positionY: 10, ...extra });

describe('template slots', () => {
  const steps = [
    { order: 1, recipients: [{ email: 'asha@example.com' }, { email: 'ben@example.com' }] },
    { order: 2, recipients: [{ email: 'asha@example.com' }] },
  ];

  it('round-trips a slot', () => {
    expect(parseTemplateSlot(templateSlot(3, 2))).toEqual({ stepOrder: 3, position: 2 });
    expect(parseTemplateSlot('asha@example.com')).toBeNull();
    expect(parseTemplateSlot(undefined)).toBeNull();
  });

  it('turns addresses into places by step, and back into other addresses', () => {
    const tags = [
      tag('00000000-0000-4000-8000-000000000001', { userEmail: 'Ben@example.com', wfsOrderId: 1, userUuid: 'x' }),
      tag('00000000-0000-4000-8000-000000000002', { userEmail: 'asha@example.com', wfsOrderId: 2 }),
      tag('00000000-0000-4000-8000-000000000003', { userEmail: 'asha@example.com' }),
      tag('00000000-0000-4000-8000-000000000004', { userEmail: 'stranger@example.com', wfsOrderId: 1 }),
    ];
    const unbound = unbindTemplateTags(tags, steps);
    expect(unbound.map((t) => [t.userEmail, t.wfsOrderId, t.userUuid])).toEqual([
      ['slot:1.2', 1, undefined],
      ['slot:2.1', 2, undefined],
      ['slot:1.1', 1, undefined],
      ['stranger@example.com', 1, undefined],
    ]);
    const other = [
      { order: 1, recipients: [{ email: 'chen@example.com' }, { email: 'dev@example.com' }] },
      { order: 2, recipients: [{ email: 'eve@example.com' }] },
    ];
    expect(unboundSlots(unbound, other)).toEqual([]);
    expect(bindTemplateTags(unbound, other).map((t) => t.userEmail)).toEqual(['dev@example.com', 'eve@example.com', 'chen@example.com', 'stranger@example.com']);
  });

  it('names the places nobody fills, and gives fields their values by name', () => {
    const unbound = [
      tag('00000000-0000-4000-8000-000000000001', { userEmail: 'slot:1.2', wfsOrderId: 1 }),
      newTag({ uuid: '00000000-0000-4000-8000-000000000005', type: 'text', name: 'amount', pageNumber: 1, positionX: 0, positionY: 0 }),
    ];
    const one = [{ order: 1, recipients: [{ email: 'chen@example.com' }] }];
    expect(unboundSlots(unbound, one)).toEqual(['slot:1.2']);
    expect(() => bindTemplateTags(unbound, one)).toThrow();
    const two = [{ order: 1, recipients: [{ email: 'chen@example.com' }, { email: 'dev@example.com' }] }];
    expect(bindTemplateTags(unbound, two, new Map([['amount', '1200']]))[1]!.value).toBe('1200');
  });
});

describe('the shape of steps', () => {
  const user = { type: 'user', email: 'a@example.com' };
  const placeholder = { type: 'placeholder', label: 'Buyer' };

  it('is the same when the states and the number of people at each match, whoever they are', () => {
    expect(sameStepShape([{ workflowStateId: 's', recipients: [user, placeholder] }], [{ workflowStateId: 's', recipients: [{ email: 'x' }, { email: 'y' }] }])).toBe(true);
    expect(sameStepShape([{ workflowStateId: 's', recipients: [user] }], [{ workflowStateId: 's', recipients: [user, user] }])).toBe(false);
    expect(sameStepShape([{ workflowStateId: 's', recipients: [user] }], [{ workflowStateId: 't', recipients: [user] }])).toBe(false);
    expect(sameStepShape([{ workflowStateId: 's', recipients: [user] }], [])).toBe(false);
  });

  it('gives every place of some steps its slot, and says how many places tags need per step', () => {
    const places = slotStepsOf([{ recipients: [user, placeholder] }, { recipients: [user] }]);
    expect(places).toEqual([
      { order: 1, recipients: [{ email: 'slot:1.1' }, { email: 'slot:1.2' }] },
      { order: 2, recipients: [{ email: 'slot:2.1' }] },
    ]);
    const tags = [
      tag('00000000-0000-4000-8000-000000000001', { userEmail: 'slot:1.2' }),
      tag('00000000-0000-4000-8000-000000000002', { userEmail: 'slot:3.1' }),
      tag('00000000-0000-4000-8000-000000000003', { userEmail: 'someone@example.com' }),
    ];
    expect(unboundSlots(tags, places)).toEqual(['slot:3.1']);
    expect([...slotsNeeded(tags)]).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });
});
