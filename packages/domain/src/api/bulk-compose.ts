import { z } from 'zod';
import { type BinaryBody, defineEndpoint } from './contract';

/**
 * Bulk compose (issue 8, route /bulkcompose): a CSV where each row is one ePak made from a
 * document template, its recipients and field values. The upload stores the file and answers the
 * run at once; a background job makes and starts the ePaks and records the refused rows. The same
 * file for the same template finds the run it already made (no ePak is made twice).
 */

export const BULK_COMPOSE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const BulkComposeStatus = z.enum(BULK_COMPOSE_STATUSES);
export type BulkComposeStatus = z.infer<typeof BulkComposeStatus>;

/** How many refused rows one page of a run shows. */
export const BULK_FAILURES_PAGE_SIZE = 50;

export const BulkComposeRun = z.object({
  runId: z.uuid(),
  docTemplateId: z.uuid().nullable(),
  templateName: z.string().nullable(),
  fileName: z.string(),
  status: BulkComposeStatus,
  /** Data rows in the file (the header not counted), known once it is stored. */
  totalRows: z.number().int().nonnegative(),
  processedRows: z.number().int().nonnegative(),
  createdEpaks: z.number().int().nonnegative(),
  failedRows: z.number().int().nonnegative(),
  /**
   * The run's answer: 1 while all is well, -174 once rows were refused, or the code of a fault of
   * the whole file that ended it.
   */
  code: z.number().int(),
  message: z.string().nullable(),
  createdOn: z.iso.datetime(),
  startedOn: z.iso.datetime().nullable(),
  finishedOn: z.iso.datetime().nullable(),
});
export type BulkComposeRun = z.infer<typeof BulkComposeRun>;

export const BulkComposeError = z.object({
  /** The column's name, or null for the row as a whole. */
  field: z.string().nullable(),
  code: z.number().int(),
  message: z.string(),
});
export type BulkComposeError = z.infer<typeof BulkComposeError>;

export const BulkComposeFailure = z.object({
  /** 1-based, after the header. */
  row: z.number().int().positive(),
  cells: z.array(z.string()),
  errors: z.array(BulkComposeError),
});
export type BulkComposeFailure = z.infer<typeof BulkComposeFailure>;

export const BulkComposeColumn = z.object({
  name: z.string(),
  mandatory: z.boolean(),
  /** The placeholder's label for a recipient column, the tag's name for a field column. */
  label: z.string(),
});
export type BulkComposeColumn = z.infer<typeof BulkComposeColumn>;

const TemplateParams = z.object({ docTemplateId: z.uuid() });
const RunParams = z.object({ runId: z.uuid() });

export const getBulkComposeColumns = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/bulkcompose/template/:docTemplateId/columns',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary: "The columns of a document template's bulk CSV, which of them the header must have, and what each is for.",
  params: TemplateParams,
  response: z.object({ columns: z.array(BulkComposeColumn) }),
});

export const downloadBulkComposeHeader = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/bulkcompose/template/:docTemplateId/csv',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary:
    "The CSV header template for a document template: per placeholder recipient of its workflow step{n}.recipient{p}.email, firstName, lastName (mandatory), phone, countryCode; then one column per named fillable field tag.",
  params: TemplateParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

export const uploadBulkCompose = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v1/bulkcompose/upload',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary:
    'Upload a bulk CSV (multipart: the field docTemplateId, then the file `file`). Streamed to storage; -182 empty file, -181 mandatory header missing, -175 unknown column, -143 more rows than the install allows. Answers the run (a new one queued, or the one the same file already made).',
  bodyEncoding: 'multipart',
  /** The form field sent before the file (the server reads it from the multipart stream). */
  body: z.object({ docTemplateId: z.uuid() }),
  response: z.object({ run: BulkComposeRun, existing: z.boolean() }),
});

export const listBulkComposeRuns = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/bulkcompose/runs',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary: "The caller's bulk compose runs, newest first (the last 50).",
  response: z.object({ runs: z.array(BulkComposeRun) }),
});

export const getBulkComposeRun = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/bulkcompose/runs/:runId',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary: 'One of the caller\'s runs: its progress and a page of its refused rows with each field\'s code.',
  params: RunParams,
  query: z.object({ page: z.coerce.number().int().positive().default(1) }),
  response: z.object({ run: BulkComposeRun, header: z.array(z.string()), failures: z.array(BulkComposeFailure), page: z.number().int().positive(), pageSize: z.number().int().positive() }),
});

export const downloadBulkComposeFailures = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v1/bulkcompose/runs/:runId/failures',
  access: 'tenant',
  action: 'epak.bulkCompose',
  summary: 'The refused rows of a run as CSV: the cells as uploaded plus an errors column (field: code message); cells a spreadsheet would run as formulas get a leading apostrophe.',
  params: RunParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});
