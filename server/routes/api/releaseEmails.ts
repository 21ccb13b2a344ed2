import { okResponseSchema } from '../../../contract/auth';
import { RELEASE_EMAILS_TEXT, unsubscribeQuerySchema } from '../../../contract/releaseEmails';
import { AppError } from '../../errors';
import { enforceLimits } from '../../http/rateLimit';
import type { App, RouteContext } from '../../http/types';
import { access } from '../../http/endpointAccess';
import { RELEASE_EMAIL_RATE_LIMITS } from '../../services/rateLimiter';

/** Most bytes of a body this route reads before it ignores it. */
const IGNORED_BODY_LIMIT = 1024;

/**
 * The release e-mails' one-click unsubscribe (issue 41, RFC 8058): mail providers POST to the
 * List-Unsubscribe address with `List-Unsubscribe=One-Click` as a form, and the portal's
 * /unsubscribe/release-emails page POSTs with no body. The token is the credential; the body is
 * ignored, whatever its type. A GET never unsubscribes (mail scanners follow links).
 */
export async function releaseEmailRoutes(app: App, { services }: RouteContext) {
  // Any body at all (a form, text, multipart) is read and dropped: RFC 8058 asks for none of it.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: IGNORED_BODY_LIMIT }, (_request, _body, done) => done(null, undefined));

  app.post(
    '/release-emails/unsubscribe',
    {
      schema: { querystring: unsubscribeQuerySchema, response: { 200: okResponseSchema } },
      config: access.public("a release e-mail's one-click unsubscribe: its token is the credential", {
        tag: 'Account',
        limited: true,
        errors: { 404: 'No unsubscribe link has this token (unknown_token)' },
      }),
    },
    async (request) => {
      await enforceLimits(services, 'Too many unsubscribe requests. Please try again later.', [
        [`release-emails-unsubscribe:ip:${request.ip}`, RELEASE_EMAIL_RATE_LIMITS.unsubscribesPerIp],
      ]);
      // The same answer whether it turned the e-mails off now or before: it never says whose link it is.
      if (!(await services.releaseMails.unsubscribe(request.query.token)))
        throw new AppError(404, 'unknown_token', RELEASE_EMAILS_TEXT.unknownLink);
      return { ok: true as const, message: RELEASE_EMAILS_TEXT.unsubscribed };
    },
  );
}
