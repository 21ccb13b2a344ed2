/**
 * Helpers for server tests of Sign in with Epic, e-mail linking and the plugin hand-off. They
 * drive the suite's development identity provider (tests/server/harness.ts starts it) over HTTP the
 * way a browser does, and the product through a TestClient and its cookie jar.
 *
 *   const browser = server().client();
 *   const landed = await signInWithEpic(browser, 'Ada');      // a new Epic account
 *   expect(location(landed)).toBe('/epic_account_link?client=web');
 *   await linkEmail(browser, email);                          // check-exists, link, send
 *   await browser.get(pathOf(await verificationLink(server(), email)));
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { devAccountId } from '../../server/devIdentityProvider';
import { s256 } from '../../server/services/pluginHandOff';
import { hashToken } from '../../server/services/tokens';
import { signInAtProvider } from '../fixtures/identityProvider';
import { uniqueEmail, type TestClient, type TestServer } from './harness';

export { devAccountId };

/** The `Location` a redirect answered, asserting that it is a redirect. */
export function location(response: LightMyRequestResponse): string {
  expect(response.statusCode, response.body).toBe(302);
  const value = response.headers.location;
  if (typeof value !== 'string') throw new Error(`no Location header: ${response.statusCode} ${response.body}`);
  return value;
}

/** Path and query of an absolute URL: what a TestClient requests. */
export function pathOf(url: string | URL): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

export const failedWith = (reason: string) => `/authentication_failed?reason=${reason}`;

/** Where the mail's link lands: the completed page with the server's message. */
export const completedPage = (success: boolean, message: string) =>
  `/email-verification-completed?success=${success}&message=${encodeURIComponent(message)}`;
export const VERIFIED_PAGE = completedPage(true, 'Your email has been verified. Return to the sign-in window to continue.');
export const INVALID_LINK_PAGE = completedPage(false, 'This verification link is invalid or has already been used.');
export const EXPIRED_LINK_PAGE = completedPage(false, 'Verification code has expired');

/** The 403 for a browser whose Epic sign-in waits for no e-mail, or for another one. */
export const NO_PENDING_SIGN_IN = {
  error: 'no_pending_sign_in',
  message: 'No Epic sign-in is waiting for an email here. Please sign in with Epic again.',
};
export const NOT_LINKING = {
  error: 'not_linking',
  message: 'This email is not waiting for verification here. Please link it to your Epic account first.',
};

/** The account row with this e-mail, if any. */
export const userByEmail = (server: TestServer, email: string) =>
  server.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

/** A PKCE verifier and its S256 challenge, as the plugin makes them. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** The plugin's loopback listener (nothing listens: the browser's redirect is only read). */
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:49152/callback';

/** The query of `/api/auth/login?client=ue…` a well-behaved plugin sends; `overrides` replace or (undefined) drop fields. */
export function pluginLoginUrl(overrides: Record<string, string | undefined> = {}): string {
  const params: Record<string, string | undefined> = {
    client: 'ue',
    redirect_uri: LOOPBACK_REDIRECT,
    state: 'plugin-state-123',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `/api/auth/login?${query.toString()}`;
}

/**
 * `GET /api/auth/login…` in `browser`: returns the provider's authorize URL it was sent to (with
 * the product's state) and checks that the browser now holds a sign-in cookie.
 */
export async function startSignIn(browser: TestClient, loginUrl = '/api/auth/login?client=web'): Promise<URL> {
  const response = await browser.get(loginUrl);
  const authorize = new URL(location(response));
  expect(authorize.pathname).toBe('/auth');
  expect(browser.cookies.get('sage_sign_in')).toBeTruthy();
  return authorize;
}

/** Starts a sign-in, signs in at the provider as `displayName` and returns the product's callback URL. */
export async function epicCallbackFor(browser: TestClient, displayName: string, loginUrl?: string): Promise<URL> {
  const authorize = await startSignIn(browser, loginUrl);
  return signInAtProvider(authorize.href, { displayName });
}

/** The whole round trip to Epic: returns the product's answer to the callback. */
export async function signInWithEpic(browser: TestClient, displayName: string, loginUrl?: string): Promise<LightMyRequestResponse> {
  const callback = await epicCallbackFor(browser, displayName, loginUrl);
  return browser.get(pathOf(callback));
}

/** A display name (and with it an Epic account) no other test uses. */
export function uniqueDisplayName(prefix = 'Player'): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

/** Waits until `email` has received `n` mails and returns the n-th (1-based). No Date: tests fake it. */
export async function nthMail(server: TestServer, email: string, n = 1) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const mail = server.smtp.mailsTo(email)[n - 1];
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`mail #${n} to ${email} did not arrive`);
}

/** The `GET /api/email/verify?token=…` link of the n-th verification mail to `email`. */
export async function verificationLink(server: TestServer, email: string, n = 1): Promise<string> {
  const mail = await nthMail(server, email, n);
  const link = mail.links.find((l) => l.includes('/api/email/verify?token='));
  if (!link) throw new Error(`no verification link in mail: ${mail.text}`);
  return link;
}

/** Opens the `n`th verification link mailed to `email` in another browser (a phone); answers where it lands. */
export async function openVerificationLink(server: TestServer, email: string, n = 1): Promise<string> {
  return location(await server.client().get(pathOf(await verificationLink(server, email, n))));
}

/** The Epic link page's Continue: check-exists, link, then the waiting page's first send. */
export async function linkEmail(browser: TestClient, email: string): Promise<void> {
  const exists = await browser.post('/api/user/check-exists', { email });
  expect(exists.json()).toMatchObject({ ok: true, exists: false });
  const linked = await browser.post('/api/epic/link', { email });
  expect(linked.json()).toMatchObject({ ok: true, requiresVerification: true });
  const sent = await browser.post('/api/email/send-verification', { email });
  expect(sent.json()).toMatchObject({ ok: true, code: 'sent' });
}

/**
 * A new Epic account from login to signed in: link `email`, open the mail's link (in another
 * browser, as from a phone) and come back through callback-internal. Returns that last answer.
 */
export async function signUpWithEpic(
  server: TestServer,
  browser: TestClient,
  opts: { displayName: string; email: string; loginUrl?: string },
): Promise<LightMyRequestResponse> {
  const client = new URL(opts.loginUrl ?? '/api/auth/login?client=web', 'http://x').searchParams.get('client');
  expect(location(await signInWithEpic(browser, opts.displayName, opts.loginUrl))).toBe(`/epic_account_link?client=${client}`);
  await linkEmail(browser, opts.email);
  expect(await openVerificationLink(server, opts.email)).toMatch(/^\/email-verification-completed\?success=true&/);
  const status = await browser.post('/api/email/check-verification-status', { email: opts.email });
  expect(status.json()).toMatchObject({ ok: true, verified: true });
  return browser.get('/api/auth/callback-internal');
}

/** A loopback port nothing listens on (bound, then released): connections to it are refused. */
export async function closedLoopbackPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The sign-in flow row behind a browser's `sage_sign_in` cookie. */
export async function signInFlowOf(server: TestServer, browser: TestClient) {
  const token = browser.cookies.get('sage_sign_in');
  if (!token) throw new Error('the browser has no sign-in cookie');
  return server.db.selectFrom('sign_in_flows').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
}

/** An Epic account that already has an account here (e-mail linked and verified, in another browser). */
export async function existingEpicUser(server: TestServer): Promise<{ displayName: string; email: string }> {
  const displayName = uniqueDisplayName('Known');
  const email = uniqueEmail('known');
  const completed = await signUpWithEpic(server, server.client(), { displayName, email });
  expect(location(completed)).toBe('/login_completed?client=web');
  return { displayName, email };
}

/** A browser back from Epic with a new Epic account, on the link page. */
export async function pendingEpicBrowser(server: TestServer, client: TestClient = server.client()) {
  const displayName = uniqueDisplayName('Linker');
  expect(location(await signInWithEpic(client, displayName))).toBe('/epic_account_link?client=web');
  return { browser: client, displayName };
}

/** A browser that linked `email` and had the first verification mail sent. */
export async function linkedEpicBrowser(server: TestServer, email: string) {
  const pending = await pendingEpicBrowser(server);
  await linkEmail(pending.browser, email);
  return pending;
}

/** Moves the browser's verification rows back in time by `ms`, as if that long had passed. */
export async function ageVerifications(server: TestServer, browser: TestClient, column: 'created_at' | 'expires_at', ms: number) {
  const flow = await signInFlowOf(server, browser);
  const rows = await server.db.selectFrom('email_verifications').selectAll().where('flow_id', '=', flow.id).execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    await server.db
      .updateTable('email_verifications')
      .set({ [column]: row[column] - ms })
      .where('token_hash', '=', row.token_hash)
      .execute();
  }
}
