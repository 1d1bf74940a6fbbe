const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's zone, to the minute ('' for none). */
export function toLocalInput(instant: string | null | undefined): string {
  if (!instant) return '';
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A `datetime-local` value (read in the browser's zone) as an ISO instant: null for an empty
 * field (no date), undefined when it cannot be read.
 */
export function isoFromLocalInput(value: string): string | null | undefined {
  if (!value.trim()) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
