import { describe, expect, it } from 'vitest';
import { EpakStepInput, EpakViewer } from './epaks';
import { confirmVerificationCode, NO_VERIFICATION, RecipientVerification, sendVerificationCode } from './recipient-verification';

const viewer = {
  isOwner: false,
  recipientId: null,
  stepOrder: null,
  stepType: null,
  status: null,
  canAct: false,
  isRead: false,
  eligibleForAction: false,
  viewedDocumentIds: [],
  signedDocumentIds: [],
  starred: false,
  geolocation: 'OFF',
  reasons: [],
};

describe('signer verification in the contract', () => {
  it('reads an older viewer answer, without verification, as nothing required', () => {
    const parsed = EpakViewer.parse(viewer);
    expect(parsed.verification).toBeUndefined();
    expect(RecipientVerification.parse(NO_VERIFICATION)).toEqual(NO_VERIFICATION);
  });

  it('takes a per-recipient choice at compose, and leaves it out when unsaid', () => {
    const step = { workflowStateId: '00000000-0000-4000-8000-000000000001' };
    expect(EpakStepInput.parse({ ...step, recipients: [{ email: 'A@Example.test', verify: true }] }).recipients[0]).toEqual({ email: 'a@example.test', verify: true });
    expect(EpakStepInput.parse({ ...step, recipients: [{ email: 'a@example.test' }] }).recipients[0]).toEqual({ email: 'a@example.test' });
    expect(EpakStepInput.safeParse({ ...step, recipients: [{ email: 'a@example.test', verify: 'yes' }] }).success).toBe(false);
  });

  it.each([
    ['123456', true],
    [' 123456 ', true],
    ['12345', false],
    ['1234567', false],
    ['12a456', false],
  ])('takes %j as a code: %s', (code, ok) => {
    expect(confirmVerificationCode.body!.safeParse({ code }).success).toBe(ok);
  });

  it('sends by mail unless text is asked for', () => {
    expect(sendVerificationCode.body!.parse({})).toEqual({ channel: 'email' });
    expect(sendVerificationCode.body!.parse({ channel: 'sms' })).toEqual({ channel: 'sms' });
    expect(sendVerificationCode.body!.safeParse({ channel: 'fax' }).success).toBe(false);
  });
});
