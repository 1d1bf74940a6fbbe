import { useCallback, useMemo, useRef, useState } from 'react';
import type { FieldsSaveState, TagEditorAutoSave } from '../tag-editor';

export type { FieldsSaveState } from '../tag-editor';

/** Quiet time after the last edit before the fields are saved: long enough not to save mid-drag. */
export const FIELDS_AUTOSAVE_MS = 1500;

/**
 * The fields step's saving: the tag editor saves by itself a moment after the person stops
 * editing (its autoSave), and what it still holds is saved before the step is left, which stays
 * open, saying "Not saved", when that save fails. So compose needs no save button of its own.
 */
export function useFieldsAutosave(delayMs = FIELDS_AUTOSAVE_MS) {
  const [state, setState] = useState<FieldsSaveState>('saved');
  const stateRef = useRef<FieldsSaveState>('saved');
  const [leaving, setLeaving] = useState(false);
  const flushRef = useRef<(() => Promise<boolean>) | null>(null);
  const editor: TagEditorAutoSave = useMemo(
    () => ({
      delayMs,
      onStateChange: (next: FieldsSaveState) => {
        stateRef.current = next;
        setState(next);
      },
      flushRef,
    }),
    [delayMs],
  );

  /** Runs `then` once the fields are saved: at once when nothing is pending (or no editor is shown), else after saving now. */
  const flush = useCallback((then: () => void) => {
    const save = flushRef.current;
    // Nothing held: the step is left at once.
    if (!save || stateRef.current === 'saved') return then();
    setLeaving(true);
    void save().then((saved) => {
      setLeaving(false);
      if (!saved) return;
      // Said here: the editor goes with its step at once, before it could tell of this save itself.
      stateRef.current = 'saved';
      setState('saved');
      then();
    });
  }, []);

  return { editor, flush, state, leaving };
}
