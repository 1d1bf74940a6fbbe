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
 * The autosave itself. A save under way is never doubled: the edits made meanwhile change the
 * documents once it has answered, which starts the quiet time again. A refused save is not
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

  useEffect(() => {
    if (delayMs === undefined || !anyUnsaved || save.isPending || save.isError) return;
    const timer = window.setTimeout(() => {
      const now = latest.current;
      if (now.anyUnsaved && !now.save.isPending) now.save.mutate(now.documents);
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
      const now = latest.current;
      if (!now.anyUnsaved) return true;
      try {
        await now.save.mutateAsync(now.documents);
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
