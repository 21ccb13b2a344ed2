import { PASSKEY_CANCELLED, PASSKEY_UNSUPPORTED } from '../../../contract/passkeyWords';
import { HttpError } from '../../api/client';

/** A device that already holds a passkey for this account (the options excluded it). */
export const PASSKEY_ALREADY_HERE = 'This device already holds a passkey for your account.';

/**
 * What to tell the user when a passkey ceremony failed, or null when there is nothing to say:
 * the server's own words for a refusal; for the browser's errors (@simplewebauthn/browser's
 * WebAuthnError, or the DOMException under it) the product's words; `fallback` otherwise.
 */
export function passkeyProblem(error: unknown, fallback: string): string {
  if (error instanceof HttpError) return error.message || fallback;
  if (!(error instanceof Error)) return fallback;
  const code = (error as { code?: unknown }).code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || error.name === 'InvalidStateError') return PASSKEY_ALREADY_HERE;
  if (code === 'ERROR_CEREMONY_ABORTED' || error.name === 'NotAllowedError' || error.name === 'AbortError') return PASSKEY_CANCELLED;
  if (/not supported/i.test(error.message) || error.name === 'NotSupportedError') return PASSKEY_UNSUPPORTED;
  return fallback;
}
