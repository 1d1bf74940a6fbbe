import zlib from 'node:zlib';

/*
 * Writes small PDFs byte by byte for the reader's tests, so each test controls exactly what the
 * file holds: sloppy whitespace, xref streams with predictors, hybrid sections, broken chains.
 * (pdf-lib writes well-formed files only, and never hybrid ones or incremental updates.)
 */

export type TestEntry = { type: 'n'; offset: number; gen?: number } | { type: 'c'; streamNum: number; index: number } | { type: 'f'; gen?: number; next?: number };

export class TestPdfBuilder {
  private readonly parts: Buffer[] = [];
  length = 0;
  /** Where each object was last written. */
  readonly offsets = new Map<number, number>();

  constructor(header = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n') {
    this.raw(header);
  }

  /** Appends bytes; returns where they start. */
  raw(data: string | Buffer): number {
    const at = this.length;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    this.parts.push(bytes);
    this.length += bytes.length;
    return at;
  }

  object(num: number, body: string, gen = 0): number {
    const at = this.raw(`${num} ${gen} obj\n${body}\nendobj\n`);
    this.offsets.set(num, at);
    return at;
  }

  /** A stream object; `dict` is the dictionary's inside, /Length is added. */
  stream(num: number, dict: string, data: Buffer, gen = 0): number {
    const at = this.raw(`${num} ${gen} obj\n<<${dict} /Length ${data.length}>>\nstream\n`);
    this.raw(data);
    this.raw('\nendstream\nendobj\n');
    this.offsets.set(num, at);
    return at;
  }

  /** An object stream holding `objects` (number, source), FlateDecode. */
  objectStream(num: number, objects: Array<[number, string]>): number {
    let body = '';
    const header: string[] = [];
    for (const [objectNum, source] of objects) {
      header.push(`${objectNum} ${body.length}`);
      body += `${source}\n`;
    }
    const head = `${header.join(' ')}\n`;
    const data = zlib.deflateSync(Buffer.from(head + body, 'latin1'));
    return this.stream(num, `/Type /ObjStm /N ${objects.length} /First ${head.length} /Filter /FlateDecode`, data);
  }

  /** In-use entries for objects written so far. */
  entriesFor(nums: number[]): Array<[number, TestEntry]> {
    return nums.map((num) => {
      const offset = this.offsets.get(num);
      if (offset === undefined) throw new Error(`object ${num} was not written`);
      return [num, { type: 'n', offset }];
    });
  }

  /**
   * A classic table: consecutive numbers become one subsection. `eol` is the two bytes ending each
   * entry (the standard's " \n" or "\r\n"; sloppy files use anything). Returns the table's offset.
   */
  xrefTable(entries: Array<[number, TestEntry]>, trailer: string, options: { eol?: string; startxref?: boolean } = {}): number {
    const eol = options.eol ?? '\r\n';
    const sorted = [...entries].sort((a, b) => a[0] - b[0]);
    let text = 'xref\n';
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1]![0] === sorted[j]![0] + 1) j++;
      text += `${sorted[i]![0]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) {
        const entry = sorted[k]![1];
        if (entry.type === 'c') throw new Error('a table cannot hold compressed entries');
        const first = entry.type === 'n' ? entry.offset : (entry.next ?? 0);
        text += `${String(first).padStart(10, '0')} ${String(entry.gen ?? (entry.type === 'f' ? 65535 : 0)).padStart(5, '0')} ${entry.type}${eol}`;
      }
      i = j + 1;
    }
    const at = this.raw(`${text}trailer\n${trailer}\n`);
    if (options.startxref !== false) this.startxref(at);
    return at;
  }

  /**
   * A cross-reference stream object `num` (its own entry is added). `dict` adds trailer keys.
   * With `predictor`, rows are PNG-Up encoded (/Predictor 12), as most writers do.
   */
  xrefStream(num: number, entries: Array<[number, TestEntry]>, dict: string, options: { predictor?: boolean; widths?: [number, number, number]; startxref?: boolean } = {}): number {
    const widths = options.widths ?? [1, 4, 2];
    const at = this.length;
    const all = [...entries, [num, { type: 'n', offset: at }] as [number, TestEntry]].sort((a, b) => a[0] - b[0]);
    const index: number[] = [];
    for (let i = 0; i < all.length; ) {
      let j = i;
      while (j + 1 < all.length && all[j + 1]![0] === all[j]![0] + 1) j++;
      index.push(all[i]![0], j - i + 1);
      i = j + 1;
    }
    const rowLength = widths[0] + widths[1] + widths[2];
    const rows = all.map(([, entry]) => {
      const fields =
        entry.type === 'n' ? [1, entry.offset, entry.gen ?? 0] : entry.type === 'c' ? [2, entry.streamNum, entry.index] : [0, entry.next ?? 0, entry.gen ?? 0];
      const row = Buffer.alloc(rowLength);
      let pos = 0;
      fields.forEach((value, f) => {
        for (let b = widths[f]! - 1; b >= 0; b--) row[pos + b] = Math.floor(value / 256 ** (widths[f]! - 1 - b)) & 0xff;
        pos += widths[f]!;
      });
      return row;
    });
    let data: Buffer;
    let params = '';
    if (options.predictor) {
      // PNG "Up": each byte minus the byte above it, after a filter-type byte of 2.
      const encoded = rows.map((row, r) => Buffer.concat([Buffer.from([2]), Buffer.from(row.map((byte, i) => (byte - (r > 0 ? rows[r - 1]![i]! : 0)) & 0xff))]));
      data = Buffer.concat(encoded);
      params = ` /DecodeParms <</Predictor 12 /Columns ${rowLength}>>`;
    } else data = Buffer.concat(rows);
    this.stream(num, `/Type /XRef /W [${widths.join(' ')}] /Index [${index.join(' ')}] /Filter /FlateDecode${params} ${dict}`, zlib.deflateSync(data));
    if (options.startxref !== false) this.startxref(at);
    return at;
  }

  startxref(offset: number): void {
    this.raw(`startxref\n${offset}\n%%EOF\n`);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** The usual three objects of a one-page document: 1 catalog, 2 pages, 3 page. */
export function writeOnePageBody(pdf: TestPdfBuilder, page = '<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>>'): void {
  pdf.object(1, '<</Type /Catalog /Pages 2 0 R>>');
  pdf.object(2, '<</Type /Pages /Kids [3 0 R] /Count 1>>');
  pdf.object(3, page);
}

/**
 * A one-page document certified by its author at DocMDP level `p` (ISO 32000-1 §12.8.2.2): the
 * catalog's /Perms names a signature whose reference says which changes are allowed. The
 * signature's bytes are not real; the certification is read from the dictionaries alone.
 */
export function certifiedPdf(p: 1 | 2 | 3): Buffer {
  const pdf = new TestPdfBuilder();
  pdf.object(1, '<</Type /Catalog /Pages 2 0 R /Perms <</DocMDP 4 0 R>>>>');
  pdf.object(2, '<</Type /Pages /Kids [3 0 R] /Count 1>>');
  pdf.object(3, '<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]>>');
  pdf.object(
    4,
    `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 0 0 0] /Contents <00> /Reference [<</Type /SigRef /TransformMethod /DocMDP /TransformParams <</Type /TransformParams /P ${p} /V /1.2>>>>]>>`,
  );
  pdf.xrefTable([[0, { type: 'f' }], ...pdf.entriesFor([1, 2, 3, 4])], '<</Size 5 /Root 1 0 R>>');
  return pdf.toBuffer();
}
