import { createHash } from 'node:crypto';
import { decodeTextString, type PdfDict, type PdfRef, type PdfValue } from './objects';
import type { PdfFile } from './pdf-file';

/**
 * What one revision of a PDF shows, reduced to digests that a later revision can be compared
 * with: each page's content and the resources it draws with (fonts, images, forms, followed to
 * their streams), each page's annotations, and each form field's value. Two revisions with the
 * same model render the same; a difference says where to look.
 */

export interface AnnotationModel {
  readonly subtype: string;
  /** Widgets belong to form fields and are compared through them. */
  readonly widget: boolean;
  readonly digest: string;
}

export interface PageModel {
  readonly content: string;
  readonly resources: string;
  /** By object number (or position for direct ones), so a moved or replaced annotation is seen. */
  readonly annotations: ReadonlyMap<string, AnnotationModel>;
}

export interface FieldModel {
  readonly type: string;
  /** The value's digest; null when the field has none. */
  readonly value: string | null;
  /** The 1-based page its (first) widget is on, when it has one on a page. */
  readonly page: number | null;
}

export interface RevisionModel {
  readonly pages: readonly PageModel[];
  readonly fields: ReadonlyMap<string, FieldModel>;
}

/** A walk's budget: a crafted file with a huge or cyclic object graph costs bounded work. */
const MAX_NODES = 50_000;
const MAX_DEPTH = 24;
/** Keys that point back up the tree: following them would digest the whole document from anywhere. */
const UPWARD = new Set(['Parent', 'P', 'Annots', 'StructParent', 'StructParents']);

class Digester {
  private nodes = 0;
  constructor(private readonly file: PdfFile) {}

  digest(value: PdfValue | undefined, skip: ReadonlySet<string> = UPWARD): string {
    const hash = createHash('sha256');
    this.feed(hash, value, 0, new Set(), skip);
    return hash.digest('hex');
  }

  private feed(hash: ReturnType<typeof createHash>, value: PdfValue | undefined, depth: number, path: Set<number>, skip: ReadonlySet<string>): void {
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH || !value) return void hash.update('…');
    switch (value.kind) {
      case 'ref': {
        // A cycle is written as a back-reference, not followed.
        if (path.has(value.num)) return void hash.update(`^${value.num}`);
        path.add(value.num);
        this.feed(hash, this.file.lookup(value), depth + 1, path, skip);
        path.delete(value.num);
        return;
      }
      case 'dict':
        hash.update('<<');
        for (const key of [...value.entries.keys()].sort()) {
          if (skip.has(key)) continue;
          hash.update(`/${key}`);
          this.feed(hash, value.entries.get(key), depth + 1, path, skip);
        }
        return void hash.update('>>');
      case 'stream':
        this.feed(hash, value.dict, depth + 1, path, skip);
        hash.update('stream');
        return void hash.update(this.file.streamData(value, { decode: false }));
      case 'array':
        hash.update('[');
        for (const item of value.items) this.feed(hash, item, depth + 1, path, skip);
        return void hash.update(']');
      case 'string':
        return void hash.update(`(${value.bytes.toString('hex')})`);
      case 'name':
        return void hash.update(`/${value.value}`);
      case 'number':
        return void hash.update(`${value.value}`);
      case 'bool':
        return void hash.update(value.value ? 'true' : 'false');
      case 'null':
        return void hash.update('null');
    }
  }
}

function annotationsOf(file: PdfFile, page: PdfDict, digester: Digester): Map<string, AnnotationModel> {
  const found = new Map<string, AnnotationModel>();
  const annots = file.get(page, 'Annots');
  if (annots.kind !== 'array') return found;
  annots.items.forEach((item, index) => {
    const dict = file.resolve(item);
    if (dict.kind !== 'dict') return;
    const subtype = file.get(dict, 'Subtype');
    const name = subtype.kind === 'name' ? subtype.value : 'Unknown';
    const key = item.kind === 'ref' ? `${item.num}` : `#${index}`;
    found.set(key, { subtype: name, widget: name === 'Widget', digest: digester.digest(dict) });
  });
  return found;
}

function fieldsOf(file: PdfFile, digester: Digester, pageOfAnnotation: ReadonlyMap<number, number>): Map<string, FieldModel> {
  const fields = new Map<string, FieldModel>();
  const form = file.acroForm();
  if (!form) return fields;
  const seen = new Set<number>();
  const visit = (ref: PdfRef, parent: string, inheritedType: string, depth: number) => {
    if (seen.has(ref.num) || depth > 32 || seen.size > 10_000) return;
    seen.add(ref.num);
    const dict = file.lookup(ref);
    if (dict.kind !== 'dict') return;
    const partial = file.get(dict, 'T');
    const name = partial.kind === 'string' ? (parent ? `${parent}.${decodeTextString(partial)}` : decodeTextString(partial)) : parent;
    const typeValue = file.get(dict, 'FT');
    const type = typeValue.kind === 'name' ? typeValue.value : inheritedType;
    const kids = file.get(dict, 'Kids');
    const childFields = kids.kind === 'array' ? kids.items.filter((kid): kid is PdfRef => kid.kind === 'ref' && file.lookup(kid).kind === 'dict' && (file.lookup(kid) as PdfDict).entries.has('T')) : [];
    for (const child of childFields) visit(child, name, type, depth + 1);
    if (childFields.length > 0 || !name) return;
    const value = dict.entries.get('V');
    // Its widget: the field itself when it doubles as one, else its kids.
    const widgets = dict.entries.has('Subtype') ? [ref] : kids.kind === 'array' ? kids.items.filter((kid): kid is PdfRef => kid.kind === 'ref') : [];
    const page = widgets.map((widget) => pageOfAnnotation.get(widget.num)).find((index) => index !== undefined) ?? null;
    fields.set(name, {
      page, type, value: value === undefined || file.resolve(value).kind === 'null' ? null : digester.digest(value, new Set([...UPWARD, 'Contents', 'ByteRange'])) });
  };
  for (const field of form.fields) visit(field, '', '', 0);
  return fields;
}

/** The model of the revision `file` is (a prefix of the whole file, opened on its own). */
export function revisionModel(file: PdfFile): RevisionModel {
  const digester = new Digester(file);
  const pages = file.pages().map((page) => {
    const contents = page.dict.entries.get('Contents');
    return {
      content: digester.digest(contents),
      resources: digester.digest(page.resources ?? undefined),
      annotations: annotationsOf(file, page.dict, digester),
    };
  });
  const pageOfAnnotation = new Map<number, number>();
  file.pages().forEach((page, index) => {
    const annots = file.get(page.dict, 'Annots');
    if (annots.kind !== 'array') return;
    for (const item of annots.items) if (item.kind === 'ref' && !pageOfAnnotation.has(item.num)) pageOfAnnotation.set(item.num, index + 1);
  });
  return { pages, fields: fieldsOf(file, digester, pageOfAnnotation) };
}
