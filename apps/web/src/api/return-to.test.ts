import { describe, expect, it } from 'vitest';
import { adminUser, signedInSession } from '../test/fake-api';
import { pathAfterSignIn } from './access';
import { loginReturningTo, safeReturnTo, withReturnTo } from './return-to';

const SIGN = '/sign?ePakId=6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d&tenant=0b6f1c3e-8d2a-4c5b-9e7f-1a2b3c4d5e6f';

describe('safeReturnTo', () => {
  it.each([SIGN, '/', '/compose?ePakId=1#tags', '/sign?next=https://evil.example', '/profile'])('keeps the same-origin path %s', (path) => {
    expect(safeReturnTo(path)).toBe(path);
  });

  it('normalises what it keeps to path, query and fragment', () => {
    expect(safeReturnTo('/a/../sign?x=1')).toBe('/sign?x=1');
  });

  it.each([
    ['another origin', 'https://evil.example/sign'],
    ['a protocol-relative address', '//evil.example/sign'],
    ['a backslash read as a slash', '/\\evil.example'],
    ['a backslash further on', '/sign\\..\\..\\evil'],
    ['a script', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'sign?ePakId=1'],
    ['a tab the browser drops', '/\t/evil.example'],
    ['a newline the browser drops', '/\n/evil.example'],
    ['the sign-in page itself', '/login?returnTo=/sign'],
    ['the two-factor step', '/authenticate'],
    ['nothing', ''],
    ['no value', null],
    ['something far too long', `/${'a'.repeat(2001)}`],
  ])('refuses %s', (_why, raw) => {
    expect(safeReturnTo(raw)).toBeNull();
  });

  it('keeps an encoded double slash as the path it is (it does not leave the origin)', () => {
    expect(safeReturnTo('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });
});

describe('the sign-in round trip', () => {
  it('sends /sign to the login page with the address to come back to, encoded', () => {
    expect(loginReturningTo(SIGN)).toBe(`/login?returnTo=${encodeURIComponent(SIGN)}`);
    expect(new URLSearchParams(loginReturningTo(SIGN).split('?')[1]).get('returnTo')).toBe(SIGN);
  });

  it('sends plain /login for an address it will not return to', () => {
    expect(loginReturningTo('//evil.example')).toBe('/login');
  });

  it('carries the return on to the two-factor step, only when it is safe', () => {
    expect(withReturnTo('/authenticate', SIGN)).toBe(`/authenticate?returnTo=${encodeURIComponent(SIGN)}`);
    expect(withReturnTo('/login?twofactor=expired', SIGN)).toBe(`/login?twofactor=expired&returnTo=${encodeURIComponent(SIGN)}`);
    expect(withReturnTo('/authenticate', 'https://evil.example')).toBe('/authenticate');
    expect(withReturnTo('/authenticate', null)).toBe('/authenticate');
  });

  it('goes back after sign-in, unless the account must change its password first', () => {
    const session = signedInSession(adminUser);
    expect(pathAfterSignIn(session, SIGN)).toBe(SIGN);
    expect(pathAfterSignIn(session, null)).toBe('/dashboard');
    expect(pathAfterSignIn(session, '//evil.example')).toBe('/dashboard');
    expect(pathAfterSignIn({ ...session, user: { ...adminUser, status: 'resetpassword' } }, SIGN)).toBe('/changepassword');
  });
});
