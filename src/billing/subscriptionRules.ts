import { fromUnixTime } from 'date-fns';
import { isLiveStatus, type Subscription } from '../../contract/billing';
import { formatDate, formatLongDate } from '../ui/format';

/**
 * §2 Subscription card and banner rules, free of React. Subscription times are unix seconds.
 * Outside src/portal because the admin console's account details show the same status badges.
 */

/** §2: after Stripe's pages send the browser back (the dashboard's toast, the update page). */
export const SUBSCRIPTION_UPDATED = {
  title: 'Subscription Updated',
  description: 'Your subscription settings have been updated successfully.',
};

export type ChipColor = 'default' | 'success' | 'info' | 'warning' | 'error';

export interface StatusBadge {
  label: string;
  color: ChipColor;
}

const BADGES: Record<string, StatusBadge> = {
  active: { label: 'Active', color: 'success' },
  trialing: { label: 'Trial', color: 'info' },
  past_due: { label: 'Past Due', color: 'error' },
  canceled: { label: 'Canceled', color: 'default' },
  unpaid: { label: 'Unpaid', color: 'error' },
  incomplete: { label: 'Incomplete', color: 'warning' },
  paused: { label: 'Paused', color: 'warning' },
};

/** The status badge; a status the card does not know is shown as Stripe spells it. */
export function statusBadge(status: string): StatusBadge {
  return (Object.hasOwn(BADGES, status) ? BADGES[status] : undefined) ?? { label: status, color: 'default' };
}

/** Stripe's times are in seconds since the epoch. */
const cardDate = (seconds: number): string => formatDate(fromUnixTime(seconds));

/** The card's date line: trial_end if present, else current_period_end. */
export function billingDate(sub: Subscription): { label: 'Trial Ends' | 'Next Billing'; date: string } | null {
  const seconds = sub.trial_end ?? sub.current_period_end;
  if (seconds === null) return null;
  return { label: sub.status === 'trialing' ? 'Trial Ends' : 'Next Billing', date: cardDate(seconds) };
}

/** Set to end: a cancellation date, or a cancellation at the end of the period. */
const isSetToEnd = (sub: Subscription) => sub.cancel_at !== null || sub.cancel_at_period_end;

/** The card's main button: which Stripe page it opens, if any. */
export type CardAction = 'none' | 'reactivate' | 'resume' | 'manage';

export function cardAction(sub: Subscription): CardAction {
  if (sub.status === 'canceled') return 'none';
  if (isSetToEnd(sub)) return 'reactivate';
  if (sub.status === 'paused') return 'resume';
  return 'manage';
}

export const CARD_ACTION_LABELS: Record<Exclude<CardAction, 'none'>, string> = {
  reactivate: 'Re-Activate',
  resume: 'Resume Subscription',
  manage: 'Manage',
};

const PAYMENT_METHOD_STATUSES = new Set(['trialing', 'past_due', 'incomplete']);

/** Add Payment Method: no card on file while a first or overdue payment is waiting. */
export const needsPaymentMethod = (sub: Subscription): boolean => !sub.default_payment_method && PAYMENT_METHOD_STATUSES.has(sub.status);

export type CardMessageKind = 'trial' | 'ending' | 'canceled' | 'overdue';

export interface CardMessage {
  kind: CardMessageKind;
  severity: 'info' | 'warning' | 'error';
  text: string;
}

/** The notes under a card (§2 Subscription card: Messages). */
export function cardMessages(sub: Subscription): CardMessage[] {
  const messages: CardMessage[] = [];
  if (sub.status === 'trialing' && sub.trial_end !== null) {
    messages.push({
      kind: 'trial',
      severity: 'info',
      text: `Your subscription will start automatically on ${cardDate(sub.trial_end)}.`,
    });
  }
  if (sub.status !== 'canceled' && isSetToEnd(sub)) {
    const end = sub.cancel_at ?? sub.current_period_end;
    const until = end === null ? 'until then' : `until ${cardDate(end)}`;
    messages.push({
      kind: 'ending',
      severity: 'warning',
      text: `Your subscription will end at the end of the current billing period. You can keep using it ${until}.`,
    });
  }
  if (sub.status === 'canceled') {
    messages.push({
      kind: 'canceled',
      severity: 'info',
      text: 'This subscription has been canceled and cannot be renewed. To subscribe again, start a new checkout.',
    });
  }
  if (sub.status === 'past_due' || sub.status === 'unpaid') {
    messages.push({
      kind: 'overdue',
      severity: 'error',
      text: 'Your payment is overdue. Please update your payment method to keep your subscription.',
    });
  }
  return messages;
}

/** Subscriptions that have ended for good do not count for the banners. */
export const isLive = (sub: Subscription): boolean => isLiveStatus(sub.status);

export type BannerKind = 'trial' | 'billing-issue' | 'payment-method-required';

export interface Banner {
  kind: BannerKind;
  severity: 'info' | 'error' | 'warning';
  title: string;
  text: string;
}

/** The banners above the dashboard's subscription cards (§2 Dashboard, Banners), in order. */
export function subscriptionBanners(subscriptions: readonly Subscription[]): Banner[] {
  const live = subscriptions.filter(isLive);
  const banners: Banner[] = [];
  const trial = live.find((s) => s.status === 'trialing' && s.trial_end !== null);
  if (trial?.trial_end != null) {
    const ends = `Your free trial ends on ${formatLongDate(fromUnixTime(trial.trial_end))}.`;
    banners.push({
      kind: 'trial',
      severity: 'info',
      title: 'Trial Active',
      text: trial.default_payment_method ? ends : `${ends} Please add a payment method to keep your subscription after the trial.`,
    });
  }
  if (live.some((s) => s.status === 'past_due' || s.status === 'incomplete')) {
    banners.push({
      kind: 'billing-issue',
      severity: 'error',
      title: 'Billing Issue',
      text: 'We could not collect a payment for your subscription. Please update your payment method to avoid an interruption.',
    });
  }
  const noPaymentMethod = live.length > 0 && live.every((s) => !s.default_payment_method);
  if (noPaymentMethod && !live.some((s) => s.status === 'trialing')) {
    banners.push({
      kind: 'payment-method-required',
      severity: 'warning',
      title: 'Payment Method Required',
      text: 'There is no payment method on file for your subscription. Please add one so that your next invoice can be paid.',
    });
  }
  return banners;
}

/** The subscription-update page: the statuses that need the user to act, in §2's order. */
const ACTION_REQUIRED_TEXT: Record<string, string> = {
  past_due: 'Your last payment failed. Please update your payment method to keep your subscription active.',
  unpaid: 'Your subscription is unpaid: its recent invoices could not be collected. Please update your payment method to restore access.',
  paused:
    'Your free trial ended without a payment method, so your subscription is paused. Resume your subscription to continue using Sage.',
};

/** The first subscription that needs action (past_due, unpaid or paused), with what to tell the user. */
export function actionRequired(subscriptions: readonly Subscription[]): { subscription: Subscription; text: string } | null {
  const subscription = subscriptions.find((s) => Object.hasOwn(ACTION_REQUIRED_TEXT, s.status));
  return subscription ? { subscription, text: ACTION_REQUIRED_TEXT[subscription.status] ?? '' } : null;
}
