import { describe, expect, it } from 'vitest';
import {
  emailFormShown,
  emailedLinkSignInAllowed,
  linkBannerShown,
  passkeySignInAllowed,
  passwordResetAllowed,
  passwordSignInAllowed,
  registrationAllowed,
  signInMethods,
  unlinkAllowed,
  type LegacyLoginMode,
} from '../../contract/legacyLogin';
import { passwordCheckAllowed } from '../../server/services/epicLinking';

type Account = 'password only' | 'password and Epic' | 'Epic only';
const ACCOUNTS: Record<Account, { hasPassword: boolean; hasEpic: boolean }> = {
  'password only': { hasPassword: true, hasEpic: false },
  'password and Epic': { hasPassword: true, hasEpic: true },
  'Epic only': { hasPassword: false, hasEpic: true },
};

// mode, account: sign-in methods, password sign-in, reset, banner, unlink, e-mailed link
const TABLE: [LegacyLoginMode, Account, string[], boolean, boolean, boolean, boolean, boolean][] = [
  ['on', 'password only', ['password'], true, true, false, false, false],
  ['on', 'password and Epic', ['epic', 'password'], true, true, false, true, false],
  ['on', 'Epic only', ['epic'], false, true, false, false, false],
  ['link-only', 'password only', ['password'], true, true, true, false, false],
  ['link-only', 'password and Epic', ['epic'], false, false, false, true, false],
  ['link-only', 'Epic only', ['epic'], false, false, false, false, false],
  ['off', 'password only', ['emailed_link'], false, false, false, false, true],
  ['off', 'password and Epic', ['epic'], false, false, false, false, false],
  ['off', 'Epic only', ['epic'], false, false, false, false, false],
];

describe('LEGACY_LOGIN rules (decision 048)', () => {
  // A passkey stands in for the password: it follows the password's switch (decision 049).
  it.each<[LegacyLoginMode, boolean, boolean]>([
    // mode, has Epic, passkey sign-in
    ['on', false, true],
    ['on', true, true],
    ['link-only', false, true],
    ['link-only', true, false],
    ['off', false, false],
    ['off', true, false],
  ])('passkey sign-in under %s, Epic %s: %s', (mode, hasEpic, allowed) => {
    expect(passkeySignInAllowed(mode, { hasPassword: true, hasEpic })).toBe(allowed);
    expect(passkeySignInAllowed(mode, { hasPassword: false, hasEpic })).toBe(allowed);
  });

  it.each(TABLE)('%s, %s', (mode, name, methods, password, reset, banner, unlink, emailedLink) => {
    const account = ACCOUNTS[name];
    expect(signInMethods(mode, account)).toEqual(methods);
    expect(passwordSignInAllowed(mode, account)).toBe(password);
    expect(passwordResetAllowed(mode, account)).toBe(reset);
    expect(linkBannerShown(mode, account)).toBe(banner);
    expect(unlinkAllowed(mode, account)).toBe(unlink);
    expect(emailedLinkSignInAllowed(mode, account)).toBe(emailedLink);
  });

  it.each([
    ['on', true, true],
    ['link-only', false, true],
    ['off', false, false],
  ] as const)('%s: registration %s, e-mail form %s', (mode, registration, form) => {
    expect(registrationAllowed(mode)).toBe(registration);
    expect(emailFormShown(mode)).toBe(form);
  });

  it.each([
    // mode, has a password, has a second factor, allowed
    ['on', true, false, true],
    ['link-only', true, false, true],
    ['off', true, false, false],
    ['on', false, false, false],
    ['on', true, true, false],
    ['link-only', true, true, false],
  ] as const)(
    'proving an account by password to link Epic under %s (password %s, second factor %s): %s',
    (mode, password, secondFactor, allowed) => {
      const user = { password_hash: password ? 'scrypt$…' : null, epic_account_id: null };
      expect(passwordCheckAllowed(user, mode, secondFactor)).toBe(allowed);
    },
  );
});
