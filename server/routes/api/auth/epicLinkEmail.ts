import { linkEmailQuerySchema } from '../../../../contract/epicLinking';
import { SIGN_IN_OPTIONAL } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';
import { failurePage } from '../../../http/pageErrors';
import { enforceLimits } from '../../../http/rateLimit';
import { sessionOrigin, sessionToken, setSessionCookie, setSignInCookie, signInToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { AUTH_RATE_LIMITS } from '../../../services/rateLimiter';
import { failurePath, linkedPath } from './epic';

const TOO_MANY = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/** Where a spent, expired or unknown link lands. */
const INVALID_LINK_PAGE = failurePath('link_invalid');

/** The e-mailed single-use link that proves an account to link Epic to (decision 047). */
export async function epicLinkEmailRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const toFailurePage = failurePage(failurePath);

  const opened = access.public("the mailed link's token is the credential (a redirect)", {
    tag: 'Epic sign-in',
    security: SIGN_IN_OPTIONAL,
    limited: true,
    redirect:
      'The link mailed by POST /api/epic/link-by-email or POST /api/login/link-request, spent once: in the browser whose Epic sign-in waits for it, links and signs in (to /login_completed or the Account section); elsewhere, to Epic for a sign-in that links to that account; spent or expired, to /authentication_failed',
  });
  app.get(
    '/link-email',
    { schema: { querystring: linkEmailQuerySchema }, attachValidation: true, errorHandler: toFailurePage, config: opened },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY, [[`epic-start:ip:${request.ip}`, AUTH_RATE_LIMITS.epicStartPerIp]]);
      if (request.validationError) return reply.redirect(INVALID_LINK_PAGE);
      const outcome = await services.epicLinking.openEmailedLink(
        request.query.token,
        signInToken(request),
        sessionToken(request),
        sessionOrigin(request),
      );
      if (outcome.kind === 'invalid') return reply.redirect(INVALID_LINK_PAGE);
      if (outcome.kind === 'refused') return reply.redirect(failurePath(outcome.reason));
      if (outcome.kind === 'linked') {
        if (outcome.session) setSessionCookie(reply, outcome.session, secure);
        services.metrics.signIn('epic', 'success');
        return reply.redirect(linkedPath(outcome.client));
      }
      if (!services.epicSignIn.available) return reply.redirect(failurePath('server_error'));
      // Another browser, or the login page's link: Epic's sign-in, linking to that account, then a session.
      const started = await services.epicSignIn.start('web', null, { userId: outcome.userId, signsIn: true });
      setSignInCookie(reply, started.token, started.expiresAt, secure);
      return reply.redirect(started.authorizeUrl);
    },
  );
}
