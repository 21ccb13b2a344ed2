import { okResponseSchema } from '../../../../contract/auth';
import { passwordChangeRequestSchema, passwordStatusSchema, SIGN_OUT_PLUGIN_DEFAULT } from '../../../../contract/accountPassword';
import { unauthorized } from '../../../errors';
import { enforceLimits } from '../../../http/rateLimit';
import { sessionToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../../services/rateLimiter';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = 'Too many password change attempts. Please wait a few minutes and try again.';

/** The signed-in user's own password (issue 27): whether there is one, and changing it. */
export async function accountPasswordRoutes(app: App, { services }: RouteContext) {
  app.get('/password', { schema: { response: { 200: passwordStatusSchema } }, config: access.user({ tag: 'Account' }) }, async (request) =>
    services.accountPassword.status(request.user),
  );

  const change = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'The current password is wrong (wrong_password)',
      409: 'The account signs in with Epic and has no password (no_password), or its password changed meanwhile (conflict)',
    },
  });
  app.post(
    '/password',
    { schema: { body: passwordChangeRequestSchema, response: { 200: okResponseSchema } }, config: change },
    async (request) => {
      const { user } = request;
      // The guard let a session through, so there is its token: the one session the change keeps.
      const keep = sessionToken(request);
      if (!keep) throw unauthorized();
      // Counted before scrypt, as sign-in is, so guesses in flight at once cannot all pass a count
      // read before any of them failed; a success gives its attempt back, so only wrong ones count.
      const key = `password-change:user:${user.id}`;
      await enforceLimits(services, TOO_MANY, [[key, ACCOUNT_SECURITY_RATE_LIMITS.passwordChangePerUser]]);
      const { otherSessionsEnded } = await services.accountPassword.change(
        user,
        keep,
        request.body.currentPassword,
        request.body.newPassword,
        request.body.signOutPlugin,
      );
      await services.rateLimiter.giveBack(key);
      const elsewhere = otherSessionsEnded > 0 ? ' You were signed out everywhere else.' : '';
      const plugin = (request.body.signOutPlugin ?? SIGN_OUT_PLUGIN_DEFAULT) ? ' Sign the Sage plugin in again.' : '';
      return { ok: true as const, message: `Your password was changed.${elsewhere}${plugin}` };
    },
  );
}
