import type { Tag } from './tags/tag';

/**
 * A document template's tags name their person by place, not by address: the workflow step
 * (`wfsOrderId`, 1-based like the ePak's step order) and the recipient's 1-based place in that
 * step. The slot is kept in `userEmail`, so the tag rules that key signers by `userEmail` and
 * `wfsOrderId` (one signature per signer, -107 at start) hold for a template as for an ePak.
 * Composing from a template binds every slot to the address chosen for that place.
 */
const SLOT = /^slot:(\d+)\.(\d+)$/;

export function templateSlot(stepOrder: number, position: number): string {
  return `slot:${stepOrder}.${position}`;
}

export function parseTemplateSlot(value: string | undefined): { stepOrder: number; position: number } | null {
  const match = value ? SLOT.exec(value) : null;
  return match ? { stepOrder: Number(match[1]), position: Number(match[2]) } : null;
}

/** The steps of an ePak (or of a row of bulk compose) as slots see them: addresses in order. */
export interface SlotSteps {
  readonly order: number;
  readonly recipients: readonly { readonly email: string }[];
}

function mapTags(tags: readonly Tag[], change: (tag: Tag) => Tag): Tag[] {
  return tags.map((tag) => {
    const changed = change(tag);
    return changed.children ? { ...changed, children: mapTags(changed.children, change) } : changed;
  });
}

/**
 * An ePak's tags made into a template's: an address that is the recipient at some place of the
 * tag's step becomes that place's slot. A tag naming nobody, or someone not in its step, is kept
 * as it is (a custodian's own field, for one).
 */
export function unbindTemplateTags(tags: readonly Tag[], steps: readonly SlotSteps[]): Tag[] {
  const slotOf = new Map<string, string>();
  for (const step of steps) {
    step.recipients.forEach((recipient, at) => {
      const email = recipient.email.trim().toLowerCase();
      slotOf.set(`${step.order}|${email}`, templateSlot(step.order, at + 1));
      // A tag without a step belongs to the address's first place.
      if (!slotOf.has(`|${email}`)) slotOf.set(`|${email}`, templateSlot(step.order, at + 1));
    });
  }
  return mapTags(tags, (tag) => {
    const email = tag.userEmail?.trim().toLowerCase();
    if (!email) return tag;
    const slot = slotOf.get(`${tag.wfsOrderId ?? ''}|${email}`) ?? slotOf.get(`|${email}`);
    if (!slot) return tag;
    const { stepOrder } = parseTemplateSlot(slot)!;
    const { userUuid: _uuid, ...rest } = tag;
    return { ...rest, userEmail: slot, wfsOrderId: stepOrder };
  });
}

/** Slots the tags name that `steps` has no recipient for, each once, in order of appearance. */
export function unboundSlots(tags: readonly Tag[], steps: readonly SlotSteps[]): string[] {
  const missing = new Set<string>();
  const visit = (list: readonly Tag[]) => {
    for (const tag of list) {
      const slot = parseTemplateSlot(tag.userEmail);
      if (slot && !steps.find((step) => step.order === slot.stepOrder)?.recipients[slot.position - 1]) missing.add(tag.userEmail!);
      if (tag.children) visit(tag.children);
    }
  };
  visit(tags);
  return [...missing];
}

/**
 * A template's tags made into an ePak's: each slot becomes the address at that place. `values`
 * gives fields their values by tag name (bulk compose's field columns); a name not given keeps
 * the template's value. Throws on a slot with nobody at its place: call unboundSlots first.
 */
export function bindTemplateTags(tags: readonly Tag[], steps: readonly SlotSteps[], values?: ReadonlyMap<string, string>): Tag[] {
  return mapTags(tags, (tag) => {
    let bound = tag;
    const slot = parseTemplateSlot(tag.userEmail);
    if (slot) {
      const recipient = steps.find((step) => step.order === slot.stepOrder)?.recipients[slot.position - 1];
      if (!recipient) throw new Error(`No recipient for ${tag.userEmail}`);
      bound = { ...bound, userEmail: recipient.email.trim().toLowerCase(), wfsOrderId: slot.stepOrder };
    }
    const value = tag.name ? values?.get(tag.name) : undefined;
    return value === undefined ? bound : { ...bound, value };
  });
}

/** A workflow template's steps as slots see them: one place per recipient, whoever it is. */
export interface TemplateStepShape {
  readonly workflowStateId: string;
  readonly recipients: readonly unknown[];
}

/**
 * Whether an ePak's steps have the shape of a workflow template's: the same states in the same
 * order, with as many recipients at each. Slots are places, so a template whose shape matches
 * can stand for the ePak's workflow whoever its recipients are (a placeholder or another person).
 */
export function sameStepShape(a: readonly TemplateStepShape[], b: readonly TemplateStepShape[]): boolean {
  return a.length === b.length && a.every((step, at) => step.workflowStateId === b[at]!.workflowStateId && step.recipients.length === b[at]!.recipients.length);
}

/**
 * Slot addresses standing for every place of some steps (step n, place p is `slot:n.p`): what a
 * template's own tags are checked against, since a template has places but no people.
 */
export function slotStepsOf(steps: readonly { readonly recipients: readonly unknown[] }[]): SlotSteps[] {
  return steps.map((step, index) => ({
    order: index + 1,
    recipients: step.recipients.map((_recipient, at) => ({ email: templateSlot(index + 1, at + 1) })),
  }));
}

/** The places the tags name, step by step: how many recipients each step needs at least. */
export function slotsNeeded(tags: readonly Tag[]): Map<number, number> {
  const needed = new Map<number, number>();
  const visit = (list: readonly Tag[]) => {
    for (const tag of list) {
      const slot = parseTemplateSlot(tag.userEmail);
      if (slot) needed.set(slot.stepOrder, Math.max(needed.get(slot.stepOrder) ?? 0, slot.position));
      if (tag.children) visit(tag.children);
    }
  };
  visit(tags);
  return needed;
}
