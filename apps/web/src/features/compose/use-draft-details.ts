import { editEpak, ResponseCode, updateEpakNotificationDate, type EpakDetail } from '@pakt/domain';
import { useQueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, callApi } from '../../api/client';
import { useSession } from '../../api/session-store';
import { isoOf, SUBJECT_MAX } from './compose-draft';
import { composeQueryKeys } from './queries';

export interface DraftDetails {
  readonly subject: string;
  readonly message: string;
  /** `datetime-local` values in the browser's zone ('' for none). */
  readonly expiresOn: string;
  readonly notificationStartDate: string;
}

/** `invalid`: a value the form refuses is waiting to be corrected, so nothing is sent. */
export type DetailsSaveState = 'saved' | 'pending' | 'saving' | 'failed' | 'invalid';
type DetailsErrors = Partial<Record<keyof DraftDetails, ParseKeys>>;

/** Quiet time after the last keystroke before a detail is saved. */
export const DETAILS_AUTOSAVE_MS = 800;

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's zone, to the minute ('' for none). */
export function localInputOf(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

export const detailsOf = (epak: Pick<EpakDetail, 'subject' | 'message' | 'expiresOn' | 'notificationStartDate'>): DraftDetails => ({
  subject: epak.subject,
  message: epak.message ?? '',
  expiresOn: localInputOf(epak.expiresOn),
  notificationStartDate: localInputOf(epak.notificationStartDate),
});

function check(values: DraftDetails): DetailsErrors {
  const errors: DetailsErrors = {};
  if (!values.subject.trim()) errors.subject = 'common.required';
  else if (values.subject.trim().length > SUBJECT_MAX) errors.subject = 'workflows.errors.invalidValue';
  if (isoOf(values.expiresOn) === null) errors.expiresOn = 'compose.errors.dateInvalid';
  if (isoOf(values.notificationStartDate) === null) errors.notificationStartDate = 'compose.errors.dateInvalid';
  return errors;
}

/** Where a refusal of the server belongs: the field it names, with what it said. */
function placeRefusal(error: unknown): DetailsErrors | null {
  if (!(error instanceof ApiError) || error.code !== ResponseCode.INVALID_INPUT.code) return null;
  const errors: DetailsErrors = {};
  for (const issue of error.issues ?? []) {
    const field = issue.path.replace(/^body\./, '');
    if (field === 'expiresOn') errors.expiresOn = /past/.test(issue.message) ? 'compose.details.expiryPast' : /before notifications/.test(issue.message) ? 'compose.details.expiryBeforeNotifications' : 'compose.errors.dateInvalid';
    else if (field === 'notificationStartDate') errors.notificationStartDate = /after expiry/.test(issue.message) ? 'compose.details.notificationsAfterExpiry' : 'compose.errors.dateInvalid';
    else if (field === 'subject' || field === 'message') errors[field] = 'workflows.errors.invalidValue';
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * The details a saved draft can still change (subject, message, expiry, when notifications
 * start), saved by themselves DETAILS_AUTOSAVE_MS after the last change: POST /epak/edit with the
 * draft's modifiedOn (tried once more with the server's when a field save moved it on, -306), and
 * PUT /epak/notif/date. A value the form or the server refuses stays, marked, until changed.
 */
export function useDraftDetails(epak: EpakDetail) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<DraftDetails>(() => detailsOf(epak));
  const [errors, setErrors] = useState<DetailsErrors>({});
  const [state, setState] = useState<DetailsSaveState>('saved');
  const saved = useRef<DraftDetails>(values);
  const latest = useRef<DraftDetails>(values);
  const timer = useRef<number | undefined>(undefined);
  const { ePakId } = epak;
  // The cached draft's modifiedOn is the one to send; this is for a cache that has let it go.
  const loadedModifiedOn = useRef(epak.modifiedOn);

  /** The save under way: the next waits for it, so saves land in the order they were made. */
  const running = useRef<Promise<void>>(Promise.resolve());

  const saveNow = useCallback(async () => {
    const wanted = latest.current;
    const before = saved.current;
    if (Object.keys(check(wanted)).length > 0) return setState('invalid');
    const key = composeQueryKeys.epak(session?.tenantUuid, ePakId);
    setState('saving');
    try {
      const edit = {
        ...(wanted.subject.trim() !== before.subject.trim() ? { subject: wanted.subject.trim() } : {}),
        ...(wanted.message.trim() !== before.message.trim() ? { message: wanted.message.trim() || null } : {}),
        ...(wanted.expiresOn !== before.expiresOn ? { expiresOn: isoOf(wanted.expiresOn) ?? null } : {}),
      };
      if (Object.keys(edit).length > 0) {
        const send = (modifiedOn: string) => callApi(editEpak, { body: { ePakId, modifiedOn, ...edit } }, { failures: 'caller' });
        const latestModified = queryClient.getQueryData<EpakDetail>(key)?.modifiedOn ?? loadedModifiedOn.current;
        const answer = await send(latestModified).catch((error: unknown) => {
          // Placing or saving fields moves modifiedOn on; the edit is ours all the same.
          const theirs = error instanceof ApiError && error.code === ResponseCode.EPAK_MODIFIED.code ? error.data?.['modifiedOn'] : undefined;
          if (typeof theirs === 'string') return send(theirs);
          throw error;
        });
        queryClient.setQueryData<EpakDetail>(key, (old) => (old ? { ...old, subject: answer.subject, message: answer.message, expiresOn: answer.expiresOn, modifiedOn: answer.modifiedOn } : old));
      }
      if (wanted.notificationStartDate !== before.notificationStartDate) {
        const answer = await callApi(updateEpakNotificationDate, { body: { ePakId, notificationStartDate: isoOf(wanted.notificationStartDate) ?? null } }, { failures: 'caller' });
        queryClient.setQueryData<EpakDetail>(key, (old) => (old ? { ...old, notificationStartDate: answer.notificationStartDate } : old));
      }
      saved.current = wanted;
      // Changed again while this was saved: that change has its own save coming (unless refused).
      setState(latest.current === wanted ? 'saved' : Object.keys(check(latest.current)).length > 0 ? 'invalid' : 'pending');
    } catch (error) {
      const placed = placeRefusal(error);
      if (placed) setErrors((current) => ({ ...current, ...placed }));
      setState('failed');
    }
  }, [ePakId, queryClient, session?.tenantUuid]);

  const save = useCallback(() => {
    timer.current = undefined;
    running.current = running.current.then(saveNow);
    return running.current;
  }, [saveNow]);

  const setField = (field: keyof DraftDetails, value: string) => {
    const next = { ...latest.current, [field]: value };
    latest.current = next;
    setValues(next);
    const checked = check(next);
    setErrors(checked);
    window.clearTimeout(timer.current);
    timer.current = undefined;
    // A value the form refuses is not sent; the refusal stays on the field until it is changed.
    if (Object.keys(checked).length > 0) return setState('invalid');
    setState('pending');
    timer.current = window.setTimeout(() => void save(), DETAILS_AUTOSAVE_MS);
  };

  /** Saves what waits for its quiet time now (the step is being left). */
  const flush = () => {
    if (timer.current === undefined) return;
    window.clearTimeout(timer.current);
    void save();
  };

  // Leaving the page mid-wait still saves: the person saw "Saving…".
  useEffect(
    () => () => {
      if (timer.current === undefined) return;
      window.clearTimeout(timer.current);
      void save();
    },
    [save],
  );

  return { values, errors, state, setField, flush };
}

export type DraftDetailsState = ReturnType<typeof useDraftDetails>;
