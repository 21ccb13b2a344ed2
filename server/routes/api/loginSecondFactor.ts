import { okResponseSchema } from '../../../contract/auth';
import { codeRequestSchema, SECOND_FACTOR_ERRORS, SECOND_FACTOR_MESSAGES } from '../../../contract/secondFactor';
import { AppError } from '../../errors';
import { SECOND_FACTOR_SIGN_IN, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';
import { enforceLimits } from '../../http/rateLimit';
import { clearSecondFactorCookie, secondFactorToken, sessionOrigin, sessionToken, setSessionCookie } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import { AUTH_RATE_LIMITS } from '../../services/rateLimiter';
import { normalizeEmail } from '../../services/users';

const TOO_MANY = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/** The second step of a password sign-in of an account with a second factor (issue 40, decision 046). */
export async function loginSecondFactorRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');

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
      const expired = () => new AppError(401, SECOND_FACTOR_ERRORS.signInExpired, SECOND_FACTOR_MESSAGES.signInExpired);
      const token = secondFactorToken(request);
      const email = token ? await services.secondFactor.pendingSignInEmail(token) : null;
      if (!token || email === null) {
        clearSecondFactorCookie(reply, secure);
        throw expired();
      }
      // The same limits as the password step, counted first (so codes in flight at once cannot all
      // pass a count read before any failed); a success gives its attempt back, as a password's does.
      const emailKey = `login:email:${normalizeEmail(email)}`;
      await enforceLimits(services, TOO_MANY, [
        [`login:ip:${request.ip}`, AUTH_RATE_LIMITS.loginPerIp],
        [emailKey, AUTH_RATE_LIMITS.loginPerEmail],
      ]);
      const done = await services.secondFactor.completeSignIn(token, request.body.code, (trx, userId, persistent) =>
        services.sessions.signIn(sessionToken(request), userId, persistent, 'password', trx, sessionOrigin(request)),
      );
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
}
