import type { PdfFile } from './pdf-file';

/**
 * The author's certification of a document (ISO 32000-1 §12.8.2.2, DocMDP): which changes they
 * allow after it. 1: none. 2: filling in the author's form fields and signing its signature
 * fields. 3: that, and annotations. null: the document is not certified.
 */
export type CertificationLevel = 1 | 2 | 3;

export function certificationLevel(file: PdfFile): CertificationLevel | null {
  const perms = file.get(file.catalog.dict, 'Perms');
  if (perms.kind !== 'dict') return null;
  const docMdp = file.get(perms, 'DocMDP');
  if (docMdp.kind !== 'dict') return null;
  const references = file.get(docMdp, 'Reference');
  if (references.kind !== 'array') return null;
  for (const item of references.items) {
    const reference = file.resolve(item);
    if (reference.kind !== 'dict') continue;
    const method = file.get(reference, 'TransformMethod');
    if (method.kind !== 'name' || method.value !== 'DocMDP') continue;
    const params = file.get(reference, 'TransformParams');
    const p = params.kind === 'dict' ? file.get(params, 'P') : null;
    // Absent, /P means 2 (Table 254); any other value is read as the strictest.
    if (!p || p.kind === 'null') return 2;
    return p.kind === 'number' && (p.value === 2 || p.value === 3) ? p.value : 1;
  }
  return null;
}

/**
 * Why Pakt cannot sign a certified document, or null when it may. Pakt adds a signature field
 * (and fields for the signer's values) of its own, which every certification level forbids:
 * level 1 allows no change, levels 2 and 3 only filling and signing the author's own fields.
 */
export function certificationRefusal(level: CertificationLevel | null): string | null {
  if (level === null) return null;
  if (level === 1) return 'This document is certified with "no changes allowed": another signature would break its certification.';
  return 'This document is certified by its author to allow only filling and signing its own fields: the signature fields Pakt adds would break its certification. Upload a copy that is not certified.';
}
