import {
  ASSIGNABLE_ROLES,
  BULK_COMPOSE_CSV_FIELD_ERRORS,
  type CsvInviteFailure,
  type CsvInviteResult,
  DomainError,
  EmailAddress,
  INVITE_CSV_COLUMNS,
  INVITE_CSV_MAX_ROWS,
  INVITE_CSV_REQUIRED,
  type Invitee,
  ResponseCode,
  toCsv,
} from '@pakt/domain';
import { parseCsv } from '../../platform/csv';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { memberships, users } from '../../platform/db/schema';
import { inviteMembers } from '../identity';

type Column = (typeof INVITE_CSV_COLUMNS)[number];

/** The template: the header line, nothing else (an example row would be invited if sent back as is). */
export function inviteCsvTemplate(): string {
  return toCsv([[...INVITE_CSV_COLUMNS]]);
}

const NAME = z.string().trim().min(1).max(100);
const MIDDLE = z.string().trim().max(100);

/**
 * Invites the people of a CSV file (issue 7): the file is checked as a whole first (-182 empty,
 * -181 a required column missing, -175 an unknown or repeated column, -143 too many rows), then
 * row by row; the good rows are invited together (one transaction, audited, mailed) and every
 * bad one is reported by line and field. -222 when some rows failed, -174 when all did.
 */
export async function inviteFromCsv(options: { db: Db; tenant: { id: string; name: string }; text: string; invitedBy: string; publicUrl: string }): Promise<CsvInviteResult> {
  const rows = parseCsv(options.text);
  const header = (rows[0] ?? []).map((name) => name.trim());
  if (rows.length === 0 || header.every((name) => name === '')) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The file is empty.');
  const missing = INVITE_CSV_REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new DomainError(ResponseCode.CSV_MANDATORY_HEADERS, `The header must name ${missing.join(', ')}.`, { data: { missing, expected: [...INVITE_CSV_COLUMNS] } });
  }
  const unknown = header.filter((name, index) => !(INVITE_CSV_COLUMNS as readonly string[]).includes(name) || header.indexOf(name) !== index);
  if (unknown.length > 0) {
    throw new DomainError(ResponseCode.CSV_HEADER_COUNT_MISMATCH, `The header has columns the template does not: ${unknown.join(', ')}.`, { data: { unknown, expected: [...INVITE_CSV_COLUMNS] } });
  }
  const lines = rows.slice(1);
  if (lines.length === 0) throw new DomainError(ResponseCode.EMPTY_FILE_IMPORTED, 'The file has a header but nobody to invite.');
  if (lines.length > INVITE_CSV_MAX_ROWS) {
    throw new DomainError(ResponseCode.CSV_RECORD_LIMIT_EXCEEDED, `A file may invite ${INVITE_CSV_MAX_ROWS} people at most; this one has ${lines.length} rows.`);
  }

  const failed: CsvInviteFailure[] = [];
  const candidates: Array<{ line: number; invitee: Invitee }> = [];
  const firstLineOf = new Map<string, number>();
  lines.forEach((fields, index) => {
    const line = index + 2;
    const value = (column: Column) => fields[header.indexOf(column)] ?? '';
    const rawEmail = value('email').trim();
    const fail = (field: Column | null, code: number, message: string) => failed.push({ line, email: rawEmail, field, code, message });
    if (fields.length !== header.length) return fail(null, ResponseCode.CSV_HEADER_COUNT_MISMATCH.code, `This line has ${fields.length} fields; the header has ${header.length}.`);
    const email = EmailAddress.safeParse(rawEmail.toLowerCase());
    if (!email.success) return fail('email', BULK_COMPOSE_CSV_FIELD_ERRORS.email, 'Not an e-mail address.');
    const firstName = NAME.safeParse(value('firstName'));
    if (!firstName.success) return fail('firstName', BULK_COMPOSE_CSV_FIELD_ERRORS.firstName, 'A first name of 1 to 100 characters is needed.');
    const lastName = NAME.safeParse(value('lastName'));
    if (!lastName.success) return fail('lastName', BULK_COMPOSE_CSV_FIELD_ERRORS.lastName, 'A last name of 1 to 100 characters is needed.');
    const middleName = MIDDLE.safeParse(value('middleName'));
    if (!middleName.success) return fail('middleName', ResponseCode.INVALID_INPUT.code, 'A middle name has 100 characters at most.');
    const role = value('role').trim();
    if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) return fail('role', ResponseCode.INVALID_INPUT.code, `The role must be one of ${ASSIGNABLE_ROLES.join(', ')}.`);
    const earlier = firstLineOf.get(email.data);
    if (earlier !== undefined) return fail('email', ResponseCode.INVALID_INPUT.code, `Already on line ${earlier}.`);
    firstLineOf.set(email.data, line);
    candidates.push({
      line,
      invitee: { email: email.data, firstName: firstName.data, middleName: middleName.data || undefined, lastName: lastName.data, role: role as Invitee['role'] },
    });
  });

  // Who cannot be invited here, known before inviting, so the good rows go in one transaction.
  const emails = candidates.map((c) => c.invitee.email);
  const known = emails.length === 0 ? [] : await options.db.select().from(users).where(inArray(users.email, emails));
  const members =
    known.length === 0
      ? new Set<string>()
      : new Set(
          (
            await options.db
              .select({ userId: memberships.userId })
              .from(memberships)
              .where(and(eq(memberships.tenantId, options.tenant.id), inArray(memberships.userId, known.map((u) => u.id))))
          ).map((m) => m.userId),
        );
  const byEmail = new Map(known.map((u) => [u.email, u]));
  const good = candidates.filter(({ line, invitee }) => {
    const user = byEmail.get(invitee.email);
    const fail = (code: number, message: string) => failed.push({ line, email: invitee.email, field: 'email', code, message });
    if (user?.isRoot) return fail(ResponseCode.INVALID_INPUT.code, 'The instance administrator belongs to no tenant.'), false;
    if (user?.disabledAt) return fail(ResponseCode.USER_DISABLED.code, 'This account is disabled.'), false;
    if (user && members.has(user.id)) return fail(ResponseCode.USER_WITH_TENANT.code, 'Already a member of this tenant, or invited.'), false;
    return true;
  });

  const invitedRows =
    good.length === 0 ? [] : await inviteMembers({ db: options.db, tenant: options.tenant, users: good.map((g) => g.invitee), invitedBy: options.invitedBy, publicUrl: options.publicUrl });
  const result: CsvInviteResult = {
    invited: invitedRows.map((row, index) => ({ line: good[index]!.line, email: row.email, userId: row.userId })),
    failed: failed.sort((a, b) => a.line - b.line),
  };
  if (result.failed.length === 0) return result;
  if (result.invited.length > 0) {
    throw new DomainError(ResponseCode.PARTIAL_FAILURE, `${result.invited.length} invited; ${result.failed.length} rows were not.`, { data: result });
  }
  throw new DomainError(ResponseCode.BULK_COMPOSE_CSV_VALIDATION, 'No row of the file could be invited.', { data: result });
}
