import { InboxQuery, type InboxPage } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { changesByClockAt, keptInboxPage, type KeptPage } from './kept-pages';
import { PageCache } from './page-cache';

const actor = { userId: '00000000-0000-4000-8000-000000000001', tenantId: '00000000-0000-4000-8000-000000000002' };

function world() {
  let version = 1;
  let reads = 0;
  const database = { executeSql: async () => ({ rows: [{ version: String(version) }] }) };
  const cache = new PageCache<KeptPage<string>>({ maxEntries: 10, maxAgeMs: 30_000 });
  const page = (query: InboxQuery, now: number, validUntil = Number.POSITIVE_INFINITY) =>
    keptInboxPage({ database, actor, query, cache, now, read: async () => ({ value: `read ${++reads}`, validUntil }) });
  return { page, bump: () => version++ };
}

describe('keptInboxPage', () => {
  it('reads a page once while the version stays, and again once it changes', async () => {
    const { page, bump } = world();
    const query = InboxQuery.parse({ folder: 'Inbox' });
    expect(await page(query, 0)).toBe('read 1');
    expect(await page(query, 10)).toBe('read 1');
    expect(await page(InboxQuery.parse({ folder: 'Inbox', pg: 1 }), 10)).toBe('read 2');
    bump();
    expect(await page(query, 20)).toBe('read 3');
  });

  it('keeps a page started by a cursor apart from the page numbered the same', async () => {
    const { page } = world();
    expect(await page(InboxQuery.parse({ folder: 'Inbox' }), 0)).toBe('read 1');
    expect(await page(InboxQuery.parse({ folder: 'Inbox', cursor: 'abc' }), 0)).toBe('read 2');
    expect(await page(InboxQuery.parse({ folder: 'Inbox', cursor: 'abd' }), 0)).toBe('read 3');
    expect(await page(InboxQuery.parse({ folder: 'Inbox', cursor: 'abc' }), 0)).toBe('read 2');
  });

  it('reads again when the clock changes the page, and always for a search', async () => {
    const { page } = world();
    const query = InboxQuery.parse({ folder: 'Completed' });
    expect(await page(query, 0, 100)).toBe('read 1');
    expect(await page(query, 99, 100)).toBe('read 1');
    expect(await page(query, 100, 200)).toBe('read 2');
    const search = InboxQuery.parse({ folder: 'Inbox', searchKey: 'subject', searchVal: 'lease' });
    expect(await page(search, 0)).toBe('read 3');
    expect(await page(search, 0)).toBe('read 4');
  });
});

describe('changesByClockAt', () => {
  it('is the first retention date still to come on the page', () => {
    const item = (retentionDate: string | null, archivalPeriodOver = false) => ({ retentionDate, archivalPeriodOver });
    const page = { items: [item(null), item('2026-01-01T00:00:00.000Z', true), item('2026-03-01T00:00:00.000Z'), item('2026-02-01T00:00:00.000Z')] } as unknown as InboxPage;
    expect(changesByClockAt(page, Date.parse('2026-01-15T00:00:00Z'))).toBe(Date.parse('2026-02-01T00:00:00Z'));
    expect(changesByClockAt({ items: [] } as unknown as InboxPage, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});
