import { ResponseCode, type ResponseCodeEntry } from './response-codes';

/**
 * Thrown by commands when a request cannot be served. The server's one error handler turns it
 * into the catalogue code, its HTTP status and the `{ code, data: null, message }` envelope.
 */
export class DomainError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly issues: { path: string; message: string }[] | undefined;
  readonly data: Record<string, unknown> | null;

  constructor(
    entry: ResponseCodeEntry,
    message?: string,
    options?: { issues?: { path: string; message: string }[]; httpStatus?: number; data?: Record<string, unknown> },
  ) {
    super(message ?? entry.meaning);
    this.name = 'DomainError';
    this.code = entry.code;
    this.httpStatus = options?.httpStatus ?? entry.httpStatus;
    this.issues = options?.issues;
    this.data = options?.data ?? null;
  }
}

export const invalidInput = (message: string, issues?: { path: string; message: string }[]) =>
  new DomainError(ResponseCode.INVALID_INPUT, message, issues ? { issues } : undefined);

/** Absent, or present but not the caller's: both are 404 so outsiders learn nothing. */
export const notFound = (message = 'Not found.') =>
  new DomainError(ResponseCode.GENERIC_ERROR, message, { httpStatus: 404 });

export const forbidden = (message = 'Not authorized') =>
  new DomainError(ResponseCode.NOT_AUTHORIZED, message);

/** A password that breaks the rules: -16 with one issue per rule, which forms show per rule. */
export const passwordRejected = (rules: readonly string[], field: string) =>
  new DomainError(ResponseCode.INVALID_PASSWORD, 'passwordInvalid', {
    issues: rules.map((rule) => ({ path: field, message: rule })),
  });
