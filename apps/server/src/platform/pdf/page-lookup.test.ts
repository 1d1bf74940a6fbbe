import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPdfFile } from './pdf-file';
import { CORPUS } from '../../test/corpus';

/** Files that open: the ones the reader refuses are covered by corpus.test.ts. */
function openable(): Array<[string, Buffer]> {
  return fs
    .readdirSync(CORPUS)
    .filter((name) => name.endsWith('.pdf'))
    .sort()
    .flatMap((name): Array<[string, Buffer]> => {
      const bytes = fs.readFileSync(path.join(CORPUS, name));
      try {
        openPdfFile(bytes).pages();
        return [[name, bytes]];
      } catch {
        return [];
      }
    });
}

describe('finding one page by the tree counts', () => {
  it.each(openable())('%s: every page as the full walk gives it', (_name, bytes) => {
    const all = openPdfFile(bytes).pages();
    // A fresh file each time, so the lookup cannot lean on a walk already made.
    const indexes = all.length <= 20 ? all.map((page) => page.index) : [0, 1, Math.floor(all.length / 2), all.length - 2, all.length - 1];
    for (const index of indexes) {
      const page = openPdfFile(bytes).page(index)!;
      expect({ ...page, dict: undefined, resources: undefined }).toEqual({ ...all[index]!, dict: undefined, resources: undefined });
      expect(page.resources === null).toBe(all[index]!.resources === null);
    }
    expect(openPdfFile(bytes).page(all.length)).toBeUndefined();
    expect(openPdfFile(bytes).page(-1)).toBeUndefined();
  });
});
