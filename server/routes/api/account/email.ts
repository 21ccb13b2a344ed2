import {
  accountEmailSchema,
  EMAIL_CHANGE_MESSAGES,
  emailChangeConfirmQuerySchema,
  emailChangeLanding,
  emailChangeRequestedSchema,
  emailChangeRequestSchema,
  emailChangeSignedOutLanding,
  type EmailChangeOutcome,
} from '../../../../contract/accountEmail';
import { failurePage } from '../../../http/pageErrors';
import { enforceLimits } from '../../../http/rateLimit';
import { sessionToken, sessionUser } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_EMAIL_RATE_LIMITS } from '../../../services/rateLimiter';
import { access } from '../../../http/endpointAccess';

const TOO_MANY_LINKS = 'Too many e-mail change links opened. Please try again later.';

/** The signed-in user's e-mail (issue 27): what it is, and changing it through a link to the new address. */
export async function accountEmailRoutes(app: App, { services }: RouteContext) {
  const { emailChange } = services;

  app.get('/email', { schema: { response: { 200: accountEmailSchema } }, config: access.user({ tag: 'Account' }) }, async (request) =>
    emailChange.overview(request.user, sessionToken(request)),
  );

  const change = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: "The address is already the account's (same_email), or the current password is missing (current_password_required) or wrong (wrong_password)",
      403: 'An account without a password whose sign-in here is over 10 minutes old: sign in with Epic again (reauthentication_required)',
      409: 'Another account has this e-mail (email_taken)',
      502: 'The mail to the new address could not be sent (mail_failed)',
    },
  });
  app.post(
    '/email',
    { schema: { body: emailChangeRequestSchema, response: { 200: emailChangeRequestedSchema } }, config: change },
    async (request) => {
      const { user } = request;
      // Per user, as each request mails a link and may check a password; per address, for many accounts at once.
      await enforceLimits(services, EMAIL_CHANGE_MESSAGES.tooMany, [
        [`account-email:user:${user.id}`, ACCOUNT_EMAIL_RATE_LIMITS.requestsPerUser],
        [`account-email:ip:${request.ip}`, ACCOUNT_EMAIL_RATE_LIMITS.requestsPerIp],
      ]);
      return emailChange.request(user, sessionToken(request), request.body);
    },
  );

  // The link in the mail: opened in any browser, signed in or not, so every outcome is a redirect to
  // a page that says it, never a JSON error: the dashboard's notice when signed in, else the sign-in
  // page's (the dashboard would send a signed-out browser on to the home page without a word).
  const landing = (outcome: EmailChangeOutcome, signedIn: boolean) =>
    signedIn ? emailChangeLanding(outcome) : emailChangeSignedOutLanding(outcome);
  // On a failure the session is not looked up (the database may be why it failed): a session cookie is the guess.
  const toLanding = failurePage((failure, request) =>
    landing(failure === 'rate_limited' ? 'rate_limited' : 'failed', sessionToken(request) !== undefined),
  );
  const link = access.public('the link in the e-mail change mail, opened in any browser (a redirect; its token is the credential)', {
    tag: 'Account',
    limited: true,
    redirect:
      'Changes the e-mail once per link: to /dashboard?emailChange=<outcome>#account when signed in, else to /login?emailChange=<outcome> (changed, invalid_token, expired_token, email_taken, rate_limited, failed)',
  });
  app.get(
    '/email/confirm',
    { schema: { querystring: emailChangeConfirmQuerySchema }, attachValidation: true, errorHandler: toLanding, config: link },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY_LINKS, [[`account-email-link:ip:${request.ip}`, ACCOUNT_EMAIL_RATE_LIMITS.linkPerIp]]);
      const token = request.validationError ? undefined : request.query.token;
      const outcome = token ? await emailChange.confirm(token) : 'invalid_token';
      return reply.redirect(landing(outcome, (await sessionUser(request, services)) !== null));
    },
  );
}
