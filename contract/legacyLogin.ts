// No zod here: the login page reads these rules, and its bundle stays small (decision 016).

/**
 * Retiring the e-mail-and-password ("legacy") login (issue 40, decision 048): one switch,
 * `LEGACY_LOGIN`, read by the server and shown to the browser through the runtime config.
 * - `on`: as before; e-mail accounts sign in with their password, anyone may register.
 * - `link-only`: password sign-in only for accounts without Epic, no new e-mail registrations, and a
 *   banner on every signed-in page of an account without Epic until it links.
 * - `off`: no e-mail form; an account without Epic gets in through an e-mailed single-use link whose
 *   only destination is linking Epic.
 */
export const LEGACY_LOGIN_MODES = ['on', 'link-only', 'off'] as const;
export type LegacyLoginMode = (typeof LEGACY_LOGIN_MODES)[number];

/** What decides an account's ways in: its password and its Epic link. */
export interface AccountSignInFacts {
  hasPassword: boolean;
  hasEpic: boolean;
}

export type SignInMethodName = 'password' | 'epic' | 'emailed_link';

/** Whether the e-mail-and-password sign-in takes this account (its password checked elsewhere). */
export function passwordSignInAllowed(mode: LegacyLoginMode, account: AccountSignInFacts): boolean {
  if (!account.hasPassword) return false;
  if (mode === 'on') return true;
  return mode === 'link-only' && !account.hasEpic;
}

/**
 * Whether a passkey signs this account in without the password (decision 049): a passkey stands
 * in for the password, so it follows the password's switch, whether or not a password is still set
 * (`off`: none; `link-only`: accounts without Epic).
 */
export const passkeySignInAllowed = (mode: LegacyLoginMode, account: AccountSignInFacts): boolean =>
  passwordSignInAllowed(mode, { ...account, hasPassword: true });

/** The ways this account can sign in under `mode`. */
export function signInMethods(mode: LegacyLoginMode, account: AccountSignInFacts): SignInMethodName[] {
  const methods: SignInMethodName[] = [];
  if (account.hasEpic) methods.push('epic');
  if (passwordSignInAllowed(mode, account)) methods.push('password');
  // With the form gone, an account without Epic still gets in: through the mail, to link Epic.
  if (mode === 'off' && !account.hasEpic) methods.push('emailed_link');
  return methods;
}

/** New accounts by e-mail and password (`POST /api/register`). */
export const registrationAllowed = (mode: LegacyLoginMode): boolean => mode === 'on';

/** Whether the login and register pages show the e-mail form at all. */
export const emailFormShown = (mode: LegacyLoginMode): boolean => mode !== 'off';

/** Password reset follows password sign-in: none when the account could not use the new password. */
export const passwordResetAllowed = (mode: LegacyLoginMode, account: AccountSignInFacts): boolean =>
  passwordSignInAllowed(mode, { ...account, hasPassword: true });

/** `off`: forgot-password and the login page's link request mail an account without Epic its way in. */
export const emailedLinkSignInAllowed = (mode: LegacyLoginMode, account: AccountSignInFacts): boolean => mode === 'off' && !account.hasEpic;

/** The "link your Epic Games account" banner on every signed-in page. */
export const linkBannerShown = (mode: LegacyLoginMode, account: AccountSignInFacts): boolean => mode === 'link-only' && !account.hasEpic;

/**
 * Unlinking Epic leaves the account its password only: allowed when that password would still
 * sign it in (it has one, and the switch lets an account without Epic use it).
 */
export const unlinkAllowed = (mode: LegacyLoginMode, account: AccountSignInFacts): boolean =>
  account.hasEpic && passwordSignInAllowed(mode, { hasPassword: account.hasPassword, hasEpic: false });

/** The words of the switch's refusals and of its banner (the server's and the pages'). */
export const LEGACY_LOGIN_TEXT = {
  passwordSignInOff: {
    error: 'password_sign_in_off',
    message: 'Signing in with an email and password has been retired. Sign in with Epic Games instead.',
  },
  passwordSignInLinked: {
    error: 'password_sign_in_off',
    message: 'This account is linked to Epic Games: sign in with Epic Games.',
  },
  /** `off`: the passkey sign-in went with the e-mail form (the same code: the pages read it as the password's). */
  passkeySignInOff: {
    error: 'password_sign_in_off',
    message: 'Signing in with a passkey has been retired. Sign in with Epic Games instead.',
  },
  registrationClosed: {
    error: 'registration_closed',
    message: 'New accounts are created by signing in with Epic Games.',
  },
  banner: 'Email and password sign-in is being retired. Link your Epic Games account to keep signing in to Sage.',
  bannerButton: 'Link your Epic Games account',
} as const;
