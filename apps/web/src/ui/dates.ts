/**
 * The app's two ways of showing a time, in the reader's language: a day ("Nov 27, 2026") for
 * lists and facts, a day and time ("Nov 27, 2026, 8:55 PM") where the hour matters (mail sent, an
 * announcement's window, an audit entry). One place, so every screen shows a date the same way;
 * the formatters are built once per language (Intl.DateTimeFormat is costly to build, cheap to use).
 */
const OPTIONS = {
  date: { dateStyle: 'medium' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(kind: keyof typeof OPTIONS, language: string): Intl.DateTimeFormat {
  const key = `${kind}|${language}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, OPTIONS[kind]);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A day in the reader's language; empty for no date. */
export function formatDate(value: string | Date | null | undefined, language: string): string {
  return value ? formatterOf('date', language).format(new Date(value)) : '';
}

/** A day and time of day in the reader's language; empty for no date. */
export function formatDateTime(value: string | Date | null | undefined, language: string): string {
  return value ? formatterOf('dateTime', language).format(new Date(value)) : '';
}
