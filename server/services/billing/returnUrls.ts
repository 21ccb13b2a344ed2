import { BILLING_MESSAGES } from '../../../contract/billing';
import { AppError, badRequest } from '../../errors';

/**
 * Where Stripe may send the browser back to: only this site (PUBLIC_URL's origin and, outside
 * production, the Vite dev server's). No open redirects.
 */
export function createReturnUrls(publicUrl: string, extraOrigins: string[]) {
  const allowedOrigins = new Set([new URL(publicUrl).origin, ...extraOrigins]);
  return function returnUrl(url: string | undefined, fallbackPath: string): string {
    if (url === undefined || url === '') return `${publicUrl}${fallbackPath}`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw badRequest('invalid_return_url', BILLING_MESSAGES.badReturnUrl);
    }
    if (!allowedOrigins.has(parsed.origin)) throw badRequest('invalid_return_url', BILLING_MESSAGES.badReturnUrl);
    return parsed.href;
  };
}

export function redirectOf(url: string | null): string {
  if (!url) throw new AppError(502, 'payment_provider_error', 'No checkout URL received');
  return url;
}

/** Checkout replaces the placeholder with the session id; the return handler applies that session. */
export function withSessionId(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('session_id', 'CHECKOUT_SESSION_ID');
  return parsed.href.replace('CHECKOUT_SESSION_ID', '{CHECKOUT_SESSION_ID}');
}
