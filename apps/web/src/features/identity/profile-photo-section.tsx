import { Alert, Avatar, Button, Card, FileButton, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { deleteUserPhoto, fullName, PHOTO_MAX_BYTES, PHOTO_TYPES, ResponseCode, uploadUserPhoto, type UserInfo } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { photoQueryKey, profileQueryKey, useProfilePhotoUrl } from '../../api/profile';

export type PhotoProblem = 'wrongType' | 'tooLarge';

/** What the picker offers; the server checks the first bytes anyway. */
const ACCEPT = [...PHOTO_TYPES, '.png', '.jpg', '.jpeg'].join(',');

/**
 * The checks the server makes, made before sending so nobody waits for a megabyte upload to be
 * refused. Some systems give no type for a file, and then its name is all there is to go by.
 */
export function photoProblem(file: Pick<File, 'type' | 'name' | 'size'>): PhotoProblem | null {
  const typed = file.type
    ? (PHOTO_TYPES as readonly string[]).includes(file.type)
    : /\.(png|jpe?g)$/i.test(file.name);
  if (!typed) return 'wrongType';
  if (file.size > PHOTO_MAX_BYTES) return 'tooLarge';
  return null;
}

type Feedback =
  | { readonly kind: 'success'; readonly message: 'profile.photo.uploaded' | 'profile.photo.removed' }
  | {
      readonly kind: 'error';
      readonly message:
        | 'profile.photo.wrongType'
        | 'maxSizeExceeded'
        | 'profile.photo.uploadFailed'
        | 'profile.photo.removeFailed'
        | 'common.unreachable';
    };

function uploadFailure(error: unknown): Extract<Feedback, { kind: 'error' }>['message'] {
  if (error instanceof ApiError) {
    if (error.httpStatus === 0) return 'common.unreachable';
    if (error.httpStatus === 413 || error.code === ResponseCode.SIGNATURE_UPLOAD_SIZE.code) return 'maxSizeExceeded';
    // The server's verdict on the bytes: not a PNG or JPEG whatever its name said.
    if (error.code === ResponseCode.INVALID_INPUT.code) return 'profile.photo.wrongType';
  }
  return 'profile.photo.uploadFailed';
}

const MAX_MEGABYTES = PHOTO_MAX_BYTES / (1024 * 1024);

export function ProfilePhotoSection({ profile }: { readonly profile: UserInfo }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const photoUrl = useProfilePhotoUrl(profile.id, profile.hasPhoto);
  const resetPicker = useRef<() => void>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = fullName(profile);

  const settle = (info: UserInfo) => {
    queryClient.setQueryData(profileQueryKey, info);
    // The header's avatar reads the same profile and photo; refetching confirms what the server keeps.
    void queryClient.invalidateQueries({ queryKey: profileQueryKey });
  };

  const upload = useMutation({
    mutationFn: (file: File) => callApi(uploadUserPhoto, { params: { userId: profile.id }, files: { file } }, { failures: 'caller' }),
    onSuccess: (info, file) => {
      // The server stores the bytes as sent, so the chosen file can be shown at once.
      queryClient.setQueryData(photoQueryKey(profile.id), file);
      settle(info);
      setFeedback({ kind: 'success', message: 'profile.photo.uploaded' });
    },
    onError: (error) => setFeedback({ kind: 'error', message: uploadFailure(error) }),
  });

  const remove = useMutation({
    mutationFn: () => callApi(deleteUserPhoto, { params: { userId: profile.id } }, { failures: 'caller' }),
    onSuccess: (info) => {
      setConfirming(false);
      // Dropped rather than refetched: a later upload must not show the old picture while it loads.
      queryClient.removeQueries({ queryKey: photoQueryKey(profile.id) });
      settle(info);
      setFeedback({ kind: 'success', message: 'profile.photo.removed' });
    },
    onError: (error) => {
      setConfirming(false);
      setFeedback({
        kind: 'error',
        message: error instanceof ApiError && error.httpStatus === 0 ? 'common.unreachable' : 'profile.photo.removeFailed',
      });
    },
  });

  const onPick = (file: File | null) => {
    // Cleared so that picking the same file again (after fixing it, say) is noticed.
    resetPicker.current?.();
    if (!file) return;
    const problem = photoProblem(file);
    if (problem) {
      setFeedback({ kind: 'error', message: problem === 'tooLarge' ? 'maxSizeExceeded' : 'profile.photo.wrongType' });
      return;
    }
    setFeedback(null);
    upload.mutate(file);
  };

  const busy = upload.isPending || remove.isPending;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="profile-photo-heading">
      <Stack gap="md">
        <Title order={2} size="h4" id="profile-photo-heading">
          {t('profile.photo.heading')}
        </Title>
        {feedback && (
          <Alert color={feedback.kind === 'success' ? 'teal' : 'red'} variant="light" role={feedback.kind === 'success' ? 'status' : 'alert'}>
            {t(feedback.message)}
          </Alert>
        )}
        <Group gap="lg" wrap="nowrap" align="center">
          <Avatar
            src={photoUrl}
            alt={photoUrl ? t('profile.photo.alt') : undefined}
            name={name}
            color="initials"
            size={88}
            radius={88}
            data-testid="profile-photo"
            data-has-photo={profile.hasPhoto}
          />
          <Stack gap="xs" miw={0}>
            <Text size="sm" c="dimmed">
              {t('profile.photo.hint', { size: MAX_MEGABYTES })}
            </Text>
            <Group gap="xs">
              <FileButton onChange={onPick} accept={ACCEPT} resetRef={resetPicker} disabled={busy}>
                {(props) => (
                  <Button {...props} variant="light" loading={upload.isPending} disabled={remove.isPending}>
                    {t(profile.hasPhoto ? 'profile.photo.change' : 'profile.photo.choose')}
                  </Button>
                )}
              </FileButton>
              {profile.hasPhoto && (
                <Button variant="light" color="red" disabled={busy} onClick={() => (setFeedback(null), setConfirming(true))}>
                  {t('profile.photo.remove')}
                </Button>
              )}
            </Group>
          </Stack>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => !remove.isPending && setConfirming(false)} title={t('profile.photo.confirmTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{t('profile.photo.confirmText')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={remove.isPending}>
              {t('profile.photo.cancel')}
            </Button>
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending} data-autofocus>
              {t('profile.photo.confirmRemove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
