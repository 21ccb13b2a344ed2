import { okResponseSchema } from '../../../../contract/auth';
import { EPIC_LINKING_TEXT as TEXT, epicLinkStatusSchema, passwordCheckSchema } from '../../../../contract/epicLinking';
import { access } from '../../../http/endpointAccess';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../../services/rateLimiter';

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

/** The Account section's Epic Games panel (issue 40, decision 047): whether Epic is linked, and unlinking it. */
export async function accountEpicRoutes(app: App, { services }: RouteContext) {
  app.get('/epic', { schema: { response: { 200: epicLinkStatusSchema } }, config: access.user({ tag: 'Account' }) }, async (request) => {
    return services.epicLinking.status(request.user);
  });

  const unlink = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'The password is wrong (wrong_password)',
      409: 'No Epic account is linked (epic_not_linked), or unlinking would leave no way to sign in (unlink_refused)',
    },
  });
  app.delete('/epic', { schema: { body: passwordCheckSchema, response: { 200: okResponseSchema } }, config: unlink }, async (request) => {
    const { user } = request;
    // Counted as the password change is: only wrong passwords count.
    const key = `password-change:user:${user.id}`;
    await enforceLimits(services, TOO_MANY, [[key, ACCOUNT_SECURITY_RATE_LIMITS.passwordChangePerUser]]);
    await services.epicLinking.unlink(user, request.body.password);
    await services.rateLimiter.giveBack(key);
    return { ok: true as const, message: TEXT.unlinked };
  });
}
