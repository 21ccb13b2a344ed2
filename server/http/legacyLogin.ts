import {
  LEGACY_LOGIN_TEXT,
  passkeySignInAllowed,
  passwordSignInAllowed,
  registrationAllowed,
  type LegacyLoginMode,
} from '../../contract/legacyLogin';
import type { UsersTable } from '../db/schema';
import { forbidden } from '../errors';

/** The e-mail login's refusals under LEGACY_LOGIN (decision 048), for POST /api/login, /api/register and the passkey sign-in. */

/** `off`: the form is gone, and so is its endpoint, before any password is looked at. */
export function refuseRetiredLogin(mode: LegacyLoginMode): void {
  if (mode === 'off') throw forbidden(LEGACY_LOGIN_TEXT.passwordSignInOff.error, LEGACY_LOGIN_TEXT.passwordSignInOff.message);
}

/** `link-only`: once the password matched, an account that has Epic is sent to Epic. */
export function refusePasswordSignIn(mode: LegacyLoginMode, user: Pick<UsersTable, 'password_hash' | 'epic_account_id'>): void {
  const account = { hasPassword: user.password_hash !== null, hasEpic: user.epic_account_id !== null };
  if (!passwordSignInAllowed(mode, account)) {
    const text = mode === 'off' ? LEGACY_LOGIN_TEXT.passwordSignInOff : LEGACY_LOGIN_TEXT.passwordSignInLinked;
    throw forbidden(text.error, text.message);
  }
}

export function refuseRegistration(mode: LegacyLoginMode): void {
  if (!registrationAllowed(mode)) throw forbidden(LEGACY_LOGIN_TEXT.registrationClosed.error, LEGACY_LOGIN_TEXT.registrationClosed.message);
}

/** `off`: the passkey sign-in (`/api/login/passkey` and its options) went with the form, before any work. */
export function refuseRetiredPasskeySignIn(mode: LegacyLoginMode): void {
  if (mode === 'off') throw forbidden(LEGACY_LOGIN_TEXT.passkeySignInOff.error, LEGACY_LOGIN_TEXT.passkeySignInOff.message);
}

/** `link-only`: once the passkey verified, an account that has Epic is sent to Epic, as its password would be. */
export function refusePasskeySignIn(mode: LegacyLoginMode, user: Pick<UsersTable, 'epic_account_id'>): void {
  if (!passkeySignInAllowed(mode, { hasPassword: true, hasEpic: user.epic_account_id !== null })) {
    const text = mode === 'off' ? LEGACY_LOGIN_TEXT.passkeySignInOff : LEGACY_LOGIN_TEXT.passwordSignInLinked;
    throw forbidden(text.error, text.message);
  }
}
