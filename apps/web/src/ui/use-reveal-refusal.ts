import { useEffect, useRef, useState } from 'react';

/**
 * Brings a form's first refusal into view after each refused save: a long form (or a drawer that
 * scrolls) may have it out of sight when Save is pressed. Centred rather than merely reached, so
 * the field's label is not left under a sticky header; an input is focused as well. Counted, so
 * the same refusal twice is shown twice.
 */
export function useRevealRefusal() {
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"], [role="alert"]');
    if (!first) return;
    first.scrollIntoView?.({ block: 'center' });
    if (first.matches('input, select, textarea')) first.focus({ preventScroll: true });
  }, [refusals]);
  return { formRef, reveal: () => setRefusals((count) => count + 1) };
}
