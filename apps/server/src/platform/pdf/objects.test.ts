import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PdfStructureError } from './errors';
import {
  cloneValue,
  decodeTextString,
  parseIndirectObjectAt,
  parseValue,
  PDF_NULL,
  pdfArray,
  pdfBool,
  pdfDict,
  pdfName,
  pdfNumber,
  pdfRef,
  pdfString,
  pdfTextString,
  serializeIndirect,
  serializeValue,
  type PdfValue,
} from './objects';

const parse = (text: string) => parseValue(Buffer.from(text, 'latin1'), 0).value;
const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('parseValue: every kind of value', () => {
  it('reads null and booleans', () => {
    expect(parse('null')).toEqual(PDF_NULL);
    expect(parse(' true')).toEqual(pdfBool(true));
    expect(parse('false ')).toEqual(pdfBool(false));
  });

  it.each([
    ['0', 0, undefined],
    ['123', 123, undefined],
    ['-17', -17, undefined],
    ['+17', 17, '+17'],
    ['34.5', 34.5, undefined],
    ['-3.62', -3.62, undefined],
    ['.5', 0.5, '.5'],
    ['-.002', -0.002, '-.002'],
    ['4.', 4, '4.'],
    ['0.50', 0.5, '0.50'],
    ['007', 7, '007'],
    ['123456789012', 123456789012, undefined],
  ])('reads the number %s, keeping its text when the canonical form differs', (text, value, raw) => {
    expect(parse(text)).toEqual(pdfNumber(value, raw));
    expect(serializeValue(parse(text)).toString('latin1')).toBe(text);
  });

  it('refuses malformed numbers', () => {
    for (const text of ['1.2.3', '--5', '5-', '+', '.', '1e5']) expect(() => parse(text), text).toThrow(PdfStructureError);
  });

  it('tells references from pairs of numbers', () => {
    expect(parse('12 0 R')).toEqual(pdfRef(12, 0));
    expect(parse('12 3R')).toEqual(pdfNumber(12)); // R glued to the number is not a keyword of its own
    expect(parse('[1 0 R 2 0 R 3]')).toEqual(pdfArray([pdfRef(1), pdfRef(2), pdfNumber(3)]));
    expect(parse('[1 0 2 0]')).toEqual(pdfArray([1, 0, 2, 0].map((n) => pdfNumber(n))));
    expect(() => parse('[1 -2 R]')).toThrow(/unexpected "R"/);
    expect(parse('[1\n0\r\nR]')).toEqual(pdfArray([pdfRef(1)]));
    expect(parse('[1 0 %comment\nR]')).toEqual(pdfArray([pdfRef(1)]));
    expect(() => parse('[1 0 RG]')).toThrow(/unexpected "RG"/);
  });

  it('reads names with #xx escapes, the empty name, and names ending at delimiters', () => {
    expect(parse('/Type')).toEqual(pdfName('Type'));
    expect(parse('/A#20B')).toEqual(pdfName('A B'));
    expect(parse('/Lime#20Green')).toEqual(pdfName('Lime Green'));
    expect(parse('/paired#28#29parentheses')).toEqual(pdfName('paired()parentheses'));
    expect(parse('/The_Key_of_F#23_Minor')).toEqual(pdfName('The_Key_of_F#_Minor'));
    expect(parse('/A#zz')).toEqual(pdfName('A#zz')); // PDF 1.1: # was an ordinary character
    expect(parse('/#C3#A9')).toEqual(pdfName('\xc3\xa9')); // UTF-8 bytes, one latin1 character each
    expect(parse('[/]')).toEqual(pdfArray([pdfName('')]));
    expect(parse('[/A/B(c)/D<00>/E[/F]]')).toEqual(
      pdfArray([pdfName('A'), pdfName('B'), pdfString('c'), pdfName('D'), pdfString(Buffer.from([0]), true), pdfName('E'), pdfArray([pdfName('F')])]),
    );
  });

  it('reads literal strings: nesting, escapes, octal, line ends', () => {
    expect(parse('(This is a string)')).toEqual(pdfString('This is a string'));
    expect(parse('(Strings may contain (balanced) parentheses ( ) and special characters (*!&}^% and so on).)')).toEqual(
      pdfString('Strings may contain (balanced) parentheses ( ) and special characters (*!&}^% and so on).'),
    );
    expect(parse('()')).toEqual(pdfString(''));
    expect(parse('(\\n\\r\\t\\b\\f\\(\\)\\\\)')).toEqual(pdfString('\n\r\t\b\f()\\'));
    expect(parse('(\\0\\53\\053\\0533\\377\\400)')).toEqual(pdfString(Buffer.from([0, 0o53, 0o53, 0o53, 0x33, 0xff, 0])));
    expect(parse('(a\\\nb\\\r\nc\\\rd)')).toEqual(pdfString('abcd')); // backslash + end of line: continued
    expect(parse('(a\rb\r\nc\nd)')).toEqual(pdfString('a\nb\nc\nd')); // bare ends of line are LF
    expect(parse('(\\q\\%)')).toEqual(pdfString('q%')); // unknown escapes stand for the character
    expect(parse('(\xe9\x00\xff)')).toEqual(pdfString(Buffer.from([0xe9, 0, 0xff])));
  });

  it('reads hex strings, ignoring whitespace, padding an odd digit', () => {
    expect(parse('<4E6F762073686D6F7A206B6120706F702E>')).toEqual(pdfString('Nov shmoz ka pop.', true));
    expect(parse('<90 1f\na3\r\n>')).toEqual(pdfString(Buffer.from([0x90, 0x1f, 0xa3]), true));
    expect(parse('<901FA>')).toEqual(pdfString(Buffer.from([0x90, 0x1f, 0xa0]), true));
    expect(parse('<>')).toEqual(pdfString('', true));
  });

  it('reads nested arrays and dictionaries, in order, with comments anywhere', () => {
    const value = parse(`<< /Type /Example % a comment
      /Subtype /DictionaryExample /Version 0.01 /IntegerItem 12 /StringItem (a string)
      /Subdictionary << /Item1 0.4 /Item2 true /LastItem (not !) /VeryLastItem (OK) >>
      /Array [1 [2 [3 <<>>]] [] null]
    >>`);
    expect(value.kind).toBe('dict');
    if (value.kind !== 'dict') return;
    expect([...value.entries.keys()]).toEqual(['Type', 'Subtype', 'Version', 'IntegerItem', 'StringItem', 'Subdictionary', 'Array']);
    expect(value.entries.get('Version')).toEqual(pdfNumber(0.01));
    expect(value.entries.get('Subdictionary')).toEqual(
      pdfDict({ Item1: pdfNumber(0.4), Item2: pdfBool(true), LastItem: pdfString('not !'), VeryLastItem: pdfString('OK') }),
    );
    expect(value.entries.get('Array')).toEqual(pdfArray([pdfNumber(1), pdfArray([pdfNumber(2), pdfArray([pdfNumber(3), pdfDict()])]), pdfArray(), PDF_NULL]));
    expect(parse('<</A 1/A 2>>')).toEqual(pdfDict({ A: pdfNumber(2) })); // the last of repeated keys counts, as in poppler, qpdf and pdf.js
    expect(parse('<</A/B/C[]/D<</E()>>>>')).toEqual(pdfDict({ A: pdfName('B'), C: pdfArray(), D: pdfDict({ E: pdfString('') }) }));
  });

  it('says where the syntax is wrong', () => {
    expect(() => parse('(unterminated')).toThrow(/unterminated string at offset 0/);
    expect(() => parse('<12 3G>')).toThrow(/invalid character "G" in hex string at offset 5/);
    expect(() => parse('<< 1 2 >>')).toThrow(/expected a name as dictionary key at offset 3/);
    expect(() => parse('<</A >>')).toThrow(/unexpected character ">"/);
    expect(() => parse('[1 2')).toThrow(/unterminated array/);
    expect(() => parse('<</A 1')).toThrow(/unterminated dictionary/);
    expect(() => parse('endobj')).toThrow(/unexpected "endobj" at offset 0/);
    expect(() => parse('')).toThrow(/unexpected end of data/);
    expect(() => parse(`${'['.repeat(1000)}${']'.repeat(1000)}`)).toThrow(/nested too deeply/);
  });

  it('reports where a value ends', () => {
    expect(parseValue(bytes('  /A /B'), 0).end).toBe(4);
    expect(parseValue(bytes('12 0 R 5'), 0).end).toBe(6);
    expect(parseValue(bytes('12 0 5'), 0).end).toBe(2);
  });
});

describe('parseIndirectObjectAt', () => {
  it('reads an object and where it ends', () => {
    const buf = bytes('junk\n  7 1 obj\n<</A [1 2]>>\nendobj\nnext');
    const object = parseIndirectObjectAt(buf, 5);
    expect(object).toEqual({ num: 7, gen: 1, value: pdfDict({ A: pdfArray([pdfNumber(1), pdfNumber(2)]) }), end: buf.indexOf('endobj') + 6 });
    expect(parseIndirectObjectAt(bytes('3 0 obj 42 endobj'), 0).value).toEqual(pdfNumber(42));
    expect(parseIndirectObjectAt(bytes('3 0 obj<</A 1>>endobj'), 0).value).toEqual(pdfDict({ A: pdfNumber(1) }));
    // A sloppy writer's missing endobj: the object ends after its value.
    expect(parseIndirectObjectAt(bytes('3 0 obj (x)\n4 0 obj'), 0)).toMatchObject({ value: pdfString('x'), end: 11 });
  });

  it('refuses what is not an object', () => {
    expect(() => parseIndirectObjectAt(bytes('xref\n0 1'), 0)).toThrow(/expected an object number, found "xref"/);
    expect(() => parseIndirectObjectAt(bytes('3 0 R'), 0)).toThrow(/expected "obj" after "3 0"/);
    expect(() => parseIndirectObjectAt(bytes('3 0 obj'), 99)).toThrow(/outside the file/);
  });

  const streamOf = (text: string, resolveLength?: (ref: { num: number }) => number | undefined) => {
    const buf = bytes(text);
    const object = parseIndirectObjectAt(buf, 0, resolveLength ? { resolveLength } : {});
    if (object.value.kind !== 'stream') throw new Error('not a stream');
    return { data: buf.toString('latin1', object.value.rawStart, object.value.rawStart + object.value.rawLength), object };
  };

  it.each([
    ['LF', '1 0 obj\n<</Length 5>>\nstream\nhello\nendstream\nendobj'],
    ['CRLF', '1 0 obj\r\n<</Length 5>>\r\nstream\r\nhello\r\nendstream\r\nendobj'],
    ['a lone CR', '1 0 obj\r<</Length 5>>\rstream\rhello\rendstream\rendobj'],
    ['spaces before the EOL', '1 0 obj <</Length 5>> stream  \r\nhello endstream endobj'],
    ['data right after endstream', '1 0 obj <</Length 5>> stream\nhelloendstream endobj'],
  ])('reads stream data with %s', (_, text) => {
    const { data, object } = streamOf(text);
    expect(data).toBe('hello');
    expect(object.end).toBe(text.length);
  });

  it('keeps data that starts with whitespace', () => {
    expect(streamOf('1 0 obj <</Length 7>> stream\r\n\n hello\r\nendstream endobj').data).toBe('\n hello');
  });

  it('finds the data with an indirect /Length, through the resolver', () => {
    const asked: number[] = [];
    const { data } = streamOf('1 0 obj <</Length 9 0 R>> stream\nhello world\nendstream endobj', (ref) => {
      asked.push(ref.num);
      return 11;
    });
    expect(asked).toEqual([9]);
    expect(data).toBe('hello world');
  });

  it('ends the data at endstream when /Length is missing, unresolvable or wrong', () => {
    expect(streamOf('1 0 obj <<>> stream\nabc\r\nendstream endobj').data).toBe('abc');
    expect(streamOf('1 0 obj <</Length 9 0 R>> stream\nabc\nendstream endobj', () => undefined).data).toBe('abc');
    expect(streamOf('1 0 obj <</Length 9 0 R>> stream\nabc\nendstream endobj').data).toBe('abc');
    expect(
      streamOf('1 0 obj <</Length 9 0 R>> stream\nabc\nendstream endobj', () => {
        throw new Error('missing');
      }).data,
    ).toBe('abc');
    expect(streamOf('1 0 obj <</Length 2>> stream\nabcdef\nendstream endobj').data).toBe('abcdef');
    expect(streamOf('1 0 obj <</Length 900>> stream\nabcdef\nendstream endobj').data).toBe('abcdef');
    expect(streamOf('1 0 obj <</Length -1>> stream\nabc\nendstream endobj').data).toBe('abc');
  });

  it('trusts a right /Length over an "endstream" inside the data', () => {
    const inner = 'x endstream y';
    expect(streamOf(`1 0 obj <</Length ${inner.length}>> stream\n${inner}\nendstream endobj`).data).toBe(inner);
  });

  it('refuses a stream that never ends', () => {
    expect(() => parseIndirectObjectAt(bytes('1 0 obj <</Length 50>> stream\nabc'), 0)).toThrow(/stream without "endstream"/);
  });
});

describe('serializeValue', () => {
  const text = (value: PdfValue) => serializeValue(value).toString('latin1');

  it('writes canonical syntax', () => {
    expect(text(pdfDict({ Type: pdfName('Page'), Parent: pdfRef(3), MediaBox: pdfArray([0, 0, 612, 792].map((n) => pdfNumber(n))) }))).toBe(
      '<</Type /Page /Parent 3 0 R /MediaBox [0 0 612 792]>>',
    );
    expect(text(pdfArray([PDF_NULL, pdfBool(true), pdfBool(false), pdfArray(), pdfDict()]))).toBe('[null true false [] <<>>]');
  });

  it('escapes names with #xx', () => {
    expect(text(pdfName('A B#(C)/D'))).toBe('/A#20B#23#28C#29#2FD');
    expect(text(pdfName('\xc3\xa9\x00'))).toBe('/#C3#A9#00');
    expect(text(pdfName(''))).toBe('/');
    expect(() => text(pdfName('\u20ac'))).toThrow(/beyond latin1/);
  });

  it('writes strings as hex or as escaped literals', () => {
    expect(text(pdfString(Buffer.from([0xde, 0xad, 0x00]), true))).toBe('<dead00>');
    expect(text(pdfString('a(b)c\\d\n\r\t\b\f'))).toBe('(a\\(b\\)c\\\\d\\n\\r\\t\\b\\f)');
    expect(text(pdfString(Buffer.from([0, 0x1f, 0x7f, 0xff])))).toBe('(\\000\\037\\177\\377)');
  });

  it('writes numbers without exponents, keeping a parsed number’s text', () => {
    expect(text(pdfNumber(0.1 + 0.2))).toBe('0.3');
    expect(text(pdfNumber(-0))).toBe('0');
    expect(text(pdfNumber(1e-7))).toBe('0.0000001');
    expect(text(pdfNumber(1e21))).toBe('1000000000000000000000');
    expect(text(pdfNumber(-12.5))).toBe('-12.5');
    expect(text(pdfNumber(1e-12))).toBe('0');
    expect(text(pdfNumber(5, '5.000'))).toBe('5.000');
    expect(() => text(pdfNumber(NaN))).toThrow(RangeError);
  });

  it('writes streams only as indirect objects, with their /Length from the data', () => {
    const stream = parseIndirectObjectAt(bytes('4 0 obj <</Length 3 /Filter /FlateDecode>> stream\nabc\nendstream endobj'), 0).value;
    expect(() => serializeValue(stream)).toThrow(/indirect object/);
    const written = serializeIndirect(9, 0, stream, Buffer.from('hello'));
    expect(written.toString('latin1')).toBe('9 0 obj\n<</Length 5 /Filter /FlateDecode>>\nstream\nhello\nendstream\nendobj\n');
    expect(serializeIndirect(10, 0, pdfDict({ Type: pdfName('XObject') }), Buffer.alloc(0)).toString('latin1')).toBe(
      '10 0 obj\n<</Type /XObject /Length 0>>\nstream\n\nendstream\nendobj\n',
    );
    expect(serializeIndirect(2, 3, pdfNumber(7)).toString('latin1')).toBe('2 3 obj\n7\nendobj\n');
    expect(() => serializeIndirect(1, 0, stream)).toThrow(/its data is needed/);
    expect(() => serializeIndirect(1, 0, pdfNumber(1), Buffer.alloc(1))).toThrow(/not a dictionary/);
    expect(() => serializeIndirect(0, 0, PDF_NULL)).toThrow(RangeError);
    // What is written parses back to the same stream.
    const again = parseIndirectObjectAt(written, 0);
    expect(again.value.kind === 'stream' && written.toString('latin1', again.value.rawStart, again.value.rawStart + again.value.rawLength)).toBe('hello');
    expect(again.end).toBe(written.length - 1);
  });
});

describe('text strings', () => {
  it('decodes UTF-16BE, UTF-8 and PDFDocEncoding', () => {
    expect(decodeTextString(pdfString(Buffer.from([0xfe, 0xff, 0x09, 0x39, 0x09, 0x3f])))).toBe('हि');
    expect(decodeTextString(Buffer.from([0xef, 0xbb, 0xbf, 0xc3, 0xa9]))).toBe('é');
    expect(decodeTextString(Buffer.from([0x41, 0x80, 0x92, 0xa0, 0xe9]))).toBe('A•™€é');
  });

  it('encodes ASCII as itself and anything else as UTF-16BE', () => {
    expect(pdfTextString('Signature1')).toEqual(pdfString('Signature1'));
    for (const text of ['Prénom', 'हस्ताक्षर', '签名 😀']) expect(decodeTextString(pdfTextString(text))).toBe(text);
  });
});

describe('round trips (property tests)', () => {
  const latin1 = fc.uint8Array({ maxLength: 12 }).map((array) => Buffer.from(array).toString('latin1'));
  const number = fc.oneof(
    fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map((n) => pdfNumber(n)),
    // Reals as writers produce them: a few decimals.
    fc.integer({ min: -100_000_000, max: 100_000_000 }).map((n) => pdfNumber(n / 1000)),
  );
  const { value } = fc.letrec<{ value: PdfValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(PDF_NULL),
      fc.boolean().map(pdfBool),
      number,
      latin1.map(pdfName),
      fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.boolean()).map(([data, hex]) => pdfString(Buffer.from(data), hex)),
      fc.tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 65535 })).map(([num, gen]) => pdfRef(num, gen)),
      fc.array(tie('value'), { maxLength: 6 }).map((items) => pdfArray(items)),
      fc.uniqueArray(fc.tuple(latin1, tie('value')), { maxLength: 6, selector: ([key]) => key }).map((entries) => pdfDict(entries)),
    ),
  }));

  /** Parsed numbers carry the text they were written in; the value is what must survive. */
  const withoutRaw = (item: PdfValue): PdfValue => {
    switch (item.kind) {
      case 'number':
        return pdfNumber(item.value);
      case 'array':
        return pdfArray(item.items.map(withoutRaw));
      case 'dict':
        return pdfDict([...item.entries].map(([key, entry]) => [key, withoutRaw(entry)] as const));
      default:
        return item;
    }
  };

  it('parse(serialize(v)) equals v', () => {
    fc.assert(
      fc.property(value, (v) => {
        const written = serializeValue(v);
        const { value: parsed, end } = parseValue(written, 0);
        expect(withoutRaw(parsed)).toEqual(v);
        expect(end).toBe(written.length);
      }),
      { numRuns: 500 },
    );
  });

  it('serialize(parse(serialize(v))) is the same bytes', () => {
    fc.assert(
      fc.property(value, (v) => {
        const written = serializeValue(v);
        expect(serializeValue(parseValue(written, 0).value).equals(written)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('an indirect object, stream or not, parses back', () => {
    fc.assert(
      fc.property(value, fc.option(fc.uint8Array({ maxLength: 64 })), fc.integer({ min: 1, max: 99999 }), (v, data, num) => {
        const withStream = data !== null && v.kind === 'dict';
        const written = serializeIndirect(num, 0, v, withStream ? data : undefined);
        const parsed = parseIndirectObjectAt(written, 0);
        expect(parsed.num).toBe(num);
        expect(parsed.end).toBe(written.length - 1);
        if (withStream && parsed.value.kind === 'stream') {
          expect(written.subarray(parsed.value.rawStart, parsed.value.rawStart + parsed.value.rawLength).equals(Buffer.from(data))).toBe(true);
        } else expect(withoutRaw(parsed.value)).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });

  it('cloneValue copies deeply: changing the copy leaves the original alone', () => {
    const vandalise = (item: PdfValue): void => {
      if (item.kind === 'dict') {
        for (const entry of item.entries.values()) vandalise(entry);
        item.entries.set('ChangedByTheTest', PDF_NULL); // keys are generated 12 characters long at most
      } else if (item.kind === 'array') {
        item.items.forEach(vandalise);
        item.items.push(PDF_NULL);
      } else if (item.kind === 'string') item.bytes.fill(0x41);
    };
    fc.assert(
      fc.property(value, (v) => {
        const before = serializeValue(v);
        const copy = cloneValue(v);
        expect(copy).toEqual(v);
        vandalise(copy);
        expect(serializeValue(v).equals(before)).toBe(true);
      }),
    );
  });
});
