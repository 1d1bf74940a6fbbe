import { describe, expect, it } from 'vitest';
import { dashboardRequest, dashboardSearchPath } from './dashboard-params';

const USER = '5d1c9a7e-2b4f-4e6a-8c3d-0f1e2a3b4c5d';
const request = (query: string) => dashboardRequest(new URLSearchParams(query));

describe('the dashboard address (spec §2: searchKey, searchVal, ts, ePakId)', () => {
  it('is the plain dashboard without parameters', () => {
    expect(request('')).toEqual({ open: null, search: null, ts: null, invalid: null });
  });

  it('reads a search with its timestamp', () => {
    expect(request('searchKey=subject&searchVal=Lease&ts=1700000000000')).toEqual({
      open: null,
      search: { searchKey: 'subject', searchVal: 'Lease' },
      ts: '1700000000000',
      invalid: null,
    });
    expect(request(`searchKey=from&searchVal=${USER}`).search).toEqual({ searchKey: 'from', searchVal: USER });
    expect(request('searchKey=createdOn&searchVal=2025-01-15').search).toEqual({ searchKey: 'createdOn', searchVal: '2025-01-15' });
  });

  it.each([
    ['an unknown type', 'searchKey=owner&searchVal=x'],
    ['a person that is no user id', 'searchKey=to&searchVal=asha'],
    ['a date that is no date', 'searchKey=expiresOn&searchVal=tomorrow'],
    ['too long a text', `searchKey=all&searchVal=${'x'.repeat(201)}`],
  ])('says so for %s, and searches nothing', (_, query) => {
    expect(request(query)).toMatchObject({ search: null, invalid: 'search' });
  });

  it('treats a type without a value as no search (the bar sends nobody there, but links may)', () => {
    expect(request('searchKey=subject&searchVal=')).toMatchObject({ search: null, invalid: null });
  });

  it('opens the ePak an ePakId names, and says so when it names none', () => {
    expect(request('ePakId=6A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D').open).toBe('6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    expect(request('ePakId=42')).toMatchObject({ open: null, invalid: 'ePak' });
  });

  it('builds the address a search goes to', () => {
    expect(dashboardSearchPath(null)).toBe('/dashboard');
    expect(dashboardSearchPath({ searchKey: 'subject', searchVal: 'Lease & co' }, 42)).toBe('/dashboard?searchKey=subject&searchVal=Lease+%26+co&ts=42');
  });
});
