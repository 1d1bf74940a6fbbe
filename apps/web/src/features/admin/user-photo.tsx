import { Avatar, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type AdminUser, deleteUserPhoto, getUserPhoto } from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { photoQueryKey, useObjectUrl } from '../../api/profile';
import { useCurrentTenant } from '../../api/session-store';
import { afterUserChange, userName } from './user-model';

/** Photos change only through their owner's upload or an admin's removal, which update the cache. */
const PHOTO_STALE_MS = 5 * 60_000;

/**
 * Whether the element has come near the screen yet (and then stays true), so a long list asks
 * only for the photos someone scrolls to. Without IntersectionObserver everything counts as seen.
 */
function useSeenOnce(): { ref: (node: HTMLElement | null) => (() => void) | undefined; seen: boolean } {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (node: HTMLElement | null) => {
      if (!node || seen) return undefined;
      const observer = new IntersectionObserver((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      }, { rootMargin: '200px' });
      observer.observe(node);
      return () => observer.disconnect();
    },
    [seen],
  );
  return { ref, seen };
}

/**
 * A person's photo, or their initials when they have none (or it cannot be had). The photo needs
 * the session's bearer token, so it is fetched through the client as a Blob and shown from an
 * object URL, under the same cache key the profile page uses; only people who have one are asked
 * for, and only once their row comes into view.
 */
export function UserAvatar({ user, size = 36 }: { readonly user: Pick<AdminUser, 'userId' | 'hasPhoto' | 'firstName' | 'middleName' | 'lastName' | 'email'>; readonly size?: number }) {
  const { t } = useTranslation();
  const { ref, seen } = useSeenOnce();
  const photo = useQuery({
    queryKey: photoQueryKey(user.userId),
    queryFn: ({ signal }) => callApi(getUserPhoto, { params: { userId: user.userId } }, { signal, failures: 'caller' }),
    enabled: user.hasPhoto && seen,
    staleTime: PHOTO_STALE_MS,
    // A photo that cannot be had shows initials; asking again would not help.
    retry: false,
  });
  const url = useObjectUrl(user.hasPhoto ? photo.data : undefined);
  const name = userName(user);
  return (
    <Avatar
      ref={ref}
      src={url}
      // The name is written beside it: initials add nothing for a screen reader, a photo does.
      alt={url ? t('userPhotoAdmin.photoAlt', { name }) : undefined}
      aria-hidden={url ? undefined : true}
      name={name}
      color="initials"
      size={size}
      radius={size}
      data-testid="user-avatar"
      data-has-photo={user.hasPhoto}
      style={{ flexShrink: 0 }}
    />
  );
}

/**
 * An admin removes a member's photo (an inappropriate picture), after seeing it and confirming.
 * The server checks who may (not a super admin's, never another tenant's) and records it.
 */
export function RemovePhotoDialog({
  user,
  opened,
  onClose,
  onRemoved,
  onFailed,
}: {
  readonly user: AdminUser;
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onRemoved: () => void;
  readonly onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const name = userName(user);
  const remove = useMutation({
    mutationFn: () => callApi(deleteUserPhoto, { params: { userId: user.userId } }),
    onSuccess: async () => {
      // Dropped, not refetched: the photo is gone, and its bytes must not linger in the cache.
      queryClient.removeQueries({ queryKey: photoQueryKey(user.userId) });
      onRemoved();
      await afterUserChange(queryClient, tenant?.tenantUuid);
    },
    onError: (error) => onFailed(error),
  });
  return (
    <Modal opened={opened} onClose={() => !remove.isPending && onClose()} title={t('userPhotoAdmin.confirmTitle', { name })} centered>
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="center">
          <UserAvatar user={user} size={72} />
          <Stack gap={0} miw={0}>
            <Text fw={600}>{name}</Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
          </Stack>
        </Group>
        <Text size="sm">{t('userPhotoAdmin.confirmText', { name })}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={remove.isPending} data-autofocus>
            {t('userPhotoAdmin.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('userPhotoAdmin.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
