import type { FastifyReply, FastifyRequest } from 'fastify';
import { LICENSE_REVOKED } from '../../contract/license';
import { isSuspended } from '../../contract/suspension';
import { AppError, unauthorized } from '../errors';
import type { Services } from '../services';
import type { NewSession, SessionOrigin, SignInMethod } from '../services/sessions';
import { accountSuspended, type User } from '../services/users';

/** The session cookie of an http deployment (development, tests); on https it is HOST_SESSION_COOKIE. */
export const SESSION_COOKIE = 'sage_session';
/**
 * The session cookie of an https deployment. Browsers accept a `__Host-` cookie only when it is
 * Secure, has Path=/ and no Domain, i.e. only from this very host: a sibling subdomain cannot plant
 * one, as it could a plain `sage_session` for the parent domain (decision 003).
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Ties a browser to its Epic sign-in in progress (services/epicSignIn.ts). */
export const SIGN_IN_COOKIE = 'sage_sign_in';
/** Names a password sign-in waiting for its second factor (services/secondFactor), for five minutes. */
export const SECOND_FACTOR_COOKIE = 'sage_second_factor';
/** Only the second step of sign-in reads it. */
const SECOND_FACTOR_COOKIE_PATH = '/api/login';

/** The session cookie's name: `secure` is whether PUBLIC_URL is https. */
export function sessionCookieName(secure: boolean): string {
  return secure ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

const tokens = new WeakMap<FastifyRequest, string>();
/** Requests whose answer depends on who sent them: their session or bearer token was looked up. */
const identified = new WeakSet<FastifyRequest>();

/**
 * Takes the request's session token from the deployment's session cookie. The auth plugin
 * (plugins/auth.ts) calls it for every request, before any route: it alone knows the name.
 */
export function readSessionCookie(request: FastifyRequest, secure: boolean): void {
  const token = request.cookies[sessionCookieName(secure)];
  if (token) tokens.set(request, token);
}

/** The session token the request carries (see readSessionCookie), if any. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return tokens.get(request);
}

/** Whether the answer to this request depends on who sent it (security.ts makes it `no-store`). */
export function dependsOnCaller(request: FastifyRequest): boolean {
  return identified.has(request);
}

/** Remember me → a cookie that outlives the browser; otherwise one that ends with it. */
export function setSessionCookie(reply: FastifyReply, session: NewSession, secure: boolean): void {
  reply.setCookie(sessionCookieName(secure), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    ...(session.persistent ? { expires: new Date(session.expiresAt) } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(sessionCookieName(secure), { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

const resolved = new WeakMap<FastifyRequest, User | null>();

/**
 * The signed-in user of this request, or null; looked up once per request. A suspended user is
 * nobody: their sessions were ended at suspension, and one that slipped through signs nobody in.
 */
export async function sessionUser(request: FastifyRequest, services: Services): Promise<User | null> {
  if (resolved.has(request)) return resolved.get(request) ?? null;
  identified.add(request);
  const token = sessionToken(request);
  const found = token ? await services.sessions.userFor(token) : null;
  const user = found && !isSuspended(found.status) ? found : null;
  resolved.set(request, user);
  return user;
}

/**
 * The browser a session starts in: its user agent and its address (`request.ip`, the client's as
 * TRUST_PROXY allows: a proxy we were not told to trust is the client).
 */
export function sessionOrigin(request: FastifyRequest): SessionOrigin {
  return { userAgent: request.headers['user-agent'], ip: request.ip };
}

/** Signs the browser in as `userId` by `method`, ending the session it had (the token rotates at sign-in). */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  opts: { userId: string; persistent: boolean; secure: boolean; method: SignInMethod },
): Promise<void> {
  const session = await services.sessions.signIn(
    sessionToken(request),
    opts.userId,
    opts.persistent,
    opts.method,
    undefined,
    sessionOrigin(request),
  );
  setSessionCookie(reply, session, opts.secure);
}

export function signInToken(request: FastifyRequest): string | undefined {
  return request.cookies[SIGN_IN_COOKIE] || undefined;
}

/** Only the sign-in endpoints under /api need it; it lasts as long as the flow. */
export function setSignInCookie(reply: FastifyReply, token: string, expiresAt: number, secure: boolean): void {
  reply.setCookie(SIGN_IN_COOKIE, token, { path: '/api', httpOnly: true, sameSite: 'lax', secure, expires: new Date(expiresAt) });
}

/** The token of an `Authorization: Bearer …` header (the plugin's and the AI service's calls). */
export function bearerToken(request: FastifyRequest): string | undefined {
  identified.add(request);
  return /^Bearer\s+(\S{1,512})$/i.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * The refusal of a bearer license token that signs nobody in: 403 `account_suspended` when its user
 * is suspended; 401 `license_revoked` (sign in again) when an admin replaced it; else 401 with the
 * route's own `unauthorized` message.
 */
export async function licenseTokenRefusal(services: Services, token: string | undefined, message: string): Promise<AppError> {
  if (token && (await services.users.isSuspendedLicenseToken(token))) return accountSuspended();
  if (token && (await services.users.isRevokedLicenseToken(token)))
    return new AppError(401, LICENSE_REVOKED.error, LICENSE_REVOKED.message);
  return unauthorized(message);
}

export function secondFactorToken(request: FastifyRequest): string | undefined {
  return request.cookies[SECOND_FACTOR_COOKIE] || undefined;
}

/** HttpOnly, SameSite=Lax, only for /api/login…, gone when the pending sign-in expires. */
export function setSecondFactorCookie(reply: FastifyReply, token: string, expiresAt: number, secure: boolean): void {
  reply.setCookie(SECOND_FACTOR_COOKIE, token, {
    path: SECOND_FACTOR_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(expiresAt),
  });
}

export function clearSecondFactorCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SECOND_FACTOR_COOKIE, { path: SECOND_FACTOR_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
}
