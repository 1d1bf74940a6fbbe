import type { WorkflowRecipient } from './api/workflows';
import { BULK_COMPOSE_CSV_FIELD_ERRORS, ContactNumber, EmailAddress } from './constants/validation';
import { findCountryByAlpha2 } from './constants/countries';
import { csvField } from './csv';
import { DomainError } from './domain-error';
import { ResponseCode } from './response-codes';
import { flattenTags, type Tag } from './tags/tag';
import { parseTemplateSlot } from './template-slots';

/**
 * Bulk compose (issue 8): one CSV row is one ePak made from a document template. The template's
 * workflow names its recipients by place; every placeholder place gets a group of columns (its
 * person's address, names, phone and country code), and every fillable field tag of the document
 * a column by its name. The file is read as a stream: nothing here needs the whole file at once.
 */

/** What a recipient place's columns hold, in header order. */
export const BULK_RECIPIENT_FIELDS = ['email', 'firstName', 'lastName', 'phone', 'countryCode'] as const;
export type BulkRecipientField = (typeof BULK_RECIPIENT_FIELDS)[number];
/** A place's columns that the header must have (-181 without them); phone and country code may be left out. */
export const BULK_MANDATORY_RECIPIENT_FIELDS = ['email', 'firstName', 'lastName'] as const satisfies readonly BulkRecipientField[];

/** Tag types a row's field column fills: values typed by the custodian, not drawn at signing. */
export const BULK_FIELD_TAG_TYPES = ['text', 'textArea', 'calendar', 'singleSelect', 'email'] as const;

/** A column of a bulk file that is not the template's own: the failed-rows download adds it, and an upload ignores it. */
export const BULK_ERRORS_COLUMN = 'errors';

/** The most a name may have; as for invitations. */
const NAME_MAX = 100;
const FIELD_VALUE_MAX = 4000;

export interface BulkTemplateStep {
  readonly order: number;
  readonly recipients: readonly WorkflowRecipient[];
}

export interface BulkPlace {
  readonly stepOrder: number;
  readonly position: number;
  /** The placeholder's label ("Client"), to show beside the columns. */
  readonly label: string;
  /** Whether every row must fill it (-171 otherwise): a tag names it, or it is its step's only place to fill. */
  readonly required: boolean;
}

export interface BulkColumn {
  readonly name: string;
  readonly mandatory: boolean;
  /** A recipient place's column, or a field tag's (by its name). */
  readonly place?: { readonly stepOrder: number; readonly position: number; readonly field: BulkRecipientField };
  readonly tagName?: string;
}

export interface BulkLayout {
  readonly places: readonly BulkPlace[];
  readonly columns: readonly BulkColumn[];
}

export const bulkColumnName = (stepOrder: number, position: number, field: BulkRecipientField) => `step${stepOrder}.recipient${position}.${field}`;

/**
 * The columns of a template's CSV. Places of named people (`user` recipients) have none: those
 * people are the same in every ePak. Field tags are those of BULK_FIELD_TAG_TYPES with a name,
 * each name once, in the order they appear.
 */
export function bulkComposeLayout(template: { readonly tags: readonly Tag[]; readonly steps: readonly BulkTemplateStep[] }): BulkLayout {
  const tags = flattenTags(template.tags);
  const named = new Set(tags.map((tag) => parseTemplateSlot(tag.userEmail)).filter((slot) => slot !== null).map((slot) => `${slot.stepOrder}.${slot.position}`));
  const places: BulkPlace[] = [];
  const columns: BulkColumn[] = [];
  for (const step of template.steps) {
    const open = step.recipients.filter((recipient) => recipient.type === 'placeholder').length;
    step.recipients.forEach((recipient, at) => {
      if (recipient.type !== 'placeholder') return;
      const position = at + 1;
      // A step of placeholders alone needs one of them filled; with one place, that place is needed.
      const required = named.has(`${step.order}.${position}`) || (open === 1 && open === step.recipients.length);
      places.push({ stepOrder: step.order, position, label: recipient.label, required });
      for (const field of BULK_RECIPIENT_FIELDS) {
        columns.push({
          name: bulkColumnName(step.order, position, field),
          mandatory: (BULK_MANDATORY_RECIPIENT_FIELDS as readonly string[]).includes(field),
          place: { stepOrder: step.order, position, field },
        });
      }
    });
  }
  const taken = new Set(columns.map((column) => column.name));
  for (const tag of tags) {
    const name = (tag.name ?? '').trim();
    if (!name || !(BULK_FIELD_TAG_TYPES as readonly string[]).includes(tag.type) || taken.has(name) || name === BULK_ERRORS_COLUMN) continue;
    taken.add(name);
    columns.push({ name, mandatory: false, tagName: name });
  }
  return { places, columns };
}

/** The header CSV a custodian downloads and fills: the header line alone. */
export function bulkComposeHeaderCsv(layout: BulkLayout): string {
  return `${layout.columns.map((column) => csvField(column.name)).join(',')}\r\n`;
}

/**
 * The file's header checked against the template's: -182 for no header at all, -181 when a
 * mandatory column is missing, -175 for a column the template does not have or one given twice.
 * A trailing `errors` column (the failed-rows download's) is ignored, so fixed rows can be sent
 * back as they were downloaded.
 */
export function checkBulkHeader(header: readonly string[], layout: BulkLayout): DomainError | null {
  const names = header.map((name) => name.trim());
  if (names.every((name) => name === '')) return new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The file is empty.');
  const missing = layout.columns.filter((column) => column.mandatory && !names.includes(column.name)).map((column) => column.name);
  const expected = layout.columns.map((column) => column.name);
  if (missing.length > 0) {
    return new DomainError(ResponseCode.CSV_MANDATORY_HEADERS, `The header must name ${missing.join(', ')}.`, { data: { missing, expected } });
  }
  const known = new Set(expected);
  const unknown = names.filter((name, index) => (!known.has(name) && !(name === BULK_ERRORS_COLUMN && index === names.length - 1)) || names.indexOf(name) !== index);
  if (unknown.length > 0) {
    return new DomainError(ResponseCode.CSV_HEADER_COUNT_MISMATCH, `The header has columns the template does not: ${unknown.join(', ')}.`, { data: { unknown, expected } });
  }
  return null;
}

/** The record limit, checked as rows are counted: -143 past it. */
export function bulkRecordLimitError(limit: number): DomainError {
  return new DomainError(ResponseCode.CSV_RECORD_LIMIT_EXCEEDED, `A file may hold ${limit} rows at most.`, { data: { limit } });
}

/** The file had a header but no row. */
export function bulkNoRowsError(): DomainError {
  return new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The file has a header but no rows.');
}

export interface BulkCellError {
  /** The column's name, or null for the row as a whole. */
  readonly field: string | null;
  readonly code: number;
  readonly message: string;
}

export interface BulkRowRecipient {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string | null;
  readonly countryCode: string | null;
}

export interface BulkRowSteps {
  readonly order: number;
  /** Each place of the step, in order; null for a placeholder the row left empty. */
  readonly recipients: readonly (BulkRowRecipient | null)[];
}

export type BulkRowResult = { readonly ok: true; readonly steps: readonly BulkRowSteps[]; readonly values: ReadonlyMap<string, string> } | { readonly ok: false; readonly errors: readonly BulkCellError[] };

const FIELD_CODES = BULK_COMPOSE_CSV_FIELD_ERRORS;

/**
 * One row checked cell by cell. A place left wholly empty is no one (-171 when the place is
 * required); a place with anything in it needs a valid address (-1), first name (-2) and last name
 * (-3), and its phone (-4) and country code (-5) must be valid when given. The same address twice
 * in one step is refused too (-1). Field columns fill their tags by name; empty keeps the
 * template's value.
 */
export function validateBulkRow(options: { header: readonly string[]; cells: readonly string[]; layout: BulkLayout; steps: readonly BulkTemplateStep[] }): BulkRowResult {
  const { header, cells, layout } = options;
  const errors: BulkCellError[] = [];
  const width = header.length - (header.at(-1)?.trim() === BULK_ERRORS_COLUMN ? 1 : 0);
  if (cells.length < width || cells.length > header.length) {
    return { ok: false, errors: [{ field: null, code: ResponseCode.CSV_HEADER_COUNT_MISMATCH.code, message: `This row has ${cells.length} cells; the header has ${width}.` }] };
  }
  const indexOf = new Map(header.map((name, index) => [name.trim(), index]));
  const cell = (name: string) => {
    const index = indexOf.get(name);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  const steps = options.steps.map((step) => {
    const seen = new Set<string>();
    const recipients = step.recipients.map((recipient, at): BulkRowRecipient | null => {
      if (recipient.type === 'user') {
        if (seen.has(recipient.email)) errors.push({ field: null, code: FIELD_CODES.email, message: `${recipient.email} is in step ${step.order} twice.` });
        seen.add(recipient.email);
        return { email: recipient.email, firstName: '', lastName: '', phone: null, countryCode: null };
      }
      const position = at + 1;
      const name = (field: BulkRecipientField) => bulkColumnName(step.order, position, field);
      const raw = Object.fromEntries(BULK_RECIPIENT_FIELDS.map((field) => [field, cell(name(field))])) as Record<BulkRecipientField, string>;
      const place = layout.places.find((p) => p.stepOrder === step.order && p.position === position);
      if (Object.values(raw).every((value) => value === '')) {
        if (place?.required) errors.push({ field: name('email'), code: ResponseCode.BULK_COMPOSE_MINIMUM_SIGNER.code, message: `${recipient.label} (step ${step.order}) is needed in every row.` });
        return null;
      }
      const email = EmailAddress.safeParse(raw.email.toLowerCase());
      if (!email.success) errors.push({ field: name('email'), code: FIELD_CODES.email, message: raw.email ? 'Not an e-mail address.' : 'An e-mail address is needed.' });
      else if (seen.has(email.data)) errors.push({ field: name('email'), code: FIELD_CODES.email, message: `Already in step ${step.order}.` });
      else seen.add(email.data);
      if (raw.firstName.length < 1 || raw.firstName.length > NAME_MAX) errors.push({ field: name('firstName'), code: FIELD_CODES.firstName, message: `A first name of 1 to ${NAME_MAX} characters is needed.` });
      if (raw.lastName.length < 1 || raw.lastName.length > NAME_MAX) errors.push({ field: name('lastName'), code: FIELD_CODES.lastName, message: `A last name of 1 to ${NAME_MAX} characters is needed.` });
      if (raw.phone && !ContactNumber.safeParse(raw.phone).success) errors.push({ field: name('phone'), code: FIELD_CODES.phone, message: 'Not a phone number.' });
      if (raw.countryCode && !findCountryByAlpha2(raw.countryCode)) errors.push({ field: name('countryCode'), code: FIELD_CODES.countryCode, message: 'Not a country code (ISO 3166 alpha-2, e.g. IN).' });
      return {
        email: email.success ? email.data : raw.email,
        firstName: raw.firstName,
        lastName: raw.lastName,
        phone: raw.phone || null,
        countryCode: raw.countryCode ? raw.countryCode.toUpperCase() : null,
      };
    });
    return { order: step.order, recipients };
  });
  // A step everyone of which was left empty has nobody to act: the row lacks its signers.
  for (const step of steps) {
    if (step.recipients.every((recipient) => recipient === null)) {
      const first = layout.places.find((p) => p.stepOrder === step.order);
      if (first && !errors.some((error) => error.code === ResponseCode.BULK_COMPOSE_MINIMUM_SIGNER.code && error.field === bulkColumnName(first.stepOrder, first.position, 'email'))) {
        errors.push({ field: bulkColumnName(first.stepOrder, first.position, 'email'), code: ResponseCode.BULK_COMPOSE_MINIMUM_SIGNER.code, message: `Step ${step.order} needs at least one recipient.` });
      }
    }
  }
  const values = new Map<string, string>();
  for (const column of layout.columns) {
    if (!column.tagName) continue;
    const value = cell(column.name);
    if (value.length > FIELD_VALUE_MAX) errors.push({ field: column.name, code: ResponseCode.INVALID_INPUT.code, message: `A value has ${FIELD_VALUE_MAX} characters at most.` });
    else if (value !== '') values.set(column.tagName, value);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, steps, values };
}

/** The row's steps as the ePak will have them: empty places dropped. */
export function filledSteps(steps: readonly BulkRowSteps[]): { order: number; recipients: BulkRowRecipient[] }[] {
  return steps.map((step) => ({ order: step.order, recipients: step.recipients.filter((recipient): recipient is BulkRowRecipient => recipient !== null) }));
}

/**
 * The failed rows as CSV: the header as uploaded plus an `errors` column naming each field and its
 * code. Every cell goes through csvField, so one that a spreadsheet would run as a formula
 * (= + - @, tab, CR) is written with a leading apostrophe.
 */
export function bulkFailuresCsvHeader(header: readonly string[]): string {
  const names = header.at(-1)?.trim() === BULK_ERRORS_COLUMN ? header.slice(0, -1) : header;
  return `${[...names, BULK_ERRORS_COLUMN].map(csvField).join(',')}\r\n`;
}

export function describeBulkErrors(errors: readonly BulkCellError[]): string {
  return errors.map((error) => `${error.field ?? 'row'}: ${error.code} ${error.message}`).join('; ');
}

export function bulkFailureCsvLine(header: readonly string[], cells: readonly string[], errors: readonly BulkCellError[]): string {
  const width = header.at(-1)?.trim() === BULK_ERRORS_COLUMN ? header.length - 1 : header.length;
  const padded = Array.from({ length: width }, (_, index) => cells[index] ?? '');
  return `${[...padded, describeBulkErrors(errors)].map(csvField).join(',')}\r\n`;
}
