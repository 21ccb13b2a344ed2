// No zod here: the sign-in pages read these words, and their bundles stay small (decision 016).

/** The words of linking (the server's answers, the pages' notices). */
export const EPIC_LINKING_TEXT = {
  linked: 'Your Epic Games account is linked.',
  unlinked: 'Your Epic Games account is unlinked. Sign in with your email and password from now on.',
  linkSent: 'If an account can use this email, a link to sign in and link your Epic Games account has been sent to it.',
  wrongPassword: { error: 'wrong_password', message: 'The password is not correct.' },
  invalidCredentials: { error: 'invalid_credentials', message: 'Invalid email or password' },
  /** The account may not prove itself by password (no password, the switch, or a second factor). */
  passwordNotAccepted: {
    error: 'password_not_accepted',
    message: 'This account cannot be proved with its password here. Use "Email me a link" instead.',
  },
  alreadyLinked: {
    error: 'epic_already_linked',
    message: 'This Sage account is already linked to another Epic Games account.',
  },
  taken: {
    error: 'epic_account_taken',
    message: 'This Epic Games account already belongs to another Sage account. Sign in with Epic Games to use that account.',
  },
  notLinked: { error: 'epic_not_linked', message: 'This account has no Epic Games account linked.' },
  cannotUnlink: {
    error: 'unlink_refused',
    message: 'Unlinking would leave this account with no way to sign in. Keep Epic Games linked.',
  },
  invalidLink: { error: 'invalid_link', message: 'This link is invalid, expired or has already been used.' },
} as const;
