import { describe, expect, it } from 'vitest';
import {
  changeInboxState,
  DEFAULT_INBOX_STATE,
  epakPath,
  inboxRequestQuery,
  inboxStateFromParams,
  inboxStateToParams,
  ownerName,
  pageCount,
  sortBy,
} from './inbox-state';

describe('inbox state in the address', () => {
  it('reads every part and writes it back the same', () => {
    const params = new URLSearchParams('folder=Signed&pg=2&size=25&sort=subject&order=asc&starred=true&unread=true');
    const state = inboxStateFromParams(params);
    expect(state).toEqual({ folder: 'Signed', pg: 2, size: 25, sort: 'subject', order: 'asc', starred: true, unread: true });
    expect(inboxStateToParams(state).toString()).toBe(params.toString());
  });

  it('falls back to the defaults for what is missing or not understood, and leaves defaults out of links', () => {
    expect(inboxStateFromParams(new URLSearchParams('folder=Spam&pg=-1&size=7&sort=owner&order=up&starred=yes'))).toEqual(DEFAULT_INBOX_STATE);
    expect(inboxStateToParams(DEFAULT_INBOX_STATE).toString()).toBe('');
  });
});

describe('changing the state', () => {
  const onPage3 = { ...DEFAULT_INBOX_STATE, pg: 3 };

  it.each([
    ['another folder', { folder: 'Pending' as const }],
    ['a filter', { starred: true }],
    ['a page size', { size: 10 }],
    ['an order', { order: 'asc' as const }],
  ])('%s goes back to the first page', (_, change) => {
    expect(changeInboxState(onPage3, change).pg).toBe(0);
  });

  it('a page keeps everything else', () => {
    expect(changeInboxState(onPage3, { pg: 4 })).toEqual({ ...onPage3, pg: 4 });
  });

  it('sorting by the same column flips the order; another starts in its natural order', () => {
    expect(sortBy(DEFAULT_INBOX_STATE, 'sentOn')).toMatchObject({ sort: 'sentOn', order: 'asc' });
    expect(sortBy(DEFAULT_INBOX_STATE, 'subject')).toMatchObject({ sort: 'subject', order: 'asc' });
    expect(sortBy({ ...DEFAULT_INBOX_STATE, sort: 'subject', order: 'asc' }, 'modifiedOn')).toMatchObject({ sort: 'modifiedOn', order: 'desc' });
  });
});

describe('the API query', () => {
  it('sends filters only when on, and the search with its type', () => {
    expect(inboxRequestQuery(DEFAULT_INBOX_STATE, null)).toEqual({ folder: 'Inbox', pg: 0, size: 50, sort: 'sentOn', order: 'desc' });
    expect(inboxRequestQuery({ ...DEFAULT_INBOX_STATE, unread: true }, { searchKey: 'subject', searchVal: 'lease' })).toEqual({
      folder: 'Inbox',
      pg: 0,
      size: 50,
      sort: 'sentOn',
      order: 'desc',
      unread: 'true',
      searchKey: 'subject',
      searchVal: 'lease',
    });
  });
});

describe('helpers', () => {
  it('counts pages, at least one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });

  it('opens a draft in compose and anything sent on the signing page', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(epakPath({ id, status: 'Draft' })).toBe(`/compose?ePakId=${id}`);
    expect(epakPath({ id, status: 'Completed' })).toBe(`/sign?ePakId=${id}`);
  });

  it('names the owner without gaps, or by user name when the names are blank', () => {
    expect(ownerName({ ownerFirstName: 'Meera', ownerMiddleName: null, ownerLastName: 'Shah', ownerUserName: 'm@x' })).toBe('Meera Shah');
    expect(ownerName({ ownerFirstName: 'Meera', ownerMiddleName: 'K', ownerLastName: 'Shah', ownerUserName: 'm@x' })).toBe('Meera K Shah');
    expect(ownerName({ ownerFirstName: '', ownerMiddleName: null, ownerLastName: ' ', ownerUserName: 'm@x' })).toBe('m@x');
  });
});
