import type { FastifyRequest } from 'fastify';
import { checkExistsResponseSchema, emailRequestSchema, linkResponseSchema } from '../../../contract/epic';
import { ACCOUNT_EXISTS_MESSAGE } from '../../../contract/user';
import { enforceLimits } from '../../http/rateLimit';
import { signInToken } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import { AUTH_RATE_LIMITS } from '../../services/rateLimiter';
import { SIGN_IN } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';

const TOO_MANY = 'Too many email checks. Please wait a few minutes and try again.';

const SIGN_IN_STEP = access.public('the sign-in cookie', { tag: 'Epic sign-in', security: SIGN_IN, limited: true });

/** Linking an e-mail to a new Epic account during its sign-in (`/api/user/check-exists`, `/api/epic/link`). */
export async function epicLinkRoutes(app: App, { services }: RouteContext) {
  const { epicSignIn } = services;

  /**
   * Both tell whether an e-mail has an account: counted per IP, and per Epic account once the
   * browser is known to have one waiting (others get their 403 uncounted).
   */
  async function limitEmailLookups(request: FastifyRequest) {
    await enforceLimits(services, TOO_MANY, [[`email-lookup:ip:${request.ip}`, AUTH_RATE_LIMITS.emailLookupPerIp]]);
    const flow = await epicSignIn.pendingFlow(signInToken(request));
    await enforceLimits(services, TOO_MANY, [[`email-lookup:epic:${flow.epic_account_id}`, AUTH_RATE_LIMITS.emailLookupPerEpicAccount]]);
  }

  app.post(
    '/user/check-exists',
    { schema: { body: emailRequestSchema, response: { 200: checkExistsResponseSchema } }, config: SIGN_IN_STEP },
    async (request) => {
      await limitEmailLookups(request);
      const exists = await epicSignIn.emailExists(signInToken(request), request.body.email);
      return {
        ok: true as const,
        exists,
        message: exists ? ACCOUNT_EXISTS_MESSAGE : 'No account uses this email yet.',
      };
    },
  );

  app.post(
    '/epic/link',
    { schema: { body: emailRequestSchema, response: { 200: linkResponseSchema } }, config: SIGN_IN_STEP },
    async (request) => {
      await limitEmailLookups(request);
      return epicSignIn.link(signInToken(request), request.body.email);
    },
  );
}
