import { escapeHtml } from '../mailer';

export type PasskeyChange = 'added' | 'renamed' | 'removed';

const WHAT: Record<PasskeyChange, (name: string) => string> = {
  added: (name) => `A passkey named "${name}" was added to your Sage account. It can now sign in to your account without your password.`,
  renamed: (name) => `A passkey of your Sage account was renamed to "${name}".`,
  removed: (name) => `The passkey named "${name}" was removed from your Sage account. It can no longer sign in.`,
};

const SUBJECT: Record<PasskeyChange, string> = {
  added: 'A passkey was added to your Sage account',
  renamed: 'A passkey of your Sage account was renamed',
  removed: 'A passkey was removed from your Sage account',
};

/** The mail that tells the owner a passkey of theirs changed, and what to do if it was not them. */
export function passkeyChangedMail(change: PasskeyChange, name: string, accountLink: string, signInLink: string) {
  const what = WHAT[change](name);
  return {
    subject: SUBJECT[change],
    text:
      `${what}\n\nIf it was you, there is nothing else to do. You can see your passkeys in Account:\n${accountLink}\n\n` +
      `If it was not you, reset your password at once with Forgot password on the sign-in page, then remove any passkey you do not know:\n${signInLink}\n`,
    html:
      `<p>${escapeHtml(what)}</p>` +
      `<p>If it was you, there is nothing else to do. You can see your passkeys in <a href="${escapeHtml(accountLink)}">Account</a>.</p>` +
      `<p>If it was not you, reset your password at once with Forgot password on the <a href="${escapeHtml(signInLink)}">sign-in page</a>, ` +
      `then remove any passkey you do not know.</p>`,
  };
}
