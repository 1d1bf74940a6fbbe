/**
 * Recently answered inbox pages, per process, each stored with the person's inbox version
 * (epak_inbox_versions, bumped by the inbox sync whenever an ePak of theirs changes in anything
 * its summary shows) and used only while that version is unchanged: a page never outlives a
 * change to what it was read from, made by this process or any other. What the rows do not carry (a person's renamed name, an
 * owner's e-mail) can lag by at most `maxAgeMs`. Entries are dropped oldest-used first.
 */
export class PageCache<T> {
  private readonly entries = new Map<string, { version: number; storedAt: number; value: T }>();

  constructor(private readonly options: { maxEntries: number; maxAgeMs: number }) {}

  get enabled(): boolean {
    return this.options.maxEntries > 0;
  }

  get(key: string, version: number, now: number = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || now - entry.storedAt > this.options.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, version: number, value: T, now: number = Date.now()): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { version, storedAt: now, value });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
