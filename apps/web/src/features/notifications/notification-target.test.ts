import { NOTIFICATION_TYPES } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { notification } from '../../test/fake-socket';
import { notificationTarget, toastDurationOf, toastKindOf } from './notification-target';

const EPAK = '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';

describe('where a notification leads (spec §4)', () => {
  it.each(['signRequest', 'reviewRequest', 'epakDelegated'] as const)('%s opens the dashboard on the ePak', (type) => {
    expect(notificationTarget(notification({ notificationType: type }))).toBe(`/dashboard?ePakId=${EPAK}`);
  });

  it.each(['signCompleted', 'signDeclined', 'epakReassignment', 'signerComments', 'reviewerComments'] as const)(
    '%s searches the dashboard for the ePak by its subject, with a fresh timestamp',
    (type) => {
      const path = notificationTarget(notification({ notificationType: type, epak: { id: EPAK, subject: 'Lease & flat #3' } }), 1_700_000_000_000);
      expect(path).toBe('/dashboard?searchKey=subject&searchVal=Lease+%26+flat+%233&ts=1700000000000');
      const params = new URLSearchParams(path.split('?')[1]);
      expect(params.get('searchVal')).toBe('Lease & flat #3');
    },
  );

  it('epakDeleted, or an ePak that is gone, opens the plain dashboard', () => {
    expect(notificationTarget(notification({ notificationType: 'epakDeleted' }))).toBe('/dashboard');
    expect(notificationTarget(notification({ notificationType: 'signRequest', epak: null }))).toBe('/dashboard');
    expect(notificationTarget(notification({ notificationType: 'signDeclined', epak: null }))).toBe('/dashboard');
  });

  it('shows success for 2500 ms, errors and information for 4000 ms (spec §9)', () => {
    expect(NOTIFICATION_TYPES.map((type) => [type, toastKindOf(type)]).filter(([, kind]) => kind !== 'info')).toEqual([
      ['signCompleted', 'success'],
      ['signDeclined', 'error'],
    ]);
    expect([toastDurationOf('success'), toastDurationOf('info'), toastDurationOf('error')]).toEqual([2500, 4000, 4000]);
  });
});
