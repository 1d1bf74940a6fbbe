import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, type MutableRefObject } from 'react';
import type { DocumentTags } from './tag-editor-state';

export type FieldsSaveState = 'saved' | 'unsaved' | 'saving' | 'failed';

/**
 * A host that saves the fields by itself (compose's fields step) gives the editor this: the editor
 * then saves `delayMs` after the last change, hides its own save button, tells the host where the
 * saving stands, and hands it `flushRef`, which saves what is pending now (before a step is left)
 * and answers whether everything is saved.
 */
export interface TagEditorAutoSave {
  readonly delayMs: number;
  readonly onStateChange: (state: FieldsSaveState) => void;
  readonly flushRef: MutableRefObject<(() => Promise<boolean>) | null>;
}

type Documents = Readonly<Record<string, DocumentTags>>;

/**
 * The autosave itself. A save under way is never doubled, not even by a flush: the edits made
 * meanwhile change the documents once it has answered, which starts the quiet time again. A refused save is not
 * retried by itself (the editor shows why, on the field); the next edit tries again.
 */
export function useTagAutoSave(options: {
  readonly autoSave: TagEditorAutoSave | undefined;
  readonly documents: Documents;
  readonly anyUnsaved: boolean;
  readonly save: UseMutationResult<void, Error, Documents>;
}) {
  const { autoSave, documents, anyUnsaved, save } = options;
  const latest = useRef({ documents, anyUnsaved, save });
  latest.current = { documents, anyUnsaved, save };
  const delayMs = autoSave?.delayMs;
  // The save under way, whoever started it (the quiet time or a flush), settled either way. Two
  // saves of one document in flight could land in either order, the older last, and the server
  // would keep fewer fields than the editor shows as saved: so a save always waits for this one.
  const inFlight = useRef<Promise<void> | null>(null);
  const startSave = (docs: Documents): Promise<void> => {
    const run = latest.current.save.mutateAsync(docs);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    inFlight.current = settled;
    void settled.then(() => {
      if (inFlight.current === settled) inFlight.current = null;
    });
    return run;
  };
  const startSaveRef = useRef(startSave);
  startSaveRef.current = startSave;

  useEffect(() => {
    if (delayMs === undefined || !anyUnsaved || save.isPending || save.isError) return;
    const timer = window.setTimeout(() => {
      const now = latest.current;
      if (now.anyUnsaved && !now.save.isPending && !inFlight.current) startSaveRef.current(now.documents).catch(() => undefined);
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs, documents, anyUnsaved, save.isPending, save.isError]);

  // An edit after a refused save tries again (the refusal is kept until then).
  const { reset } = save;
  const edited = useRef(documents);
  useEffect(() => {
    if (edited.current === documents) return;
    edited.current = documents;
    if (latest.current.save.isError) reset();
  }, [documents, reset]);

  const state: FieldsSaveState = save.isPending ? 'saving' : !anyUnsaved ? 'saved' : save.isError ? 'failed' : 'unsaved';
  const onStateChange = autoSave?.onStateChange;
  useEffect(() => onStateChange?.(state), [onStateChange, state]);

  const flushRef = autoSave?.flushRef;
  useEffect(() => {
    if (!flushRef) return;
    flushRef.current = async () => {
      // Whatever is under way finishes first; then what is still unsaved goes, as it is now.
      while (inFlight.current) await inFlight.current;
      const now = latest.current;
      if (!now.anyUnsaved) return true;
      try {
        await startSaveRef.current(now.documents);
        return true;
      } catch {
        return false;
      }
    };
    return () => {
      flushRef.current = null;
    };
  }, [flushRef]);
}
