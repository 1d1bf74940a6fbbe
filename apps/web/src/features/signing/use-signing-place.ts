import type { EpakViewer } from '@pakt/domain';
import { useRef, useState } from 'react';
import type { LocationFieldProps } from './location-field';
import { fillableTags, isEditable, valueOf } from './signing-tags';
import type { CeremonyTags } from './use-ceremony-tags';
import type { SignerEntries } from './use-signer-entries';

/**
 * Where the signer signs (spec §9 geolocation). A location field of their own is where they say
 * it, as before; without one, and when the tenant asks, the panel asks. With MANDATORY the server
 * refuses a signature without it.
 */
export function useSigningPlace({ tags, entries, viewer }: { readonly tags: CeremonyTags; readonly entries: SignerEntries; readonly viewer: EpakViewer }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const ownTags = tags.unsignedDocuments.flatMap((document) =>
    fillableTags(tags.tagsOf(document.documentId))
      .filter((tag) => tag.type === 'location' && isEditable(tag, tags.contextOf(document.documentId)))
      .map((tag) => ({ documentId: document.documentId, tag })),
  );
  const panelAsks = viewer.geolocation !== 'OFF' && ownTags.length === 0;
  const fromTag = ownTags
    .map(({ documentId, tag }) => valueOf(tag, entries.valuesOf(documentId)))
    .find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const location = (fromTag ?? (panelAsks ? typed : '')).trim();
  const missing = viewer.geolocation === 'MANDATORY' && location === '';
  /** The action panel's field, or null when the panel does not ask. */
  const field: LocationFieldProps | null =
    panelAsks && viewer.geolocation !== 'OFF'
    ? {
        mode: viewer.geolocation,
        value: typed,
        onChange: (next) => {
          setTyped(next);
          setError(null);
        },
        error,
        inputRef,
      }
    : null;
  return { ownTags, panelAsks, location, missing, field, setError, inputRef };
}

export type SigningPlace = ReturnType<typeof useSigningPlace>;
