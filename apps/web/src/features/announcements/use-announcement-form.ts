import { useForm } from '@mantine/form';
import {
  type Announcement,
  createAnnouncement,
  createInstanceAnnouncement,
  deleteAnnouncement,
  deleteInstanceAnnouncement,
  listAnnouncements,
  listInstanceAnnouncements,
  updateAnnouncement,
  updateInstanceAnnouncement,
} from '@pakt/domain';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import {
  type AnnouncementDraft,
  type DraftErrors,
  draftProblems,
  emptyDraft,
  type FormMessage,
  isoFromLocalInput,
  serverErrors,
  toLocalInput,
} from './announcement-form';

/** The two sets of endpoints: a tenant's own announcements, and root's instance-wide ones. */
export const ENDPOINTS = {
  tenant: { list: listAnnouncements, create: createAnnouncement, update: updateAnnouncement, remove: deleteAnnouncement },
  instance: {
    list: listInstanceAnnouncements,
    create: createInstanceAnnouncement,
    update: updateInstanceAnnouncement,
    remove: deleteInstanceAnnouncement,
  },
} as const;

export type AnnouncementScope = keyof typeof ENDPOINTS;

export interface AnnouncementFormOptions {
  readonly scope: AnnouncementScope;
  /** The announcement being changed; null writes a new one. */
  readonly editing: Announcement | null;
  readonly onDone: () => void;
  readonly onGone: () => void;
}

/**
 * The announcement form's state: @mantine/form holds the draft and what each field shows. From the
 * first try on, a field's own check (draftProblems) is said as it is typed; the server's answer on
 * a field goes first and lasts until that field changes (a changed start takes the end's with it:
 * end-before-start concerns both). A refusal of the whole save is said above the fields.
 */
export function useAnnouncementForm({ scope, editing, onDone, onGone }: AnnouncementFormOptions) {
  const { t } = useTranslation();
  const endpoints = ENDPOINTS[scope];
  const translated = (errors: DraftErrors) => Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key)]));
  const form = useForm<AnnouncementDraft>({
    mode: 'controlled',
    initialValues: editing ? { text: editing.text, start: toLocalInput(editing.startTime), end: toLocalInput(editing.endTime) } : emptyDraft(),
    validate: (values) => translated(draftProblems(values)),
  });
  const [submitted, setSubmitted] = useState(false);
  const [refusal, setRefusal] = useState<{ readonly message: FormMessage; readonly detail?: string } | null>(null);
  const [saved, setSaved] = useState<'announcements.published' | 'announcements.saved' | null>(null);

  const save = useMutation({
    mutationFn: (draft: AnnouncementDraft) => {
      const body = { text: draft.text.trim(), startTime: isoFromLocalInput(draft.start)!, endTime: isoFromLocalInput(draft.end)! };
      return editing
        ? callApi(endpoints.update, { params: { announcementId: editing.id }, body })
        : callApi(endpoints.create, { body });
    },
    onSuccess: () => {
      setSaved(editing ? 'announcements.saved' : 'announcements.published');
      if (!editing) {
        form.setValues(emptyDraft());
        setSubmitted(false);
      }
      onDone();
    },
    onError: (error) => {
      const answer = serverErrors(error);
      form.setErrors((current) => ({ ...current, ...translated(answer.fields) }));
      setRefusal(answer.message ? { message: answer.message, ...(answer.detail ? { detail: answer.detail } : {}) } : null);
      if (answer.message === 'announcements.errors.notFound') onGone();
    },
  });

  const change = (field: keyof AnnouncementDraft, value: string) => {
    form.setFieldValue(field, value);
    setSaved(null);
    // A field's server answer no longer applies once it changes; end-before-start concerns both.
    const touched = field === 'start' ? (['start', 'end'] as const) : [field];
    for (const path of touched) {
      form.clearFieldError(path);
      if (submitted) form.validateField(path);
    }
    setRefusal(null);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setRefusal(null);
    setSaved(null);
    if (form.validate().hasErrors) return;
    save.mutate(form.getValues());
  };

  return { form, refusal, saved, save, change, onSubmit };
}
