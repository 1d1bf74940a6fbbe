import { getUserPhoto, readProfile } from '@pakt/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi } from './client';

export const profileQueryKey = ['profile'] as const;

/**
 * The signed-in person's profile, shared by the profile page and the header's avatar. One
 * definition for both, because TanStack Query runs whichever observer's function fetches first.
 * Failures are the caller's: the header must never send someone away from the page they are on
 * because its avatar could not be loaded, and the profile page explains a failure itself.
 */
export const profileQuery = queryOptions({
  queryKey: profileQueryKey,
  queryFn: ({ signal }) => callApi(readProfile, undefined, { signal, failures: 'caller' }),
});

/** Under the profile key, so invalidating the profile refetches the photo as well. */
export const photoQueryKey = (userId: string) => [...profileQueryKey, 'photo', userId] as const;

/** Photos change only through this app's own upload and removal, which update the cache themselves. */
const PHOTO_STALE_MS = 5 * 60_000;

/**
 * An object URL for a Blob, created while the Blob is shown and revoked when it is replaced or the
 * component goes away, so a photo's bytes do not stay in memory for the life of the tab.
 */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}

/**
 * The profile photo of `userId` as an address an <img> can show, or null when there is none (or
 * not yet). The photo needs the bearer token, so it cannot be an <img src> of the API itself: it
 * is fetched through the client and shown from an object URL.
 */
export function useProfilePhotoUrl(userId: string | undefined, hasPhoto: boolean): string | null {
  const photo = useQuery({
    queryKey: photoQueryKey(userId ?? ''),
    queryFn: ({ signal }) => callApi(getUserPhoto, { params: { userId: userId! } }, { signal, failures: 'caller' }),
    enabled: !!userId && hasPhoto,
    staleTime: PHOTO_STALE_MS,
  });
  const url = useObjectUrl(hasPhoto ? photo.data : undefined);
  return hasPhoto ? url : null;
}
