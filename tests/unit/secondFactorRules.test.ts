/** When the console's API asks staff for a second factor (decision 046), and which codes are an app's. */
import { describe, expect, it } from 'vitest';
import { isAppCode, needsSecondFactor, ownerProofSchema, type StaffSecondFactorPolicy } from '../../contract/secondFactor';
import { newRecoveryCode, normalizeRecoveryCode } from '../../server/services/secondFactor/recoveryCodes';

describe('the staff gate', () => {
  it.each<[string, boolean, StaffSecondFactorPolicy, string | null, boolean, boolean]>([
    // what, isStaff, policy, sessionMethod, hasSecondFactor, refused
    ['staff, password, no second factor', true, 'required', 'password', false, true],
    ['staff, a session from before sessions said how', true, 'required', null, false, true],
    ['staff, password, with a second factor', true, 'required', 'password', true, false],
    ['staff, signed in with Epic (Epic has its own)', true, 'required', 'epic', false, false],
    ['staff, signed in with a passkey (the device and its PIN)', true, 'required', 'passkey', false, false],
    ['staff, an e-mailed link, no second factor', true, 'required', 'emailed_link', false, true],
    ['staff, password, policy optional', true, 'optional', 'password', false, false],
    ['a customer, password, no second factor', false, 'required', 'password', false, false],
  ])('%s → refused: %s', (_what, isStaff, policy, sessionMethod, hasSecondFactor, refused) => {
    expect(needsSecondFactor({ isStaff, policy, sessionMethod, hasSecondFactor })).toBe(refused);
  });
});

describe('codes', () => {
  it.each([
    ['123456', true],
    ['123 456', true],
    ['12345', false],
    ['1234567', false],
    ['abcd-efgh-ijkl-mnop', false],
  ])('%s is an app code: %s', (code, app) => expect(isAppCode(code)).toBe(app));

  it('recovery codes are 16 base32 characters in fours, read without case, spaces or dashes', () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(normalizeRecoveryCode(` ${code.toUpperCase().replace(/-/g, ' ')} `)).toBe(code.replace(/-/g, ''));
  });

  it.each([
    [{ password: 'x' }, true],
    [{ code: '123456' }, true],
    [{ password: 'x', code: '123456' }, false],
    [{}, false],
  ])('a proof of the owner %j is valid: %s', (body, valid) => expect(ownerProofSchema.safeParse(body).success).toBe(valid));
});
