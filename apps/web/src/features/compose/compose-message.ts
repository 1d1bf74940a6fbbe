import type { ParseKeys } from 'i18next';
import type { Message } from '../workflows';

/** A form message (a translation key and its values) as the person reads it, or nothing. */
export const message = (t: (key: ParseKeys, values?: Record<string, unknown>) => string, value: Message | undefined) =>
  value ? t(value.key, value.values) : undefined;
