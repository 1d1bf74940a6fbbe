import { ResponseCode } from '@pakt/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';

/** What one stored file offers to a ranged download (BinaryBody's `ranged`). */
export interface RangedFile {
  readonly size: number;
  readonly etag: string;
  read(range?: { start: number; end: number }): Promise<unknown>;
}

/**
 * Which bytes of the file to send, from the request's Range and If-Range (RFC 9110 §14):
 * - `all`: no Range, one that is not ours to honour, or an If-Range naming other bytes;
 * - `part`: one satisfiable range (overlapping or adjacent ranges are combined first);
 * - `unsatisfiable`: bytes ranges none of which lies inside the file (416).
 *
 * Several disjoint ranges would need a multipart/byteranges answer; the RFC lets a server send
 * the whole file instead, which every client handles, so that is what happens. A malformed Range
 * is ignored, as the RFC says.
 */
export function chooseRange(
  headers: { range?: string | undefined; 'if-range'?: string | undefined },
  file: { size: number; etag: string },
): { kind: 'all' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' } {
  const header = headers.range;
  if (!header) return { kind: 'all' };
  // Only a strong validator that is this file's own allows a part; a date is never ours (no Last-Modified is sent).
  const ifRange = headers['if-range'];
  if (ifRange !== undefined && ifRange.trim() !== quotedEtag(file.etag)) return { kind: 'all' };
  // A suffix longer than the file asks for all of it (RFC 9110 §14.1.2); range-parser would call it unsatisfiable.
  const suffixesFitted = header.replace(/([=,]\s*)-(\d+)(?=\s*(,|$))/g, (spec, before: string, length: string) => (file.size > 0 && Number(length) > file.size ? `${before}0-` : spec));
  const parsed = parseRange(file.size, suffixesFitted, { combine: true });
  if (parsed === -2 || (Array.isArray(parsed) && parsed.type !== 'bytes')) return { kind: 'all' };
  if (parsed === -1) return /^\s*bytes\s*=/i.test(header) ? { kind: 'unsatisfiable' } : { kind: 'all' };
  if (parsed.length !== 1) return { kind: 'all' };
  const [range] = parsed;
  return { kind: 'part', start: range!.start, end: range!.end };
}

function quotedEtag(etag: string): string {
  return `"${etag}"`;
}

/**
 * Sends a stored file whole (200) or the part the client asked for (206), with Accept-Ranges and
 * the ETag that If-Range is matched against; a range outside the file gets 416 with the file's
 * size, and -6 (invalid input) in the body.
 */
export async function sendRangedFile(request: FastifyRequest, reply: FastifyReply, file: RangedFile): Promise<FastifyReply> {
  reply.header('accept-ranges', 'bytes').header('etag', quotedEtag(file.etag));
  const ifRange = request.headers['if-range'];
  const choice = chooseRange({ range: request.headers.range, 'if-range': Array.isArray(ifRange) ? ifRange.join(', ') : ifRange }, file);
  if (choice.kind === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${file.size}`)
      .type('application/json; charset=utf-8')
      .send({ code: ResponseCode.INVALID_INPUT.code, message: `The requested range is not within the file (${file.size} bytes).` });
  }
  if (choice.kind === 'all') return reply.header('content-length', file.size).send(await file.read());
  return reply
    .code(206)
    .header('content-range', `bytes ${choice.start}-${choice.end}/${file.size}`)
    .header('content-length', choice.end - choice.start + 1)
    .send(await file.read({ start: choice.start, end: choice.end }));
}
