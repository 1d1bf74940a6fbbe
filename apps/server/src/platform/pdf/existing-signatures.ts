import type { DocumentSignatureState, ExistingSignature } from '@pakt/domain';
import { checkDetachedCms } from '../signing/cms-verify';
import { decodeTextString } from './objects';
import type { PdfFile } from './pdf-file';

/**
 * The signatures a PDF carries when it is uploaded (issue 20, defect 5): for each, whether the
 * bytes it covers are the bytes that were signed, whether its /ByteRange is sound (it leaves out
 * exactly its own /Contents, nothing more), and how much of the file came after it unsigned. A
 * file whose signatures are broken, or that was changed after its last signature, would be sealed
 * over without a word otherwise: the custodian and the signers are told, and a tenant can refuse
 * such files.
 */

const HEX = /^[0-9a-fA-F\s]*$/;
const WHITESPACE = /^[\s\0]*$/;

/** "D:YYYYMMDDHHmmSS+hh'mm'" (ISO 32000-1 §7.9.4) as an ISO instant, or null. */
export function pdfDateToIso(text: string): string | null {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?/.exec(text.trim());
  if (!match) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', sign, offsetHours = '00', offsetMinutes = '00'] = match;
  const offset = sign === '+' || sign === '-' ? `${sign}${offsetHours}:${offsetMinutes}` : 'Z';
  const at = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** What is wrong with a /ByteRange for this file, or null when it leaves out exactly its /Contents. */
function byteRangeProblem(buffer: Buffer, range: readonly number[]): string | null {
  if (range.length !== 4 || range.some((n) => !Number.isInteger(n) || n < 0)) return 'its byte range is not two ranges of whole bytes';
  const [start, firstLength, second, secondLength] = range as [number, number, number, number];
  if (start !== 0) return 'its byte range does not start at the beginning of the file';
  if (second <= firstLength || second + secondLength > buffer.length) return 'its byte range runs backwards or past the end of the file';
  const hole = buffer.subarray(firstLength, second);
  const isContents = hole[0] === 0x3c && hole[hole.length - 1] === 0x3e && HEX.test(hole.subarray(1, -1).toString('latin1'));
  return isContents ? null : 'its byte range leaves out more than its own signature value';
}

/** The revisions (end-of-file markers) after `offset`. */
function revisionsAfter(buffer: Buffer, offset: number): number {
  let count = 0;
  for (let at = buffer.indexOf('%%EOF', offset, 'latin1'); at !== -1; at = buffer.indexOf('%%EOF', at + 5, 'latin1')) count++;
  return count;
}

/** A signature as inspected, with its signer's certificate (DER, base64) when one was found: the verifier needs it, the upload does not keep it. */
export type InspectedSignature = ExistingSignature & { certificate: string | null };

function inspectOne(file: PdfFile, fieldName: string, value: ReturnType<PdfFile['get']>): InspectedSignature {
  const buffer = file.buffer;
  const dict = value.kind === 'dict' ? value : null;
  const text = (key: string) => {
    const entry = dict ? file.get(dict, key) : null;
    return entry?.kind === 'string' ? decodeTextString(entry) : null;
  };
  const name = (key: string) => {
    const entry = dict ? file.get(dict, key) : null;
    return entry?.kind === 'name' ? entry.value : null;
  };
  const rangeValue = dict ? file.get(dict, 'ByteRange') : null;
  const range = rangeValue?.kind === 'array' ? rangeValue.items.map((item) => (item.kind === 'number' ? item.value : Number.NaN)) : [];
  const subFilter = name('SubFilter');
  const signedAt = pdfDateToIso(text('M') ?? '');
  const base = { fieldName, subFilter, signedAt, reason: text('Reason') };
  const problem = byteRangeProblem(buffer, range);
  if (problem) {
    return { ...base, signerName: text('Name'), integrity: 'broken', problem, coversWholeFile: false, unsignedBytesAfter: 0, revisionsAfter: 0, certificate: null };
  }
  const [, firstLength, second, secondLength] = range as [number, number, number, number];
  const end = second + secondLength;
  const signedBytes = Buffer.concat([buffer.subarray(0, firstLength), buffer.subarray(second, end)]);
  // The value is read from the file's bytes, as verifiers do: it is never encrypted (§7.6.1).
  const hex = buffer.subarray(firstLength + 1, second - 1).toString('latin1').replace(/\s+/g, '');
  const cms = Buffer.from(hex.length % 2 === 0 ? hex : `${hex}0`, 'hex');
  const check = checkDetachedCms(cms, signedBytes, { timestamp: subFilter === 'ETSI.RFC3161' });
  const after = buffer.subarray(end);
  const coversWholeFile = WHITESPACE.test(after.toString('latin1'));
  return {
    ...base,
    signerName: check.signerName ?? text('Name'),
    integrity: check.result,
    problem: check.result === 'intact' ? null : check.reason,
    coversWholeFile,
    unsignedBytesAfter: coversWholeFile ? 0 : after.length,
    revisionsAfter: coversWholeFile ? 0 : revisionsAfter(buffer, end),
    certificate: check.certificate ? check.certificate.toString('base64') : null,
  };
}

function withoutCertificate(signature: InspectedSignature): ExistingSignature {
  const { certificate: _certificate, ...rest } = signature;
  return rest;
}

/**
 * Every signature in the file's form, in the order they cover the file, and a verdict:
 * unsigned; intact (each checks out, the last covers the whole file); changedAfterSigning
 * (each checks out, but bytes were added after the last); broken (one does not check out or
 * leaves out more than its value); unverifiable (one is of a kind Pakt cannot check).
 */
export function inspectExistingSignatures(file: PdfFile): DocumentSignatureState;
export function inspectExistingSignatures(file: PdfFile, options: { keepCertificates: true }): Omit<DocumentSignatureState, 'signatures'> & { signatures: InspectedSignature[] };
export function inspectExistingSignatures(file: PdfFile, options: { keepCertificates?: boolean } = {}): DocumentSignatureState {
  const signatures = file
    .signatureFields()
    .filter((field) => field.signed)
    .map((field) => {
      const fieldDict = file.lookup(field.ref);
      return inspectOne(file, field.name, fieldDict.kind === 'dict' ? file.get(fieldDict, 'V') : fieldDict);
    });
  const ends = signatures.map((signature) => (signature.coversWholeFile ? Number.POSITIVE_INFINITY : file.buffer.length - signature.unsignedBytesAfter));
  const ordered = signatures.map((signature, index) => ({ signature, end: ends[index]! })).sort((a, b) => a.end - b.end);
  // The stored state carries no certificates: only the verifier asks for them.
  const sorted = ordered.map((entry) => (options.keepCertificates ? entry.signature : withoutCertificate(entry.signature)));
  const last = sorted[sorted.length - 1];
  let status: DocumentSignatureState['status'] = 'unsigned';
  if (sorted.some((signature) => signature.integrity === 'broken')) status = 'broken';
  else if (sorted.some((signature) => signature.integrity === 'unverifiable')) status = 'unverifiable';
  else if (last && !last.coversWholeFile) status = 'changedAfterSigning';
  else if (last) status = 'intact';
  return { status, signatures: sorted };
}
