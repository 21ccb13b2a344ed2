import { okResponseSchema } from '../../../contract/auth';
import { authenticationOptionsSchema, passkeySignInRequestSchema } from '../../../contract/passkeys';
import { codeRequestSchema, SECOND_FACTOR_ERRORS, SECOND_FACTOR_MESSAGES } from '../../../contract/secondFactor';
import { AppError } from '../../errors';
import { SECOND_FACTOR_AND_PASSKEY_CHALLENGE, SECOND_FACTOR_SIGN_IN, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';
import { clearPasskeyCookie, passkeyChallengeToken, setPasskeyCookie } from '../../http/passkeyCookie';
import { enforceLimits } from '../../http/rateLimit';
import { clearSecondFactorCookie, secondFactorToken, sessionOrigin, sessionToken, setSessionCookie } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_RATE_LIMITS } from '../../services/rateLimiter';
import { normalizeEmail } from '../../services/users';

const TOO_MANY = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/** The second step of a password sign-in of an account with a second factor (issue 40, decision 046). */
export async function loginSecondFactorRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const expired = () => new AppError(401, SECOND_FACTOR_ERRORS.signInExpired, SECOND_FACTOR_MESSAGES.signInExpired);

  /** This browser's pending sign-in (its token and account), or 401 `second_factor_expired`, its cookie cleared. */
  async function pendingOf(request: FastifyRequest, reply: FastifyReply) {
    const token = secondFactorToken(request);
    const pending = token ? await services.secondFactor.pendingSignIn(token) : null;
    if (!token || pending === null) {
      clearSecondFactorCookie(reply, secure);
      throw expired();
    }
    return { token, ...pending };
  }

  /**
   * The same limits as the password step, counted first (so answers in flight at once cannot all
   * pass a count read before any failed); answers the account's key, whose attempt a success gives back.
   */
  async function countAttempt(request: FastifyRequest, email: string): Promise<string> {
    const emailKey = `login:email:${normalizeEmail(email)}`;
    await enforceLimits(services, TOO_MANY, [
      [`login:ip:${request.ip}`, AUTH_RATE_LIMITS.loginPerIp],
      [emailKey, AUTH_RATE_LIMITS.loginPerEmail],
    ]);
    return emailKey;
  }

  const startFor =
    (request: FastifyRequest) =>
    (trx: Parameters<Parameters<typeof services.secondFactor.completeSignIn>[2]>[0], userId: string, persistent: boolean) =>
      services.sessions.signIn(sessionToken(request), userId, persistent, 'password', trx, sessionOrigin(request));

  const step = access.public('the pending sign-in cookie of the password step is the credential', {
    tag: 'Account',
    limited: true,
    security: SECOND_FACTOR_SIGN_IN,
    errors: {
      401: 'A wrong or used code (invalid_code), or no pending sign-in in this browser, or one past its five minutes (second_factor_expired)',
      403: SUSPENDED,
    },
  });
  app.post(
    '/login/second-factor',
    { schema: { body: codeRequestSchema, response: { 200: okResponseSchema } }, config: step },
    async (request, reply) => {
      const { token, email } = await pendingOf(request, reply);
      const emailKey = await countAttempt(request, email);
      const done = await services.secondFactor.completeSignIn(token, request.body.code, startFor(request));
      if (!done) {
        services.metrics.signIn('password', 'failure');
        throw new AppError(401, SECOND_FACTOR_ERRORS.invalidCode, SECOND_FACTOR_MESSAGES.invalidCode);
      }
      await services.rateLimiter.giveBack(emailKey);
      clearSecondFactorCookie(reply, secure);
      setSessionCookie(reply, done.session, secure);
      services.metrics.signIn('password', 'success');
      return { ok: true as const, message: 'Signed in' };
    },
  );

  const passkeyOptions = access.public('the pending sign-in cookie of the password step is the credential', {
    tag: 'Account',
    limited: true,
    security: SECOND_FACTOR_SIGN_IN,
    errors: { 401: 'No pending sign-in in this browser, or one past its five minutes (second_factor_expired)' },
  });
  app.post(
    '/login/second-factor/passkey/options',
    { schema: { response: { 200: authenticationOptionsSchema } }, config: passkeyOptions },
    async (request, reply) => {
      const { userId } = await pendingOf(request, reply);
      await enforceLimits(services, TOO_MANY, [[`login:ip:${request.ip}`, AUTH_RATE_LIMITS.loginPerIp]]);
      const ceremony = await services.passkeys.secondFactorOptions(userId);
      setPasskeyCookie(reply, ceremony.challenge, secure);
      return { ...ceremony.options };
    },
  );

  const passkeyStep = access.public("the pending sign-in cookie, and the passkey's signature over this browser's challenge", {
    tag: 'Account',
    limited: true,
    security: SECOND_FACTOR_AND_PASSKEY_CHALLENGE,
    errors: {
      400: 'No passkey challenge of this browser to answer, or it expired or was used (passkey_challenge_expired)',
      401: "No pending sign-in in this browser, or one past its five minutes (second_factor_expired); not one of the account's passkeys (passkey_unknown), or its answer did not verify (passkey_refused)",
      403: SUSPENDED,
    },
  });
  app.post(
    '/login/second-factor/passkey',
    { schema: { body: passkeySignInRequestSchema, response: { 200: okResponseSchema } }, config: passkeyStep },
    async (request, reply) => {
      const { token, userId, email } = await pendingOf(request, reply);
      const emailKey = await countAttempt(request, email);
      // The challenge is spent by this answer, whatever comes of it; verified for the pending
      // sign-in's account only, then the sign-in completes as a code's does (once, all or nothing).
      const challenge = passkeyChallengeToken(request);
      clearPasskeyCookie(reply, secure);
      try {
        await services.passkeys.verifyAssertion(challenge, request.body.response, { userId });
      } catch (err) {
        services.metrics.signIn('password', 'failure');
        throw err;
      }
      const done = await services.secondFactor.completeSignInWith(token, async () => 'passkey', startFor(request));
      if (!done) throw expired();
      await services.rateLimiter.giveBack(emailKey);
      clearSecondFactorCookie(reply, secure);
      setSessionCookie(reply, done.session, secure);
      services.metrics.signIn('password', 'success');
      return { ok: true as const, message: 'Signed in' };
    },
  );
}
