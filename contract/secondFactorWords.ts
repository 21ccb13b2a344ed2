// No zod here: the sign-in page reads these words and codes without loading a schema (decision 016).

/** The `error` codes of the second factor's refusals, which the screens branch on. */
export const SECOND_FACTOR_ERRORS = {
  /** 409: the account signs in with Epic only; Epic's own sign-in protects it. */
  noPassword: 'no_password',
  /** 409: the authenticator app is already set up. */
  enrolled: 'totp_enrolled',
  /** 409: confirm without a started enrolment (or it was replaced by a newer one meanwhile). */
  notStarted: 'totp_not_started',
  /** 409: removal or new recovery codes without a second factor. */
  notEnrolled: 'second_factor_not_enrolled',
  /** 400: the code is not the app's current one (or was used already). */
  wrongCode: 'wrong_code',
  /** 400: neither the password nor a code proved it is the owner. */
  wrongProof: 'wrong_proof',
  /** 401: the second step of a sign-in without its first, or more than five minutes after it. */
  signInExpired: 'second_factor_expired',
  /** 401: the sign-in's second step with a wrong code, or one used already. */
  invalidCode: 'invalid_code',
} as const;

/** What the server says of each refusal, and the sign-in page's question. */
export const SECOND_FACTOR_MESSAGES = {
  noPassword: 'This account signs in with Epic Games, whose own sign-in protects it: there is no password to add a second factor to.',
  enrolled: 'Two-step sign-in is already on. Turn it off first to use another app.',
  notStarted: 'Start setting up two-step sign-in again: this code belongs to no setup in progress.',
  notEnrolled: 'Two-step sign-in is not on.',
  wrongCode: 'That code is not right. Enter the current code from your authenticator app.',
  wrongProof: 'That password or code is not right.',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
  invalidCode: 'Invalid authentication code',
  askForCode: 'Enter the code from your authenticator app, or one of your recovery codes.',
} as const;
