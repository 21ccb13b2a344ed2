import type { TopUp, TopUpPauseReason } from '../../../../contract/topUp';
import { formatCount, formatLongDate, formatMoney } from '../../../ui/format';

/** What the Usage section says about automatic top-up (issue 39), apart from how it is drawn. */

/** Why top-up is paused, and what to do, in the product's words. */
export const PAUSED_TEXT: Record<TopUpPauseReason, string> = {
  authentication_required:
    'Paused: your card needs you to confirm the payment. Buy credits by hand, confirming with your bank, then turn top-up back on.',
  card_declined: 'Paused: your card was declined. Buy credits by hand with a card that works, then turn top-up back on.',
  no_saved_card: 'Paused: no card is saved. Buy credits by hand to save one, then turn top-up back on.',
};

/** The line on what this month's top-ups cost against the cap: `This month: €9.99 of €30.00`. */
export function monthText(view: TopUp): string | null {
  if (!view.settings || !view.thisMonth) return null;
  const { spent, currency } = view.thisMonth;
  return `This month: ${formatMoney(spent, currency)} of ${formatMoney(view.settings.monthlyCap, currency)}`;
}

/** The newest top-up, as one sentence; null when there is none. */
export function lastTopUpText(view: TopUp): string | null {
  const last = view.last;
  if (!last) return null;
  const credits = `${formatCount(last.credits)} credits`;
  const price = formatMoney(last.amount, last.currency);
  const on = formatLongDate(last.at);
  switch (last.status) {
    case 'pending':
    case 'paid':
      return `Buying ${credits} for ${price} now.`;
    case 'credited':
      return `Last top-up: ${credits} for ${price} on ${on}.`;
    case 'capped':
      return `The monthly cap stopped a top-up of ${credits} for ${price} on ${on}. Raise the cap, or buy credits by hand.`;
    case 'declined':
      return `Your card was declined for a top-up of ${credits} for ${price} on ${on}.`;
    case 'authentication_required':
      return `Your bank asked you to confirm a top-up of ${credits} for ${price} on ${on}.`;
    case 'failed':
      return `A top-up of ${credits} on ${on} could not be bought. The next one will be tried as usual.`;
  }
}

/** The one-line state of top-up: off, on with its rule, or paused (shown apart, with what to do). */
export function ruleText(view: TopUp): string {
  const settings = view.settings;
  if (!settings?.enabled) return 'Automatic top-up is off.';
  const pack = view.packs.find((p) => p.priceId === settings.priceId);
  const what = pack ? `${formatCount(pack.credits)} credits for ${formatMoney(pack.amount, pack.currency)}` : 'a credit pack';
  const cap = view.thisMonth ? `, at most ${formatMoney(settings.monthlyCap, view.thisMonth.currency)} a month` : '';
  return `When your credits fall below ${formatCount(settings.threshold)}, Sage buys ${what} with your saved card${cap}.`;
}
