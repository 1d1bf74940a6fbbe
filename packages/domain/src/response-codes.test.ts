import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findResponseCode, httpStatusForCode, RESPONSE_CODES, ResponseCode } from './response-codes';

const SPEC = new URL('../../../../shared/spec/product-spec.md', import.meta.url);

/** Section 8's "Response code catalogue" bullets: code → meaning, and whether codes share it. */
function specCatalogue(): Map<number, { meaning: string; shared: boolean }> {
  const text = readFileSync(SPEC, 'utf8');
  const start = text.indexOf('Response code catalogue');
  const end = text.indexOf('Smart-card redirect statuses', start);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const codes = new Map<number, { meaning: string; shared: boolean }>();
  for (const line of text.slice(start, end).split('\n').filter((l) => l.startsWith('- '))) {
    // "-29, -30, -31 report template not found, invalid, or failed to load" names three codes
    // with one meaning; single entries are "code meaning", separated by semicolons.
    for (const part of line.slice(2).replace(/\.$/, '').split('; ')) {
      const m = /^((?:-?\d+(?:, | and ))*-?\d+) (.+)$/.exec(part);
      expect(m, `unparsed catalogue entry "${part}"`).not.toBeNull();
      const group = m![1]!.split(/, | and /);
      for (const code of group) codes.set(Number(code), { meaning: m![2]!, shared: group.length > 1 });
    }
  }
  return codes;
}

describe('response-code catalogue', () => {
  const spec = specCatalogue();

  it('parses the whole of section 8 from the spec', () => {
    expect(spec.size).toBeGreaterThan(100);
    expect(spec.get(1)?.meaning).toBe('success');
    expect(spec.get(-1006)?.meaning).toBe('document does not exist');
    expect(spec.get(-30)).toEqual({ meaning: 'report template not found, invalid, or failed to load', shared: true });
  });

  it('has every code of section 8, and the -200 its response handling names', () => {
    const ours = new Set(RESPONSE_CODES.map((e) => e.code));
    const missing = [...spec.keys()].filter((code) => !ours.has(code));
    expect(missing).toEqual([]);
    const extra = [...ours].filter((code) => !spec.has(code));
    expect(extra).toEqual([-200]);
    expect(readFileSync(SPEC, 'utf8')).toContain('Two factor required (-200)');
  });

  it('keeps the meaning the spec gives each single code', () => {
    for (const [code, { meaning, shared }] of spec) {
      // Shared meanings ("-34 and -35 ... by workflow or delegation") are split per code by hand.
      if (!shared) expect(findResponseCode(code)?.meaning, `code ${code}`).toBe(meaning);
    }
  });

  it('has unique codes and unique names', () => {
    const codes = RESPONSE_CODES.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('maps codes to HTTP statuses as the design says', () => {
    expect(httpStatusForCode(ResponseCode.SUCCESS.code)).toBe(200);
    expect(httpStatusForCode(-6)).toBe(400);
    expect(httpStatusForCode(-2)).toBe(500);
    expect(httpStatusForCode(-27)).toBe(401);
    expect(httpStatusForCode(-5)).toBe(401);
    expect(httpStatusForCode(-88)).toBe(403);
    expect(httpStatusForCode(-11)).toBe(403);
    expect(httpStatusForCode(-3)).toBe(404);
    expect(httpStatusForCode(123456)).toBe(500);
    for (const entry of RESPONSE_CODES) {
      expect(entry.httpStatus >= 200 && entry.httpStatus < 600, `code ${entry.code}`).toBe(true);
      // Only success-like codes may travel with a 2xx status.
      if (entry.code < 0 && entry.code !== -222) expect(entry.httpStatus, `code ${entry.code}`).toBeGreaterThanOrEqual(400);
    }
  });
});
