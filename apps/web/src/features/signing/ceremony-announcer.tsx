import { VisuallyHidden } from '@mantine/core';
import { useCallback, useState } from 'react';

/**
 * What changed, said to a screen reader (WCAG 4.1.3, issue 22): a field filled by a click, a
 * signature placed in several fields, a document signed. One polite live region per ceremony;
 * the same words said twice are said again (the counter makes them a new text node).
 */
export function useAnnouncer() {
  const [said, setSaid] = useState<{ readonly text: string; readonly count: number }>({ text: '', count: 0 });
  const announce = useCallback((text: string) => setSaid((previous) => ({ text, count: previous.count + 1 })), []);
  return { said, announce };
}

export type Announcer = ReturnType<typeof useAnnouncer>;

export function CeremonyAnnouncer({ announcer }: { readonly announcer: Announcer }) {
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="ceremony-announcer">
      <span key={announcer.said.count}>{announcer.said.text}</span>
    </VisuallyHidden>
  );
}
