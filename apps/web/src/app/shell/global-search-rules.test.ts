import { describe, expect, it } from 'vitest';
import { changeSearchType, EMPTY_SEARCH, firstSegment, isSearchBarHidden, searchBarModeOn, searchTarget } from './global-search-rules';

describe('global search bar rules (spec §2)', () => {
  it('takes the first path segment as the screen', () => {
    expect(firstSegment('/')).toBe('');
    expect(firstSegment('/epaks')).toBe('epaks');
    expect(firstSegment('/teamroom/abc/def')).toBe('teamroom');
  });

  it('is hidden on team rooms and stamp papers only', () => {
    expect(isSearchBarHidden('/teamroom')).toBe(true);
    expect(isSearchBarHidden('/teamroom/42')).toBe(true);
    expect(isSearchBarHidden('/stamppapers')).toBe(true);
    expect(isSearchBarHidden('/dashboard')).toBe(false);
    expect(isSearchBarHidden('/epaks')).toBe(false);
    expect(isSearchBarHidden('/teamrooms')).toBe(false);
  });

  it('opens on epaks, folds on the dashboard and leaves it be elsewhere', () => {
    expect(searchBarModeOn('/epaks')).toBe('maximised');
    expect(searchBarModeOn('/dashboard')).toBe('minimised');
    expect(searchBarModeOn('/workflows')).toBeNull();
  });

  it('searches on the dashboard with searchKey, searchVal and a timestamp', () => {
    expect(searchTarget({ type: 'subject', value: ' Lease ' }, 1700000000000)).toBe('/dashboard?searchKey=subject&searchVal=Lease&ts=1700000000000');
  });

  it('goes to the plain dashboard with no type, or nothing typed', () => {
    expect(searchTarget({ type: null, value: 'Lease' })).toBe('/dashboard');
    expect(searchTarget({ type: 'all', value: '   ' })).toBe('/dashboard');
  });

  it('keeps the value across types of the same input, and drops it otherwise', () => {
    expect(changeSearchType({ type: 'all', value: 'Lease' }, 'subject')).toEqual({ type: 'subject', value: 'Lease' });
    expect(changeSearchType({ type: 'all', value: 'Lease' }, 'createdOn')).toEqual({ type: 'createdOn', value: '' });
    expect(changeSearchType({ type: 'from', value: 'id' }, 'to')).toEqual({ type: 'to', value: 'id' });
    expect(changeSearchType({ type: 'subject', value: 'Lease' }, null)).toEqual({ type: null, value: 'Lease' });
    expect(EMPTY_SEARCH).toEqual({ type: 'all', value: '' });
  });
});
