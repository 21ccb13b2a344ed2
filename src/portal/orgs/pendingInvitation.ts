import { invitationPath } from '../../../contract/invitationLink';

/**
 * The invitation a visitor opened before signing in or signing up (issue 38): kept in this browser
 * so the sign-in, by e-mail or through Epic and its e-mail verification, leads back to it.
 */
const KEY = 'sage.pendingInvitation';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage refused (a privacy setting): the visitor opens the mail's link again.
    return null;
  }
}

export function rememberInvitation(token: string): void {
  storage()?.setItem(KEY, token);
}

export function forgetInvitation(): void {
  storage()?.removeItem(KEY);
}

/** Where a sign-in goes next when an invitation waits: its page; else null. */
export function pendingInvitationPath(): string | null {
  const token = storage()?.getItem(KEY);
  return token ? invitationPath(token) : null;
}
