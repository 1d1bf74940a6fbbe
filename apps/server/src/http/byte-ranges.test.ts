import { describe, expect, it } from 'vitest';
import { chooseRange } from './byte-ranges';

const file = { size: 1000, etag: 'abc' };

describe('which bytes a request gets', () => {
  it.each([
    ['no Range', {}, { kind: 'all' }],
    ['one range', { range: 'bytes=0-99' }, { kind: 'part', start: 0, end: 99 }],
    ['an open end', { range: 'bytes=900-' }, { kind: 'part', start: 900, end: 999 }],
    ['a suffix', { range: 'bytes=-100' }, { kind: 'part', start: 900, end: 999 }],
    ['a suffix longer than the file', { range: 'bytes=-5000' }, { kind: 'part', start: 0, end: 999 }],
    ['an end past the file', { range: 'bytes=10-5000' }, { kind: 'part', start: 10, end: 999 }],
    ['overlapping ranges, combined', { range: 'bytes=0-50,40-99' }, { kind: 'part', start: 0, end: 99 }],
    ['disjoint ranges: the whole file, not multipart', { range: 'bytes=0-9,500-509' }, { kind: 'all' }],
    ['a malformed header: ignored', { range: 'bytes=x-y' }, { kind: 'all' }],
    ['no equals sign: ignored', { range: 'bytes' }, { kind: 'all' }],
    ['another unit: ignored', { range: 'pages=1-2' }, { kind: 'all' }],
    ['a start past the end', { range: 'bytes=1000-' }, { kind: 'unsatisfiable' }],
    ['start after end', { range: 'bytes=50-10' }, { kind: 'unsatisfiable' }],
    ['If-Range naming these bytes', { range: 'bytes=0-9', 'if-range': '"abc"' }, { kind: 'part', start: 0, end: 9 }],
    ['If-Range naming other bytes', { range: 'bytes=0-9', 'if-range': '"abd"' }, { kind: 'all' }],
    ['If-Range with a weak validator', { range: 'bytes=0-9', 'if-range': 'W/"abc"' }, { kind: 'all' }],
    ['If-Range with a date', { range: 'bytes=0-9', 'if-range': 'Wed, 21 Oct 2026 07:28:00 GMT' }, { kind: 'all' }],
  ] as const)('%s', (_, headers, expected) => {
    expect(chooseRange(headers, file)).toEqual(expected);
  });

  it('an empty file has no part to send', () => {
    expect(chooseRange({ range: 'bytes=0-' }, { size: 0, etag: 'e' })).toEqual({ kind: 'unsatisfiable' });
    expect(chooseRange({}, { size: 0, etag: 'e' })).toEqual({ kind: 'all' });
  });
});
