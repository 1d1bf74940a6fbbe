import { X509Certificate } from 'node:crypto';
import type { ExistingSignature, ForgeryWarning, RevisionChange, VerifiedRevision } from '@pakt/domain';
import { certificationLevel, type CertificationLevel } from './certification';
import { inspectExistingSignatures } from './existing-signatures';
import { openPdfFile } from './pdf-file';
import { type RevisionModel, revisionModel } from './revision-models';

/**
 * The verifier's reading of a PDF (issue 20, /verify): its signatures (existing-signatures.ts),
 * its revisions and what each changed against the one before (revision-models.ts), whether each
 * change is allowed after the signatures before it, and the known forgery classes this shows:
 * incremental saving (content changed after a signature), signature wrapping (a byte range that
 * leaves out more than its value), universal forgery (a signature with no usable value or range),
 * and the shadow attacks (hide: something drawn over the signed page; replace: a signed field's
 * value swapped; hide-and-replace: an object the page draws replaced). Runs in the sandbox child.
 */

export interface AnalysedSignature extends ExistingSignature {
  subject: string | null;
  issuer: string | null;
  /** The signer's certificate (DER, base64), for the server to match against its tenants' CAs. */
  certificate: string | null;
  revision: number | null;
}

export interface PdfAnalysis {
  certificationLevel: CertificationLevel | null;
  signatures: AnalysedSignature[];
  revisions: VerifiedRevision[];
  warnings: ForgeryWarning[];
}

/** Where each revision ends: after each %%EOF and its end of line, and the file's end. */
export function revisionEnds(buffer: Buffer): number[] {
  const ends: number[] = [];
  for (let at = buffer.indexOf('%%EOF', 0, 'latin1'); at !== -1; at = buffer.indexOf('%%EOF', at + 5, 'latin1')) {
    let end = at + 5;
    while (end < buffer.length && (buffer[end] === 0x0d || buffer[end] === 0x0a)) end++;
    ends.push(end);
  }
  if (ends.length === 0 || ends[ends.length - 1]! < buffer.length) ends.push(buffer.length);
  return ends;
}

const ALLOWED_AFTER_SIGNING: Record<'none' | 1 | 2 | 3, ReadonlySet<RevisionChange['kind']>> = {
  // Not certified: the ordinary rules of approval signatures: fill in, sign, comment.
  none: new Set(['formFieldFilled', 'signatureAdded', 'annotationAdded', 'annotationChanged', 'annotationRemoved']),
  1: new Set(),
  2: new Set(['formFieldFilled', 'signatureAdded']),
  3: new Set(['formFieldFilled', 'signatureAdded', 'annotationAdded', 'annotationChanged', 'annotationRemoved']),
};

function compare(before: RevisionModel, after: RevisionModel): Omit<RevisionChange, 'allowed'>[] {
  const changes: Omit<RevisionChange, 'allowed'>[] = [];
  const pages = Math.max(before.pages.length, after.pages.length);
  for (let index = 0; index < pages; index++) {
    const old = before.pages[index];
    const now = after.pages[index];
    const page = index + 1;
    if (!old) {
      changes.push({ kind: 'newPage', page, name: null, detail: `Page ${page} was added.` });
      continue;
    }
    if (!now) {
      changes.push({ kind: 'removedPage', page, name: null, detail: `Page ${page} was removed.` });
      continue;
    }
    if (old.content !== now.content) changes.push({ kind: 'pageContent', page, name: null, detail: `What page ${page} draws was changed.` });
    if (old.resources !== now.resources) changes.push({ kind: 'pageResources', page, name: null, detail: `A font, image or drawing that page ${page} uses was replaced.` });
    for (const [key, annotation] of now.annotations) {
      if (annotation.widget) continue;
      const was = old.annotations.get(key);
      if (!was) changes.push({ kind: 'annotationAdded', page, name: annotation.subtype, detail: `A ${annotation.subtype} annotation was added on page ${page}.` });
      else if (was.digest !== annotation.digest) changes.push({ kind: 'annotationChanged', page, name: annotation.subtype, detail: `A ${annotation.subtype} annotation on page ${page} was changed.` });
    }
    for (const [key, annotation] of old.annotations) {
      if (!annotation.widget && !now.annotations.has(key)) changes.push({ kind: 'annotationRemoved', page, name: annotation.subtype, detail: `A ${annotation.subtype} annotation was removed from page ${page}.` });
    }
  }
  for (const [name, field] of after.fields) {
    const was = before.fields.get(name);
    if (field.value === (was?.value ?? null)) continue;
    const page = field.page;
    if (field.type === 'Sig') changes.push({ kind: 'signatureAdded', page, name, detail: `The signature field "${name}" was signed.` });
    else if (!was?.value) changes.push({ kind: 'formFieldFilled', page, name, detail: `The form field "${name}" was filled in.` });
    else changes.push({ kind: 'formFieldChanged', page, name, detail: `The value of the form field "${name}" was replaced.` });
  }
  return changes;
}

function certificateNames(der: string | null): { subject: string | null; issuer: string | null } {
  if (!der) return { subject: null, issuer: null };
  try {
    const certificate = new X509Certificate(Buffer.from(der, 'base64'));
    return { subject: certificate.subject.replace(/\n/g, ', '), issuer: certificate.issuer.replace(/\n/g, ', ') };
  } catch {
    return { subject: null, issuer: null };
  }
}

export function analysePdf(buffer: Buffer): PdfAnalysis {
  const file = openPdfFile(buffer);
  const level = certificationLevel(file);
  const state = inspectExistingSignatures(file, { keepCertificates: true });
  const ends = revisionEnds(buffer);

  // Each revision's model; a prefix that does not open on its own (a linearized file's first
  // part) is folded into the next revision.
  const models: { end: number; model: RevisionModel }[] = [];
  for (const end of ends) {
    try {
      models.push({ end, model: revisionModel(end === buffer.length ? file : openPdfFile(buffer.subarray(0, end))) });
    } catch {
      continue;
    }
  }
  const revisionOf = (end: number) => {
    const index = models.findIndex((entry) => entry.end >= end);
    return index === -1 ? null : index + 1;
  };
  const signatures: AnalysedSignature[] = state.signatures.map((signature) => {
    const end = buffer.length - signature.unsignedBytesAfter;
    return { ...signature, ...certificateNames(signature.certificate), revision: signature.problem?.startsWith('its byte range') ? null : revisionOf(end) };
  });

  const allowedSet = ALLOWED_AFTER_SIGNING[level ?? 'none'];
  const revisions: VerifiedRevision[] = models.map((entry, index) => {
    const number = index + 1;
    const signedBefore = signatures.some((signature) => signature.revision !== null && signature.revision < number);
    const changes = index === 0 ? [] : compare(models[index - 1]!.model, entry.model).map((change) => ({ ...change, allowed: !signedBefore || allowedSet.has(change.kind) }));
    const signedBy = signatures.find((signature) => signature.revision === number)?.fieldName ?? null;
    // Where the changes show is rendered by the verifier's child (features/verify/change-regions.ts).
    return { number, endOffset: entry.end, signedBy, changes, regions: [] };
  });

  return { certificationLevel: level, signatures, revisions, warnings: forgeryWarnings(signatures, revisions) };
}

function forgeryWarnings(signatures: readonly AnalysedSignature[], revisions: readonly VerifiedRevision[]): ForgeryWarning[] {
  const warnings: ForgeryWarning[] = [];
  for (const signature of signatures) {
    if (signature.problem === 'its byte range leaves out more than its own signature value') {
      warnings.push({ kind: 'signatureWrapping', signature: signature.fieldName, detail: `The signature "${signature.fieldName}" leaves part of the file outside what it signs: bytes there can be changed without breaking it.` });
    } else if (signature.problem?.startsWith('its byte range') || ['the signature has no value', 'not a CMS SignedData', 'the signature has no message digest'].includes(signature.problem ?? '')) {
      warnings.push({ kind: 'universalForgery', signature: signature.fieldName, detail: `The signature "${signature.fieldName}" has no usable value or byte range: it signs nothing, whatever a viewer shows.` });
    }
  }
  for (const revision of revisions) {
    const after = signatures.filter((signature) => signature.revision !== null && signature.revision < revision.number).map((signature) => signature.fieldName);
    if (after.length === 0) continue;
    const last = after[after.length - 1]!;
    for (const change of revision.changes) {
      const where = change.page ? ` on page ${change.page}` : '';
      if (change.kind === 'pageContent' || change.kind === 'newPage' || change.kind === 'removedPage') {
        warnings.push({ kind: 'incrementalSaving', signature: last, detail: `Revision ${revision.number} changed what the document shows${where} after "${last}" was signed.` });
      } else if (change.kind === 'pageResources') {
        warnings.push({ kind: 'shadowHideAndReplace', signature: last, detail: `Revision ${revision.number} replaced an object the page draws${where} after "${last}" was signed.` });
      } else if (change.kind === 'annotationAdded' || change.kind === 'annotationChanged') {
        warnings.push({ kind: 'shadowHide', signature: last, detail: `Revision ${revision.number} put an annotation${where} over the signed page after "${last}" was signed: it may hide what was signed.` });
      } else if (change.kind === 'formFieldChanged') {
        warnings.push({ kind: 'shadowReplace', signature: last, detail: `Revision ${revision.number} replaced the value of "${change.name}", filled in before "${last}" was signed.` });
      }
    }
  }
  return warnings;
}
