import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import en from '../../i18n/en.json';
import { i18n } from '../../i18n/i18n';
import { changedUnderneath, manageErrorMessage } from './manage-errors';

const t = i18n.getFixedT('en');
const refusal = (code: number, httpStatus: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) => new ApiError({ code, httpStatus, message: 'the server says why', ...extra });

describe('manageErrorMessage', () => {
  it.each([
    ['a network failure', new ApiError({ code: -1, httpStatus: 0, message: '' }), en.common.unreachable],
    ['a hidden or absent ePak (404)', refusal(-1, 404), en.epakManage.errors.notFound],
    ['not the owner (-11)', refusal(-11, 403), en.epakManage.errors.notOwner],
    ['changed underneath (-306)', refusal(-306, 409), en.epakManage.errors.modified],
    ['archived (-47)', refusal(-47, 409), en.epakManage.errors.archived],
    ['a reminder within the hour (-6)', refusal(-6, 400, { issues: [{ path: 'userId', message: 'reminded recently' }] }), en.epakManage.errors.remindedRecently],
    ['the same person twice in a step (-6)', refusal(-6, 400, { issues: [{ path: 'email', message: 'already in this step' }] }), en.epakManage.errors.alreadyInStep],
    ["an address the tenant's filters refuse (-6)", refusal(-6, 400, { issues: [{ path: 'email', message: 'invalid filter: domain' }] }), en.epakManage.errors.recipientFiltered],
    ['any other -6: the server names what was wrong', refusal(-6, 400), 'the server says why'],
    ['something that is no ApiError', new Error('boom'), en.epakManage.errors.generic],
  ])('%s', (_name, error, expected) => {
    expect(manageErrorMessage(t, error)).toBe(expected);
  });

  it('tells -306 apart, for the offer to reload', () => {
    expect(changedUnderneath(refusal(-306, 409))).toBe(true);
    expect(changedUnderneath(refusal(-28, 409))).toBe(false);
  });
});
