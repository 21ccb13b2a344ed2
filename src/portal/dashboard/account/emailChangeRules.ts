import { EMAIL_CHANGE_OUTCOMES, isEmailChangeOutcome, type PendingEmailChange } from '../../../../contract/accountEmail';
import type { ToastInput } from '../../../ui/toast';
import { formatMoment } from '../../../ui/format';

/** The waiting change, in words: where the link went and until when it works (the browser's time). */
export const pendingText = (pending: PendingEmailChange): string =>
  `A link was sent to ${pending.newEmail}. Open it before ${formatMoment(pending.expiresAt)} to confirm ` +
  'the change; until then your e-mail stays as it is.';

/**
 * The toast for `?emailChange=<outcome>`, where the mail's link lands; null for anything else. Only
 * the contract's texts are shown, chosen by code, so a crafted address cannot put words on the page.
 */
export function emailChangeNotice(outcome: string | null): ToastInput | null {
  if (!isEmailChangeOutcome(outcome)) return null;
  const { success, message } = EMAIL_CHANGE_OUTCOMES[outcome];
  return success
    ? { title: 'E-mail changed', description: message }
    : { title: 'E-mail not changed', description: message, variant: 'destructive' };
}
