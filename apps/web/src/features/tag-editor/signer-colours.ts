import type { TagColour } from '@pakt/domain';
import type { MantineColor } from '@mantine/core';
import type { SignerOption } from './signers';

/**
 * Each signer's tags get their own colour so a custodian sees at a glance whose field is whose.
 * Mantine palette names, chosen to stay apart from each other and from the colours that mean
 * something else here: the primary indigo (the selected tag) and red (a tag with a problem).
 */
const SIGNER_COLOURS: readonly MantineColor[] = ['teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'blue', 'yellow', 'violet', 'green'];

/** Tags for nobody (or for someone no longer in the ePak) are grey. */
export const UNASSIGNED_COLOUR: MantineColor = 'gray';

export function signerColour(signers: readonly SignerOption[], signer: SignerOption | undefined): MantineColor {
  if (!signer) return UNASSIGNED_COLOUR;
  const index = signers.findIndex((candidate) => candidate.key === signer.key);
  return index < 0 ? UNASSIGNED_COLOUR : SIGNER_COLOURS[index % SIGNER_COLOURS.length]!;
}

/**
 * Spec §9's four tag colours, most important first: the focused tag, then one breaking a rule,
 * then one set up for a signer of this ePak ("configured"), else one still to be given to
 * someone ("remaining").
 */
export function tagColourRole(tag: { readonly selected: boolean; readonly invalid: boolean; readonly assigned: boolean }): TagColour {
  if (tag.selected) return 'selected';
  if (tag.invalid) return 'invalid';
  return tag.assigned ? 'configured' : 'remaining';
}

/** "Asha Rao" → "AR"; an address → its first letter. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/@.*$/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((word) => [...word][0]!.toLocaleUpperCase()).join('');
}
