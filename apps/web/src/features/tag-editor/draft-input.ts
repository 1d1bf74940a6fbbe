import { useState, type KeyboardEvent } from 'react';

/**
 * What an input shows while being typed in, apart from the committed value: it follows the
 * committed value whenever that changes (an undo, a drag on the page) and can be put back to it.
 */
export function useDraft<T>(committed: T): readonly [T, (draft: T) => void] {
  const [state, setState] = useState({ committed, draft: committed });
  if (!Object.is(state.committed, committed)) {
    // Adjusting state while rendering (React's documented pattern) so no stale draft is ever shown.
    setState({ committed, draft: committed });
    return [committed, (draft: T) => setState((current) => ({ ...current, draft }))] as const;
  }
  return [state.draft, (draft: T) => setState((current) => ({ ...current, draft }))] as const;
}

/** Enter commits an input, as leaving it does; the panel may sit in a form, which must not submit. */
export function commitOnEnter(commit: () => void) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    commit();
  };
}

/** A number input's text as a number; NaN when there is none. */
export const numberOf = (value: number | string): number => (typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value));
