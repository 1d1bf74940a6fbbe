import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createRef, type MutableRefObject, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { DocumentTags } from './tag-editor-state';
import { useTagAutoSave } from './use-tag-autosave';

type Documents = Readonly<Record<string, DocumentTags>>;

/** Documents told apart by identity only: the hook never looks inside them. */
const docs = (name: string) => ({ [name]: {} as DocumentTags }) as Documents;

describe('the tag editor’s autosave', () => {
  it('never has two saves in flight: a flush while one is under way waits for it, then saves what is there now', async () => {
    const calls: Documents[] = [];
    const answers: Array<() => void> = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const flushRef = createRef<(() => Promise<boolean>) | null>() as MutableRefObject<(() => Promise<boolean>) | null>;
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { rerender } = renderHook(
      ({ documents }: { documents: Documents }) => {
        const save = useMutation<void, Error, Documents>({
          mutationFn: (sent) => {
            calls.push(sent);
            inFlight += 1;
            mostInFlight = Math.max(mostInFlight, inFlight);
            return new Promise<void>((resolve) =>
              answers.push(() => {
                inFlight -= 1;
                resolve();
              }),
            );
          },
        });
        useTagAutoSave({ autoSave: { delayMs: 5, onStateChange: () => undefined, flushRef }, documents, anyUnsaved: true, save });
      },
      { wrapper, initialProps: { documents: docs('first') } },
    );

    // The quiet time passes: the first save goes, and is held.
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toHaveProperty('first');

    // More is placed, and the person moves on (a flush) while that save is still held. Every
    // promise already due runs (no timer is waited for): a flush that did not wait would have sent.
    rerender({ documents: docs('second') });
    let flushed: Promise<boolean> | undefined;
    act(() => {
      flushed = flushRef.current!();
    });
    for (let turn = 0; turn < 20; turn++) await act(() => Promise.resolve());
    expect(calls, 'nothing more is sent while a save is in flight').toHaveLength(1);

    // The first answers; only then does the flush send what is there now.
    act(() => answers[0]!());
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toHaveProperty('second');
    act(() => answers[1]!());
    await expect(flushed).resolves.toBe(true);
    expect(mostInFlight, 'never two saves in flight').toBe(1);
  });
});
