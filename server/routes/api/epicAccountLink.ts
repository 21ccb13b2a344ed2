import {
  EPIC_LINKING_TEXT as TEXT,
  linkByEmailRequestSchema,
  linkedResponseSchema,
  linkSignInRequestSchema,
  neutralResponseSchema,
  passwordCheckSchema,
} from '../../../contract/epicLinking';
import { emailedLinkSignInAllowed } from '../../../contract/legacyLogin';
import { AppError } from '../../errors';
import { SIGN_IN, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';
import { enforceLimits } from '../../http/rateLimit';
import { sessionOrigin, sessionToken, setSessionCookie, signInToken } from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import { AUTH_RATE_LIMITS } from '../../services/rateLimiter';
import { normalizeEmail } from '../../services/users';
import { linkedPath } from './auth/epic';

const TOO_MANY = {
  login: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  mail: 'Too many link requests. Please try again later.',
};

const REFUSALS = {
  403: `No Epic sign-in waits here (no_pending_sign_in), the account may not prove itself by password (password_not_accepted), or ${SUSPENDED}`,
  409: 'The Epic account belongs to another user (epic_account_taken), or the account has another Epic account (epic_already_linked)',
};

/**
 * Linking the Epic account a sign-in brought back to an existing account (issue 40, decision 047):
 * the link page's "link to the account you're signed in as", "sign in to that account to link it"
 * by password or by an e-mailed link; and, with LEGACY_LOGIN=off, the login page's e-mailed link.
 */
export async function epicAccountLinkRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const { epicLinking } = services;

  /** Counted as POST /api/login counts: per address, and per account tried (failures only). */
  async function limitSignIn(ip: string, email: string | null) {
    const keys: Parameters<typeof enforceLimits>[2] = [[`login:ip:${ip}`, AUTH_RATE_LIMITS.loginPerIp]];
    if (email) keys.push([`login:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.loginPerEmail]);
    await enforceLimits(services, TOO_MANY.login, keys);
  }

  const signedIn = access.user({
    tag: 'Epic sign-in',
    security: [{ sessionCookie: [], signInCookie: [] }],
    limited: true,
    errors: { 400: 'The password is wrong (wrong_password)', ...REFUSALS },
  });
  app.post(
    '/epic/link-signed-in',
    { schema: { body: passwordCheckSchema, response: { 200: linkedResponseSchema } }, config: signedIn },
    async (request, reply) => {
      const { user } = request;
      await limitSignIn(request.ip, user.email);
      const linked = await epicLinking.linkSignedIn(
        user,
        signInToken(request),
        request.body.password,
        sessionToken(request),
        sessionOrigin(request),
      );
      if (user.email) await services.rateLimiter.giveBack(`login:email:${normalizeEmail(user.email)}`);
      if (linked.session) setSessionCookie(reply, linked.session, secure);
      services.metrics.signIn('epic', 'success');
      return { ok: true as const, message: TEXT.linked, next: linkedPath(linked.client) };
    },
  );

  const signIn = access.public('the sign-in cookie and the account’s e-mail and password', {
    tag: 'Epic sign-in',
    security: SIGN_IN,
    limited: true,
    errors: { 401: 'Wrong e-mail or password (invalid_credentials)', ...REFUSALS },
  });
  app.post(
    '/epic/link-sign-in',
    { schema: { body: linkSignInRequestSchema, response: { 200: linkedResponseSchema } }, config: signIn },
    async (request, reply) => {
      const { email, password } = request.body;
      await limitSignIn(request.ip, email);
      const linked = await epicLinking.linkSignIn(signInToken(request), email, password, sessionToken(request), sessionOrigin(request));
      if (!linked) {
        services.metrics.signIn('password', 'failure');
        throw new AppError(401, TEXT.invalidCredentials.error, TEXT.invalidCredentials.message);
      }
      await services.rateLimiter.giveBack(`login:email:${normalizeEmail(email)}`);
      if (linked.session) setSessionCookie(reply, linked.session, secure);
      services.metrics.signIn('epic', 'success');
      return { ok: true as const, message: TEXT.linked, next: linkedPath(linked.client) };
    },
  );

  const byEmail = access.public('the sign-in cookie; the answer is the same whether or not the e-mail has an account', {
    tag: 'Epic sign-in',
    security: SIGN_IN,
    limited: true,
    errors: { 403: 'No Epic sign-in waits here (no_pending_sign_in)' },
  });
  app.post(
    '/epic/link-by-email',
    { schema: { body: linkByEmailRequestSchema, response: { 200: neutralResponseSchema } }, config: byEmail },
    async (request) => {
      const { email } = request.body;
      await enforceLimits(services, TOO_MANY.mail, [
        [`forgot:ip:${request.ip}`, AUTH_RATE_LIMITS.forgotPerIp],
        [`forgot:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.forgotPerEmail],
      ]);
      await epicLinking.requestLinkByEmail(signInToken(request), email);
      return { ok: true as const, message: TEXT.linkSent };
    },
  );

  const linkRequest = access.public('asking for a sign-in link while signed out (LEGACY_LOGIN=off)', {
    tag: 'Account',
    limited: true,
    errors: { 404: 'The e-mail login is not retired here (LEGACY_LOGIN is not off): sign in with the password (not_found)' },
  });
  app.post(
    '/login/link-request',
    { schema: { body: linkByEmailRequestSchema, response: { 200: neutralResponseSchema } }, config: linkRequest },
    async (request) => {
      if (!emailedLinkSignInAllowed(config.runtime.legacyLogin, { hasPassword: true, hasEpic: false })) {
        throw new AppError(404, 'not_found', 'Sign-in links are sent only once the e-mail login is retired.');
      }
      const { email } = request.body;
      await enforceLimits(services, TOO_MANY.mail, [
        [`forgot:ip:${request.ip}`, AUTH_RATE_LIMITS.forgotPerIp],
        [`forgot:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.forgotPerEmail],
      ]);
      epicLinking.requestSignInLink(email);
      return { ok: true as const, message: TEXT.linkSent };
    },
  );
}
