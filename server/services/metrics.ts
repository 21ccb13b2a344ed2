/**
 * What the services report for the operator's metrics (server/plugins/metrics.ts counts it in
 * Prometheus). Labels are small fixed sets chosen here, never request data: no addresses, e-mails
 * or ids, so every series stays bounded however the product is used.
 */
export type SignInMethod = 'password' | 'epic' | 'passkey';
export type SignInOutcome = 'success' | 'failure';
export type MailOutcome = 'sent' | 'failed';
/** `invalid_signature` and `invalid_event` deliveries are counted under the type `unverified`: their type is not trusted. */
export type WebhookOutcome = 'applied' | 'duplicate' | 'invalid_signature' | 'invalid_event' | 'failed';
export type HandOffOutcome = 'issued' | 'refused' | 'redeemed' | 'invalid_code' | 'expired_code' | 'wrong_verifier';

export interface ServiceMetrics {
  signIn(method: SignInMethod, outcome: SignInOutcome): void;
  /** `limit` is the key's prefix (`login`, `register`, …), never the counted address or e-mail. */
  rateLimited(limit: string): void;
  mail(outcome: MailOutcome): void;
  webhook(type: string, outcome: WebhookOutcome): void;
  handOff(outcome: HandOffOutcome): void;
}

/** For callers without metrics (the CLI, service tests). */
export const NO_METRICS: ServiceMetrics = {
  signIn: () => undefined,
  rateLimited: () => undefined,
  mail: () => undefined,
  webhook: () => undefined,
  handOff: () => undefined,
};

/** The limit a rate-limit key counts for: its first segment (`login:ip:…` → `login`). */
export function limitName(key: string): string {
  const end = key.indexOf(':');
  return end === -1 ? key : key.slice(0, end);
}
