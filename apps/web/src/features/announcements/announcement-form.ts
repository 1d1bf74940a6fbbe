import { ResponseCode } from '@pakt/domain';
import { ApiError } from '../../api/client';

/** What the form holds: the message and two `datetime-local` values in the browser's zone. */
export interface AnnouncementDraft {
  readonly text: string;
  readonly start: string;
  readonly end: string;
}

export type DraftField = keyof AnnouncementDraft;

export type DraftMessage =
  | 'common.required'
  | 'announcements.errors.dateInvalid'
  | 'announcements.errors.endBeforeStart'
  | 'announcements.errors.textInvalid';

export type DraftErrors = Partial<Record<DraftField, DraftMessage>>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's zone, to the minute. */
export function toLocalInput(instant: Date | string): string {
  const d = typeof instant === 'string' ? new Date(instant) : instant;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (read in the browser's zone) as an ISO instant; null when unreadable. */
export function isoFromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/**
 * A new announcement starts now (this minute, so it shows at once) and runs for a day: the common
 * case is "tell everyone something today".
 */
export function emptyDraft(now: number = Date.now()): AnnouncementDraft {
  const start = new Date(now);
  start.setSeconds(0, 0);
  return { text: '', start: toLocalInput(start), end: toLocalInput(new Date(start.getTime() + 24 * 3_600_000)) };
}

/**
 * The checks the form can make alone (something to send at all). Whether the end comes after the
 * start is the server's rule (AnnouncementInput); its answer is shown by serverErrors.
 */
export function draftProblems(draft: AnnouncementDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.text.trim()) errors.text = 'common.required';
  if (!draft.start.trim()) errors.start = 'common.required';
  else if (!isoFromLocalInput(draft.start)) errors.start = 'announcements.errors.dateInvalid';
  if (!draft.end.trim()) errors.end = 'common.required';
  else if (!isoFromLocalInput(draft.end)) errors.end = 'announcements.errors.dateInvalid';
  return errors;
}

export type FormMessage = 'announcements.errors.saveFailed' | 'announcements.errors.notFound' | 'common.unreachable';

/**
 * A refused save, from the server's error envelope: invalid input (-6) lands on the field its issue
 * path names (body.endTime → the end); anything else becomes a message for the whole form, with the
 * server's own words when it gave some we cannot place.
 */
export function serverErrors(error: unknown): { fields: DraftErrors; message?: FormMessage; detail?: string } {
  if (!(error instanceof ApiError)) return { fields: {}, message: 'announcements.errors.saveFailed' };
  if (error.httpStatus === 0) return { fields: {}, message: 'common.unreachable' };
  if (error.httpStatus === 404) return { fields: {}, message: 'announcements.errors.notFound' };
  if (error.code === ResponseCode.INVALID_INPUT.code && error.issues) {
    const fields: DraftErrors = {};
    for (const issue of error.issues) {
      const field = issue.path.replace(/^body\./, '');
      if (field === 'endTime') fields.end = 'announcements.errors.endBeforeStart';
      else if (field === 'startTime') fields.start = 'announcements.errors.dateInvalid';
      else if (field === 'text') fields.text = 'announcements.errors.textInvalid';
    }
    if (Object.keys(fields).length > 0) return { fields };
  }
  return { fields: {}, message: 'announcements.errors.saveFailed', detail: error.message };
}
