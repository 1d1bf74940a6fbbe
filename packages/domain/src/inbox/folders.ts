import type { EpakStatus } from '../api/epaks';
import type { Folder, SignerStatus } from '../constants/statuses';

/**
 * Which inbox folders (spec §4) an ePak is listed under for one person. An ePak can be in several
 * at once for the same person (signed it, and it is now completed: Signed and Completed), so the
 * answer is a set; the server keeps one inbox row per folder and counts them.
 *
 * The rules, in order:
 * - Archived, then Deleted, hide every other folder: the ePak is put away for everyone who saw it.
 * - A draft is its owner's alone.
 * - A recipient sees the ePak once their step has been reached: a place still waiting in a later
 *   step, or closed as NotRequired/Skipped without ever being reached, shows nothing.
 * - Inbox: a place of the step under way still waiting for this person (Pending, DelegatePending).
 * - Signed, Reviewed, Delegated, Rejected: what this person did in one of their places.
 * - Pending: under way and waiting for someone else (the owner, or a recipient who has acted).
 * - Completed, Rejected, Stopped, Expired: how the ePak ended, for everyone who saw it.
 *
 * apps/server keeps a SQL copy of these rules in the inbox trigger (a migration); a test there
 * runs both over every combination and compares them.
 */
export interface InboxPlace {
  readonly status: SignerStatus;
  /** The order of the place's step, 1-based. */
  readonly stepOrder: number;
}

export interface InboxFolderInput {
  readonly status: EpakStatus;
  /** The order of the step under way; null before start and after the end. */
  readonly currentStep: number | null;
  readonly deleted: boolean;
  readonly archived: boolean;
  readonly isOwner: boolean;
  /** The person's places as a recipient (none for an owner who does not sign). */
  readonly places: readonly InboxPlace[];
}

const WAITING: readonly SignerStatus[] = ['Pending', 'DelegatePending'];

const FOLDER_OF_ACT: Partial<Record<SignerStatus, Folder>> = {
  Signed: 'Signed',
  Reviewed: 'Reviewed',
  Delegated: 'Delegated',
  Rejected: 'Rejected',
};

const FOLDER_OF_END: Partial<Record<EpakStatus, Folder>> = {
  Completed: 'Completed',
  Rejected: 'Rejected',
  Stopped: 'Stopped',
  Expired: 'Expired',
};

/** Whether the place has come up: acted on, or waiting in the step under way (or one before it). */
function reached(place: InboxPlace, input: InboxFolderInput): boolean {
  if (WAITING.includes(place.status)) return input.status === 'InProgress' && input.currentStep !== null && place.stepOrder <= input.currentStep;
  return place.status !== 'NotRequired' && place.status !== 'Skipped';
}

export function inboxFolders(input: InboxFolderInput): Folder[] {
  const places = input.places.filter((place) => reached(place, input));
  const sees = input.isOwner || places.length > 0;
  if (!sees || (input.status === 'Draft' && !input.isOwner)) return [];
  if (input.archived) return ['Archived'];
  if (input.deleted) return ['Deleted'];
  if (input.status === 'Draft') return ['Draft'];
  const folders = new Set<Folder>();
  const waitingHere = places.some((place) => WAITING.includes(place.status) && input.status === 'InProgress' && place.stepOrder === input.currentStep);
  if (waitingHere) folders.add('Inbox');
  for (const place of places) {
    const folder = FOLDER_OF_ACT[place.status];
    if (folder) folders.add(folder);
  }
  if (input.status === 'InProgress' && !waitingHere) folders.add('Pending');
  const ended = FOLDER_OF_END[input.status];
  if (ended) folders.add(ended);
  return [...folders].sort();
}
