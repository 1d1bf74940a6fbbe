import type { Tag } from '@pakt/domain';

/**
 * The choices of a singleSelect or multiSelect tag. They are stored in the tag's `dataSource`
 * ("where a select's options come from") as a JSON array of strings, in the order offered:
 *
 *     ["Yes","No","Not applicable"]
 *
 * Options are trimmed, never blank, and never repeated (compared ignoring case, as a signer would
 * not tell "Yes" from "yes"). No options is no dataSource. Reading is tolerant: anything else
 * reads as no options, so the editor always opens.
 */

/** Tag.dataSource holds at most 500 characters, so the serialised list must fit in them. */
export const SELECT_OPTIONS_MAX_CHARS = 500;

export type SelectOptionProblem = 'blank' | 'duplicate' | 'tooLong';

export function selectOptionsOf(tag: Pick<Tag, 'dataSource'>): string[] {
  if (!tag.dataSource) return [];
  try {
    const parsed: unknown = JSON.parse(tag.dataSource);
    return Array.isArray(parsed) ? parsed.filter((option): option is string => typeof option === 'string') : [];
  } catch {
    return [];
  }
}

function serialize(options: readonly string[]): string | undefined {
  return options.length === 0 ? undefined : JSON.stringify(options);
}

/**
 * The tag offering these options. A value that is no longer among them is dropped (a single
 * choice becomes unset, a multiple choice keeps the choices that remain), so a tag never holds a
 * choice it does not offer.
 */
export function withSelectOptions(tag: Tag, options: readonly string[]): Tag {
  const { dataSource: _previous, ...rest } = tag;
  const dataSource = serialize(options);
  const offered = new Set(options);
  let value = tag.value;
  if (typeof value === 'string' && !offered.has(value)) value = null;
  if (Array.isArray(value)) {
    const kept = value.filter((choice) => offered.has(choice));
    value = kept.length > 0 ? kept : null;
  }
  return { ...rest, ...(dataSource !== undefined && { dataSource }), value };
}

const identity = (option: string) => option.trim().toLocaleLowerCase();

/** Append an option, or say why it cannot be. */
export function addSelectOption(
  options: readonly string[],
  option: string,
): { readonly ok: true; readonly options: string[] } | { readonly ok: false; readonly problem: SelectOptionProblem } {
  const trimmed = option.trim();
  if (trimmed === '') return { ok: false, problem: 'blank' };
  if (options.some((existing) => identity(existing) === identity(trimmed))) return { ok: false, problem: 'duplicate' };
  const next = [...options, trimmed];
  if ((serialize(next) ?? '').length > SELECT_OPTIONS_MAX_CHARS) return { ok: false, problem: 'tooLong' };
  return { ok: true, options: next };
}
