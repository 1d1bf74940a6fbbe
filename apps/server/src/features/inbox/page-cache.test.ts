import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache';

describe('PageCache', () => {
  it('answers only while the version is the same and the entry is young enough', () => {
    const cache = new PageCache<string>({ maxEntries: 10, maxAgeMs: 1000 });
    cache.set('a', 3, 'page', 0);
    expect(cache.get('a', 3, 500)).toBe('page');
    expect(cache.get('a', 4, 500)).toBeUndefined();
    // A stale entry is gone, not kept for a later match.
    expect(cache.get('a', 3, 500)).toBeUndefined();
    cache.set('b', 1, 'other', 0);
    expect(cache.get('b', 1, 1001)).toBeUndefined();
  });

  it('drops the least recently used entry beyond its size', () => {
    const cache = new PageCache<number>({ maxEntries: 2, maxAgeMs: 60_000 });
    cache.set('a', 1, 1, 0);
    cache.set('b', 1, 2, 0);
    expect(cache.get('a', 1, 1)).toBe(1);
    cache.set('c', 1, 3, 2);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1, 3)).toBeUndefined();
    expect(cache.get('a', 1, 3)).toBe(1);
    expect(cache.get('c', 1, 3)).toBe(3);
  });

  it('keeps nothing when it has no room', () => {
    const cache = new PageCache<number>({ maxEntries: 0, maxAgeMs: 60_000 });
    cache.set('a', 1, 1, 0);
    expect(cache.enabled).toBe(false);
    expect(cache.get('a', 1, 0)).toBeUndefined();
  });
});
