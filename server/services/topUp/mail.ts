import type { TopUpPauseReason } from '../../../contract/topUp';
import { escapeHtml } from '../mailer';

/** An amount in a currency's minor units as money, as the dashboard writes it (`$9.99`, `¥1,500`). */
export function moneyText(minorUnits: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
    return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${(minorUnits / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** What a paused top-up tried to buy, in the mail's words. */
export interface PausedPurchase {
  packName: string;
  /** The price, written as money (`$9.99`). */
  price: string;
  threshold: number;
}

const WHY: Record<TopUpPauseReason, readonly [subject: string, line: string]> = {
  authentication_required: [
    'Automatic top-up is paused: your card needs you to confirm the payment',
    'Your bank asks you to confirm this payment yourself, which it cannot do while you are away, so the card was not charged.',
  ],
  card_declined: ['Automatic top-up is paused: your card was declined', 'Your card was declined, so nothing was charged.'],
  no_saved_card: ['Automatic top-up is paused: no card is saved', 'No card is saved on your account any more, so nothing was charged.'],
};

/**
 * The mail when top-up pauses (issue 39): what it tried to buy and why it could not, a link to buy
 * credits by hand, and where to turn top-up back on.
 */
export function topUpPausedMail(reason: TopUpPauseReason, purchase: PausedPurchase, publicUrl: string) {
  const buy = `${publicUrl}/products-checkout`;
  const usage = `${publicUrl}/dashboard#usage`;
  const [subject, why] = WHY[reason];
  const tried = `Your Sage credits fell below ${purchase.threshold.toLocaleString('en')}, so automatic top-up tried to buy ${purchase.packName} for ${purchase.price} with your saved card.`;
  const after = 'Automatic top-up is paused until you turn it back on in the Usage section of your dashboard.';
  const text = `${tried}\n\n${why}\n\nBuy credits by hand, paying with your card now:\n${buy}\n\n${after}\n${usage}\n`;
  const html =
    `<p>${escapeHtml(tried)}</p><p>${escapeHtml(why)}</p>` +
    `<p><a href="${escapeHtml(buy)}">Buy credits by hand</a></p>` +
    `<p>${escapeHtml(after)} <a href="${escapeHtml(usage)}">Open your dashboard's Usage section</a></p>`;
  return { subject, text, html };
}
