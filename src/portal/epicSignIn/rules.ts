import type { AuthStatus, SignInClient } from '../../../contract/epic';
import { ACCOUNT_SUSPENDED } from '../../../contract/suspension';
import { EPIC_LINKING_TEXT } from '../../../contract/epicLinkingText';

/** What /authentication_failed says for a reason (§2 Authentication failed; decision 005). */
export interface FailureText {
  title: string;
  description: string;
  /** Signing in again cannot help (a suspended account): the page offers support instead of Try Again. */
  contactSupport?: true;
}

export const UNEXPECTED_FAILURE: FailureText = {
  title: 'Authentication Failed',
  description: 'An unexpected error occurred. Please try again.',
};

const FAILURES: Record<string, FailureText> = {
  canceled: { title: 'Login Canceled', description: 'Epic Login was canceled' },
  state_mismatch: { title: 'Authentication Failed', description: 'Security validation failed. Please try again.' },
  token_exchange_failed: {
    title: 'Authentication Failed',
    description: 'Sign-in could not be completed: failed to exchange authorization code.',
  },
  user_info_failed: {
    title: 'Authentication Failed',
    description: 'Sign-in could not be completed: failed to retrieve user information from Epic Games.',
  },
  server_error: { title: 'Authentication Failed', description: 'Sign-in could not be completed: a server error occurred.' },
  invalid_redirect_uri: {
    title: 'Plugin Sign-in Refused',
    description:
      'The plugin asked to receive its sign-in at an address that is not allowed. A UE loopback redirect must be localhost or 127.0.0.1 over http.',
  },
  invalid_plugin_request: {
    title: 'Plugin Sign-in Refused',
    description: 'The plugin’s sign-in request is incomplete or malformed. Start the sign-in again from the Sage toolbar in Unreal Editor.',
  },
  rate_limited: {
    title: 'Too Many Attempts',
    description: 'Too many sign-in attempts from here. Please wait a few minutes and try again.',
  },
  verification_required: {
    title: 'Email Not Verified',
    description: 'Your email address has not been verified yet. Open the link in the verification email, then try again.',
  },
  account_suspended: { title: 'Account Suspended', description: ACCOUNT_SUSPENDED.message, contactSupport: true },
  // Linking Epic to an existing account (decision 047): nothing was changed.
  epic_account_taken: { title: 'Epic Account Already Linked', description: EPIC_LINKING_TEXT.taken.message },
  epic_already_linked: { title: 'Already Linked', description: EPIC_LINKING_TEXT.alreadyLinked.message },
  link_invalid: { title: 'Link Expired', description: EPIC_LINKING_TEXT.invalidLink.message },
};

/** The title and description for `reason`; unknown or missing reasons get the unexpected-error text. */
export function failureText(reason: string | null): FailureText {
  return (reason !== null && Object.hasOwn(FAILURES, reason) ? FAILURES[reason] : undefined) ?? UNEXPECTED_FAILURE;
}

/** `client` from a query string: the plugin's `ue`, anything else the web portal. */
export const clientFromSearch = (value: string | null): SignInClient => (value === 'ue' ? 'ue' : 'web');

/** Where a server-given `next` leads: a portal route, a server URL (a full navigation), or nowhere. */
export type NextStep = { kind: 'route'; to: string } | { kind: 'server'; url: string } | { kind: 'invalid' };

/**
 * Only same-origin paths are followed: `next` comes from our server, but a page that navigates
 * wherever an answer says would turn any injected answer into an open redirect.
 */
export function nextStep(next: string | undefined | null): NextStep {
  if (!next || !next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next)) return { kind: 'invalid' };
  return next === '/api' || next.startsWith('/api/') ? { kind: 'server', url: next } : { kind: 'route', to: next };
}

/** What /login_completed shows (§2, §4 Login completed). */
export type LoginCompletedView = 'deliver' | 'success' | 'error';

/**
 * - `deliver`: a plugin hand-off waits for this signed-in browser, so the page sends it the code.
 * - `error`: the plugin's sign-in failed or was canceled, or nobody is signed in.
 * - `success`: signed in, and nothing (more) to deliver.
 */
export function loginCompletedView(client: SignInClient, status: AuthStatus): LoginCompletedView {
  if (status.ue.enabled && status.authenticated) return 'deliver';
  if (client === 'ue' && (status.ue.status === 'failed' || status.ue.status === 'canceled')) return 'error';
  return status.authenticated ? 'success' : 'error';
}
