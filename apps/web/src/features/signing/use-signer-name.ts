import type { EpakViewer } from '@pakt/domain';
import { useRef, useState } from 'react';

/**
 * The signer's name as they type it (issue 22). An external signer known only by their address
 * (viewer.nameRequired) must type it before they sign: it is what the signature's /Name, the
 * "Who signs" list, the certificate and the activity log show, and it is sent with every sign
 * request of the ceremony. Anyone else signs under the name the ePak shows for them.
 */
export function useSignerName({ viewer }: { readonly viewer: EpakViewer }) {
  const required = viewer.nameRequired;
  // A name typed for an earlier document of this ePak comes back in the viewer: start from it.
  const [value, setValue] = useState(viewer.signerName ?? '');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const typed = value.trim();
  const change = (next: string) => {
    setValue(next);
    if (next.trim() !== '') setError(null);
  };
  /** Points at the field, saying why (nothing to sign under yet). */
  const ask = (message: string) => {
    setError(message);
    inputRef.current?.focus();
    inputRef.current?.scrollIntoView?.({ block: 'center' });
  };
  return {
    required,
    value,
    setValue: change,
    /** The name typed, trimmed; '' while none. */
    typed,
    missing: required && typed === '',
    error,
    setError,
    inputRef,
    ask,
    /** What a sign request carries: the typed name when one is asked for, else nothing. */
    toSend: required && typed !== '' ? typed : undefined,
  };
}

export type SignerName = ReturnType<typeof useSignerName>;
