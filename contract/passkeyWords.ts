/**
 * The words of passkeys (issue 40, decision 049) without a schema: the sign-in page shows them,
 * and must not load zod to do so (decision 009's budget). contract/passkeys.ts re-exports them.
 */

/** The `error` codes of a refused passkey call, which the screens branch on. */
export const PASSKEY_ERRORS = {
  /** 409: passkeys are for accounts with a password (an Epic account brings Epic's own). */
  noPassword: 'no_password',
  /** 400: the password given to remove a passkey is not the account's. */
  wrongPassword: 'wrong_password',
  /** 400: the ceremony's challenge is unknown, used, expired, or another ceremony's. */
  challengeExpired: 'passkey_challenge_expired',
  /** 400 (adding) or 401 (signing in): the authenticator's answer did not verify. */
  refused: 'passkey_refused',
  /** 401: no account has this passkey (removed, or made for another site). */
  unknown: 'passkey_unknown',
  /** 409: the passkey is registered already. */
  exists: 'passkey_exists',
  /** 409: the account has as many passkeys as it may. */
  limit: 'passkey_limit',
} as const;

/** How many passkeys one account may have. */
export const MAX_PASSKEYS = 20;

/** The server's words for each refusal (the screens show them as they come). */
export const PASSKEY_MESSAGES = {
  noPassword: 'Passkeys are for accounts that sign in with a password. Your Epic Games account has its own sign-in security.',
  wrongPassword: 'The password is not correct.',
  challengeExpired: 'This passkey request has expired or was already used. Please try again.',
  refused: 'Your passkey could not be verified. Please try again.',
  unknown: 'This passkey is not registered with Sage. Sign in with your password and add it in Account, or choose another passkey.',
  exists: 'This passkey is already registered with your account.',
  limit: `You have ${MAX_PASSKEYS} passkeys, the most an account may have. Remove one first.`,
  notFound: 'You have no passkey with this id.',
  tooManySignIns: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  tooManyChanges: 'Too many passkey changes. Please wait a few minutes and try again.',
} as const;

/** What the browser says when the user cancels the ceremony or lets it time out (NotAllowedError). */
export const PASSKEY_CANCELLED = 'The passkey request was cancelled or timed out. Nothing was changed.';
/** The browser has no WebAuthn (an old browser, or a page that is not a secure context). */
export const PASSKEY_UNSUPPORTED = 'This browser does not support passkeys.';
