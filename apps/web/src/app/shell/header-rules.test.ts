import { describe, expect, it } from 'vitest';
import { shouldShowLanguageSelector } from './header-rules';

describe('shouldShowLanguageSelector', () => {
  it.each([
    { loggedIn: false, pathname: '/', search: '', shown: true },
    { loggedIn: false, pathname: '/dashboard', search: '', shown: true },
    { loggedIn: true, pathname: '/dashboard', search: '', shown: false },
    { loggedIn: true, pathname: '/', search: '', shown: false },
    { loggedIn: true, pathname: '/verify', search: '', shown: true },
    { loggedIn: true, pathname: '/authenticate', search: '', shown: true },
    { loggedIn: true, pathname: '/emailsign', search: '?token=abc', shown: true },
    { loggedIn: true, pathname: '/emailsign', search: '', shown: false },
    { loggedIn: true, pathname: '/verifying', search: '', shown: false },
  ])('logged in $loggedIn on $pathname$search: $shown', ({ shown, ...where }) => {
    expect(shouldShowLanguageSelector(where)).toBe(shown);
  });
});
