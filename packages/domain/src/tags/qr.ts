import { z } from 'zod';
import type { MessageKey } from '../message-keys';
import type { Tag } from './tag';

/**
 * The QR key-value editor of spec §5: a `qrcode` tag carries a list of labelled values, and the
 * printed QR code encodes them.
 *
 * Storage: the entries live in the tag's `value` as a JSON string, an array of objects in the
 * order the custodian made them:
 *
 *     [{"label":"Invoice","value":"INV-42"},{"label":"Amount","value":"₹ 1,200"}]
 *
 * A JSON string rather than the tag's string[] form, because a label belongs with its value and
 * the order matters (it is the order printed). No entries is `null`, like any tag not filled in.
 * Reading is tolerant (`qrEntriesOf`): a value that is not such a list, as an older or foreign
 * document may carry, reads as no entries, and malformed items are skipped, so the editor always
 * opens.
 *
 * Payload (what the QR code encodes): one line per entry, `label: value`, joined by a line feed
 * (see `qrPayload`). Plain text, so any phone's camera app shows it readably without our app.
 */

export const QrEntry = z.object({ label: z.string(), value: z.string() });
export type QrEntry = z.infer<typeof QrEntry>;

/**
 * The largest payload, in UTF-8 bytes. Our design choice, so the printed code stays scannable:
 * at error correction M, 300 bytes need QR version 13 (69 modules, 77 with the quiet zone). On
 * the qrcode tag's default 80 pt square (28 mm) a module is then ~0.37 mm, about the smallest a
 * phone camera reads reliably from a printed page; more data would need a larger tag than
 * custodians usually place. (Version 40 would take 2,331 bytes, but at 0.15 mm a module.)
 */
export const QR_PAYLOAD_MAX_BYTES = 300;

/** The spec §8 message keys of the four editor validations. */
export const QR_MESSAGE_KEYS = [
  'qrLabelBlankValidation',
  'qrValueBlankValidation',
  'qrDuplicateValidation',
  'qrEditFieldValidation',
] as const satisfies readonly MessageKey[];
export type QrMessageKey = (typeof QR_MESSAGE_KEYS)[number];

/** The payload limit has no spec key: it is ours, so the web app words it in its own bundle. */
export interface QrPayloadProblem {
  readonly bytes: number;
  readonly max: number;
}

const QrEntryList = z.array(z.unknown());

/** The tag's entries; anything that is not the stored format reads as none (see the file comment). */
export function qrEntriesOf(tag: Pick<Tag, 'value'>): QrEntry[] {
  if (typeof tag.value !== 'string' || tag.value.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(tag.value);
  } catch {
    return [];
  }
  const list = QrEntryList.safeParse(parsed);
  if (!list.success) return [];
  return list.data.flatMap((item) => {
    const entry = QrEntry.safeParse(item);
    // Only label and value are kept: stray properties would otherwise ride along forever.
    return entry.success ? [{ label: entry.data.label, value: entry.data.value }] : [];
  });
}

/** The stored form of the entries (null for none). */
export function serializeQrEntries(entries: readonly QrEntry[]): string | null {
  return entries.length === 0 ? null : JSON.stringify(entries.map(({ label, value }) => ({ label, value })));
}

/** The tag with these entries as its value. */
export function withQrEntries<T extends Pick<Tag, 'value'>>(tag: T, entries: readonly QrEntry[]): T {
  return { ...tag, value: serializeQrEntries(entries) };
}

/** How labels are compared for duplicates: trimmed and case-insensitive ("Invoice " = "invoice"). */
export function qrLabelIdentity(label: string): string {
  return label.trim().toLocaleLowerCase();
}

/** qrLabelBlankValidation when the label is empty or only white space. */
export function qrLabelProblem(label: string): 'qrLabelBlankValidation' | null {
  return label.trim() === '' ? 'qrLabelBlankValidation' : null;
}

/** qrValueBlankValidation when the value is empty or only white space. */
export function qrValueProblem(value: string): 'qrValueBlankValidation' | null {
  return value.trim() === '' ? 'qrValueBlankValidation' : null;
}

/**
 * qrDuplicateValidation when another entry already has this label (see `qrLabelIdentity`).
 * `editingIndex` is the entry being changed: keeping its own label (or changing only its case)
 * is not a duplicate.
 */
export function qrDuplicateProblem(entries: readonly QrEntry[], label: string, editingIndex?: number): 'qrDuplicateValidation' | null {
  const identity = qrLabelIdentity(label);
  if (identity === '') return null;
  const clash = entries.some((entry, index) => index !== editingIndex && qrLabelIdentity(entry.label) === identity);
  return clash ? 'qrDuplicateValidation' : null;
}

/**
 * qrEditFieldValidation: "a label can be edited only when the current label field is empty".
 *
 * The editor has one pair of fields (label, value) used both to add an entry and to change one:
 * choosing to edit an entry loads it into those fields. That is allowed only while the label
 * field is empty (white space counts as empty); otherwise the fields hold an entry being typed
 * or another entry being edited, and loading would silently throw that text away, so the editor
 * refuses and asks to finish (save or cancel) first. The spec names the label field only: a
 * value typed without a label is not yet an entry, so it does not block editing. Choosing the
 * entry already in the fields is no change and is never refused.
 */
export function qrEditProblem(
  fields: { readonly label: string },
  options: { readonly editingIndex?: number; readonly requestedIndex?: number } = {},
): 'qrEditFieldValidation' | null {
  if (options.requestedIndex !== undefined && options.requestedIndex === options.editingIndex) return null;
  return fields.label.trim() === '' ? null : 'qrEditFieldValidation';
}

// Line breaks would split one entry over two lines of the payload.
const oneLine = (text: string) => text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');

/** What the QR code encodes: `label: value` lines (see the file comment). */
export function qrPayload(entries: readonly QrEntry[]): string {
  return entries.map((entry) => `${oneLine(entry.label)}: ${oneLine(entry.value)}`).join('\n');
}

/**
 * UTF-8 length of a string. Counted by hand because the domain targets plain ES2022 (no
 * TextEncoder in its lib); a lone surrogate counts 3 bytes, as TextEncoder's U+FFFD would.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** The payload's size against QR_PAYLOAD_MAX_BYTES; null while it fits. */
export function qrPayloadProblem(entries: readonly QrEntry[]): QrPayloadProblem | null {
  const bytes = utf8Length(qrPayload(entries));
  return bytes > QR_PAYLOAD_MAX_BYTES ? { bytes, max: QR_PAYLOAD_MAX_BYTES } : null;
}

/** Why an entry cannot be saved, by field; an empty object means it can. */
export interface QrEntryProblems {
  readonly label?: 'qrLabelBlankValidation' | 'qrDuplicateValidation';
  readonly value?: 'qrValueBlankValidation';
  readonly payload?: QrPayloadProblem;
}

export type QrSave = { readonly ok: true; readonly entries: QrEntry[] } | { readonly ok: false; readonly problems: QrEntryProblems };

/**
 * Add an entry (no `editingIndex`) or replace the one at `editingIndex`, applying the spec's
 * checks: label not blank, value not blank, label not a duplicate; then the payload limit, only
 * once the entry itself is fine. Label and value are stored trimmed: the spaces around them are
 * typing noise, not content.
 */
export function saveQrEntry(entries: readonly QrEntry[], entry: QrEntry, editingIndex?: number): QrSave {
  const label = qrLabelProblem(entry.label) ?? qrDuplicateProblem(entries, entry.label, editingIndex);
  const value = qrValueProblem(entry.value);
  if (label || value) return { ok: false, problems: { ...(label && { label }), ...(value && { value }) } };
  const saved = { label: entry.label.trim(), value: entry.value.trim() };
  const editing = editingIndex !== undefined && editingIndex >= 0 && editingIndex < entries.length;
  const next = editing ? entries.map((existing, index) => (index === editingIndex ? saved : existing)) : [...entries, saved];
  const payload = qrPayloadProblem(next);
  if (payload) return { ok: false, problems: { payload } };
  return { ok: true, entries: next };
}

/** The entries without the one at `index` (unchanged when there is none). */
export function removeQrEntry(entries: readonly QrEntry[], index: number): QrEntry[] {
  return entries.filter((_, position) => position !== index);
}
