import { z } from 'zod';
import { sendVerificationResponseSchema, VERIFY_LINK_MESSAGES, verificationStatusSchema } from '../../../../contract/emailVerification';
import { emailRequestSchema } from '../../../../contract/epic';
import { AUTH_RATE_LIMITS } from '../../../services/rateLimiter';
import { normalizeEmail } from '../../../services/users';
import { failurePage } from '../../../http/pageErrors';
import { enforceLimits } from '../../../http/rateLimit';
import { signInToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { singleLine } from '../../../../contract/text';
import { SIGN_IN } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = {
  send: 'Too many verification emails. Please try again later.',
  status: 'Too many status checks. Please slow down.',
  link: 'Too many verification attempts. Please try again later.',
};

/** The steps of an Epic sign-in that verify its e-mail: its sign-in cookie is the credential. */
const SIGN_IN_STEP = access.public('the sign-in cookie', { tag: 'Email verification', security: SIGN_IN, limited: true });

const verifyQuerySchema = z.object({ token: z.string().check(singleLine('token')).max(200).optional() });

const completedPath = (success: boolean, message: string) =>
  `/email-verification-completed?success=${success}&message=${encodeURIComponent(message)}`;

/** Verifying the e-mail a new Epic account links (product §4 Email verification). */
export async function emailVerificationRoutes(app: App, { services }: RouteContext) {
  const { emailVerification } = services;

  for (const [path, mode] of [
    ['/send-verification', 'send'],
    ['/resend-verification', 'resend'],
  ] as const) {
    app.post(
      path,
      { schema: { body: emailRequestSchema, response: { 200: sendVerificationResponseSchema } }, config: SIGN_IN_STEP },
      async (request) => {
        const { email } = request.body;
        const token = signInToken(request);
        await enforceLimits(services, TOO_MANY.send, [[`verification-send:ip:${request.ip}`, AUTH_RATE_LIMITS.verificationSendPerIp]]);
        // Counted per address only for the browser linking it, or anyone could use up someone's mails.
        await emailVerification.assertLinking(token, email);
        await enforceLimits(services, TOO_MANY.send, [
          [`verification-send:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.verificationSendPerEmail],
        ]);
        return emailVerification.send(token, email, mode);
      },
    );
  }

  app.post(
    '/check-verification-status',
    { schema: { body: emailRequestSchema, response: { 200: verificationStatusSchema } }, config: SIGN_IN_STEP },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY.status, [[`verification-status:ip:${request.ip}`, AUTH_RATE_LIMITS.verificationStatusPerIp]]);
      reply.header('cache-control', 'no-store');
      return emailVerification.status(signInToken(request), request.body.email);
    },
  );

  // The link in the verification mail: opened in any browser, possibly on another device.
  // A person opens it, so even a mangled link gets the page rather than a JSON error.
  const toCompletedPage = failurePage((failure) =>
    completedPath(false, failure === 'rate_limited' ? VERIFY_LINK_MESSAGES.tooMany : VERIFY_LINK_MESSAGES.failed),
  );
  app.get(
    '/verify',
    {
      schema: { querystring: verifyQuerySchema },
      attachValidation: true,
      errorHandler: toCompletedPage,
      config: access.public('the link in the verification mail, opened in any browser (a redirect)', {
        tag: 'Email verification',
        limited: true,
        redirect: 'To /email-verification-completed with the outcome',
      }),
    },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY.link, [[`verification-link:ip:${request.ip}`, AUTH_RATE_LIMITS.verificationLinkPerIp]]);
      const outcome =
        request.query.token && !request.validationError
          ? await emailVerification.verify(request.query.token)
          : { success: false, message: VERIFY_LINK_MESSAGES.invalid };
      return reply.redirect(completedPath(outcome.success, outcome.message));
    },
  );
}
