import { okResponseSchema } from '../../../../contract/auth';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../../services/rateLimiter';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = 'Too many license reissues. Please try again later.';

/** The signed-in user's own license (issue 27). */
export async function accountLicenseRoutes(app: App, { services }: RouteContext) {
  // The console's reissue, with the user as its actor: the old token is refused at once
  // (license_revoked), so every plugin install signs in again and receives the new one. The
  // browser is not given the token: nothing on the dashboard uses it.
  const config = access.user({ tag: 'Account', limited: true });
  app.post('/license/reissue', { schema: { response: { 200: okResponseSchema } }, config }, async (request) => {
    const { user } = request;
    await enforceLimits(services, TOO_MANY, [[`license-reissue:user:${user.id}`, ACCOUNT_SECURITY_RATE_LIMITS.licenseReissuePerUser]]);
    await services.accountControl.reissueLicense({ id: user.id, email: user.email }, user.id);
    return { ok: true as const, message: 'Your license was reissued. Every Sage install must sign in again.' };
  });
}
