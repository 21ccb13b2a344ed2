import { escapeHtml, type Mail } from '../mailer';

/** Where each mail sends someone who did not make the change. */
interface MailContext {
  publicUrl: string;
  supportEmail: string;
}

function mail(subject: string, lines: string[], ctx: MailContext): Omit<Mail, 'to'> {
  const notYou = `If it was not you, reset your password at once with Forgot password on the sign-in page (${ctx.publicUrl}/login) and write to ${ctx.supportEmail}.`;
  const all = [...lines, notYou];
  return {
    subject,
    text: all.join('\n\n') + '\n',
    html: all.map((line) => `<p>${escapeHtml(line)}</p>`).join(''),
  };
}

/** The mails that tell the owner about each change of their two-step sign-in (issue 40). */
export const secondFactorMails = {
  enabled: (ctx: MailContext) =>
    mail(
      'Two-step sign-in is on for your Sage account',
      [
        'Two-step sign-in was just turned on for your Sage account: signing in with your password now also asks for a code from your authenticator app.',
        'Keep your recovery codes somewhere safe: each signs you in once if you lose your phone.',
      ],
      ctx,
    ),
  disabled: (ctx: MailContext) =>
    mail(
      'Two-step sign-in is off for your Sage account',
      ['Two-step sign-in was just turned off for your Sage account: your password alone signs you in now.'],
      ctx,
    ),
  regenerated: (ctx: MailContext) =>
    mail(
      'New recovery codes for your Sage account',
      ['New recovery codes were just made for your Sage account; the old ones no longer work.'],
      ctx,
    ),
  recoveryCodeUsed: (left: number, ctx: MailContext) =>
    mail(
      'A recovery code was used to sign in to your Sage account',
      [
        `A recovery code was just used to sign in to your Sage account. ${left} of your recovery codes remain unused.`,
        'If you lost your authenticator app, make new recovery codes and set up the app again in the Account section.',
      ],
      ctx,
    ),
  reset: (ctx: MailContext) =>
    mail(
      'Sage support turned off two-step sign-in for your account',
      [
        'At your request, and after checking who asked, Sage support turned off two-step sign-in for your account: your authenticator app and your passkeys were removed, and your password alone signs you in now.',
        'Turn it on again in the Account section once you can.',
      ],
      ctx,
    ),
};
