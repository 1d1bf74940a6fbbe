import { useForm } from '@mantine/form';
import {
  createRubberStamp,
  ResponseCode,
  RUBBER_STAMP_MAX_SIZE_BYTES,
  RUBBER_STAMP_MAX_SIZE_KB,
  RUBBER_STAMP_NAME_MAX_LENGTH,
  shareRubberStamp,
  updateRubberStamp,
  type RubberStamp,
} from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useObjectUrl } from '../../api/profile';
import { useSession } from '../../api/session-store';
import { readImageFile, type ImageFileRule } from '../../ui/image-file';
import type { PickedPerson } from '../../ui/person-picker';
import { rubberStampQueryKeys } from './queries';

// The server judges the bytes again; this spares a round trip for the obvious mistakes.
export const STAMP_RULE: ImageFileRule = { types: ['png', 'jpg', 'jpeg'], maxBytes: RUBBER_STAMP_MAX_SIZE_BYTES };

export function useRefreshStamps() {
  const session = useSession();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: rubberStampQueryKeys.list(session?.tenantUuid) });
}

/** Why the server refused an image, in the words of the form. */
function uploadProblem(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.code === ResponseCode.SIGNATURE_UPLOAD_SIZE.code) return t('rubberStamps.tooLarge', { maxKb: RUBBER_STAMP_MAX_SIZE_KB });
  if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code && error.issues?.some((issue) => issue.path === 'file')) return t('rubberStamps.notImage');
  return t('rubberStamps.saveFailed');
}

/**
 * Adding a stamp (stamp null) or changing one: @mantine/form holds the name. The chosen image stays
 * beside it in React state: @mantine/form deep-copies its values on every change, and a copied File
 * is no longer one the browser can upload. A refusal is said above the buttons.
 */
export function useStampForm({ stamp, onClose }: { readonly stamp: RubberStamp | null; readonly onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshStamps();
  const form = useForm({ mode: 'controlled', initialValues: { name: stamp?.name ?? '' } });
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const resetPicker = useRef<() => void>(null);
  const previewUrl = useObjectUrl(file ?? undefined);

  const save = useMutation({
    mutationFn: async () => {
      const trimmed = form.getValues().name.trim();
      if (stamp) {
        return callApi(updateRubberStamp, { body: { rubberStampId: stamp.rubberStampId, ...(trimmed && trimmed !== stamp.name ? { name: trimmed } : {}) }, ...(file ? { files: { file } } : {}) }, { failures: 'caller' });
      }
      return callApi(createRubberStamp, { body: { name: trimmed }, files: { file: file! } }, { failures: 'caller' });
    },
    onSuccess: async () => {
      await refresh();
      onClose();
    },
    onError: (error) => setProblem(uploadProblem(t, error)),
  });

  const onPick = async (picked: File | null) => {
    resetPicker.current?.();
    if (!picked) return;
    const checked = await readImageFile(picked, STAMP_RULE);
    if (!checked.ok) {
      setFile(null);
      return setProblem(checked.problem === 'tooLarge' ? t('rubberStamps.tooLarge', { maxKb: RUBBER_STAMP_MAX_SIZE_KB }) : t('rubberStamps.notImage'));
    }
    setProblem(null);
    setFile(picked);
    if (!form.getValues().name.trim()) form.setFieldValue('name', picked.name.replace(/\.(png|jpe?g)$/i, '').slice(0, RUBBER_STAMP_NAME_MAX_LENGTH));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!stamp && !file) return setProblem(t('rubberStamps.imageRequired'));
    save.mutate();
  };

  const name = form.values.name.trim();
  const nameMissing = name === '';
  const nothingToSave = stamp !== null && !file && name === stamp.name;
  return { form, file, problem, resetPicker, previewUrl, save, onPick, onSubmit, nameMissing, nothingToSave };
}

/** Sharing a stamp: @mantine/form holds the groups and the people it is shared with. */
export function useShareForm({ stamp, onClose }: { readonly stamp: RubberStamp; readonly onClose: () => void }) {
  const refresh = useRefreshStamps();
  const form = useForm<{ people: PickedPerson[]; groupIds: string[] }>({
    mode: 'controlled',
    initialValues: {
      people: stamp.sharedWith.users.map((user) => ({ userId: user.userId, name: user.name, email: user.email })),
      groupIds: stamp.sharedWith.groups.map((group) => group.groupId),
    },
  });
  const save = useMutation({
    mutationFn: ({ people, groupIds }: { people: PickedPerson[]; groupIds: string[] }) =>
      callApi(shareRubberStamp, { body: { rubberStampId: stamp.rubberStampId, userIds: people.map((person) => person.userId), groupIds } }, { failures: 'caller' }),
    onSuccess: async () => {
      await refresh();
      onClose();
    },
  });
  const setPeople = (people: PickedPerson[]) => form.setFieldValue('people', people);
  const submit = () => save.mutate(form.getValues());
  return { form, save, setPeople, submit };
}
