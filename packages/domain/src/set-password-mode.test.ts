import { describe, expect, it } from 'vitest';
import { USER_STATUSES, USER_TYPES, type UserStatus, type UserType } from './constants';
import { setPasswordMode, type SetPasswordMode } from './set-password-mode';

/** Written out by hand rather than derived, so the test states the spec instead of restating the code. */
const EXPECTED: Record<UserType, Record<UserStatus, SetPasswordMode>> = {
  external: {
    admininvited: 'register',
    invitewithdelegation: 'register',
    enabled: 'update',
    expired: 'update',
    admininviteexpired: 'update',
    delegationinviteexpired: 'update',
    resetpassword: 'update',
    cancelInvitation: 'update',
  },
  internal: {
    admininvited: 'update',
    invitewithdelegation: 'update',
    enabled: 'update',
    expired: 'update',
    admininviteexpired: 'update',
    delegationinviteexpired: 'update',
    resetpassword: 'update',
    cancelInvitation: 'update',
  },
};

const cases = USER_TYPES.flatMap((type) => USER_STATUSES.map((status) => ({ type, status, mode: EXPECTED[type][status] })));

describe('setPasswordMode (spec section 4)', () => {
  it('has an expectation for every user type and status, and nothing else', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...USER_TYPES].sort());
    for (const type of USER_TYPES) expect(Object.keys(EXPECTED[type]).sort()).toEqual([...USER_STATUSES].sort());
    expect(cases).toHaveLength(USER_TYPES.length * USER_STATUSES.length);
  });

  it.each(cases)('$type user with status $status: $mode', ({ type, status, mode }) => {
    expect(setPasswordMode({ type, status })).toBe(mode);
  });

  it('registers exactly the two external invitee statuses', () => {
    expect(cases.filter((c) => c.mode === 'register').map((c) => `${c.type}/${c.status}`)).toEqual([
      'external/admininvited',
      'external/invitewithdelegation',
    ]);
  });
});
