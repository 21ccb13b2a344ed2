import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IssuedChallenge } from '../services/passkeys/challenges';

/**
 * Ties a browser to its passkey ceremony in progress (issue 40): the token of the challenge its
 * options carried, for five minutes, sent only to /api. HttpOnly, so no script reads it; the
 * answer is checked against this browser's own challenge and no other.
 */
export const PASSKEY_COOKIE = 'sage_passkey';

export function passkeyChallengeToken(request: FastifyRequest): string | undefined {
  return request.cookies[PASSKEY_COOKIE] || undefined;
}

export function setPasskeyCookie(reply: FastifyReply, challenge: IssuedChallenge, secure: boolean): void {
  reply.setCookie(PASSKEY_COOKIE, challenge.token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: new Date(challenge.expiresAt),
  });
}

/** The challenge is spent once answered, whatever the outcome: its cookie goes with it. */
export function clearPasskeyCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(PASSKEY_COOKIE, { path: '/api', httpOnly: true, sameSite: 'strict', secure });
}
