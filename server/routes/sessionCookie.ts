import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UsersTable } from '../db/schema';
import type { Services } from '../services';
import type { NewSession } from '../services/sessions';

export const SESSION_COOKIE = 'sage_session';

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] || undefined;
}

/** Remember me → a cookie that outlives the browser; otherwise one that ends with it. */
export function setSessionCookie(reply: FastifyReply, session: NewSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    ...(session.persistent ? { expires: new Date(session.expiresAt) } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

const resolved = new WeakMap<FastifyRequest, UsersTable | null>();

/** The signed-in user of this request, or null; looked up once per request. */
export async function sessionUser(request: FastifyRequest, services: Services): Promise<UsersTable | null> {
  if (resolved.has(request)) return resolved.get(request) ?? null;
  const token = sessionToken(request);
  const user = token ? await services.sessions.userFor(token) : null;
  resolved.set(request, user);
  return user;
}
