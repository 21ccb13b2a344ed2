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
export function topUpPausedMail(reason: TopUpPauseReason, purchase: PausedPurchase, publicUrl: string, org?: { name: string }) {
  // A studio's pool (migration 028): its packs are bought by hand on the studio's page.
  const buy = org ? `${publicUrl}/dashboard#organisations` : `${publicUrl}/products-checkout`;
  const usage = org ? buy : `${publicUrl}/dashboard#usage`;
  const [mine, why] = WHY[reason];
  const subject = org ? `${org.name}: ${mine.replace('your card', "the studio's card")}` : mine;
  const threshold = purchase.threshold.toLocaleString('en');
  const tried = org
    ? `${org.name}'s shared credits fell below ${threshold}, so automatic top-up tried to buy ${purchase.packName} for ${purchase.price} with the studio's saved card.`
    : `Your Sage credits fell below ${threshold}, so automatic top-up tried to buy ${purchase.packName} for ${purchase.price} with your saved card.`;
  const after = org
    ? "Automatic top-up of the shared pool is paused until its owner or a billing manager turns it back on on the studio's page."
    : 'Automatic top-up is paused until you turn it back on in the Usage section of your dashboard.';
  const text = `${tried}\n\n${why}\n\nBuy credits by hand, paying with your card now:\n${buy}\n\n${after}\n${usage}\n`;
  const html =
    `<p>${escapeHtml(tried)}</p><p>${escapeHtml(why)}</p>` +
    `<p><a href="${escapeHtml(buy)}">Buy credits by hand</a></p>` +
    `<p>${escapeHtml(after)} <a href="${escapeHtml(usage)}">${org ? "Open the studio's page" : "Open your dashboard's Usage section"}</a></p>`;
  return { subject, text, html };
}
