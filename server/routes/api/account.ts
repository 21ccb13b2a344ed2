import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  okResponseSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
} from '../../../contract/auth';
import { currentUserSchema } from '../../../contract/user';
import { loginResponseSchema, SECOND_FACTOR_MESSAGES } from '../../../contract/secondFactor';
import { AppError } from '../../errors';
import { AUTH_RATE_LIMITS } from '../../services/rateLimiter';
import { normalizeEmail, toCurrentUser } from '../../services/users';
import { enforceLimits } from '../../http/rateLimit';
import {
  clearSessionCookie,
  sessionOrigin,
  sessionToken,
  sessionUser,
  setSecondFactorCookie,
  setSessionCookie,
  startSession,
} from '../../http/sessionCookie';
import type { App, RouteContext } from '../../http/types';
import { SESSION_OPTIONAL, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';
import { EPIC_LINKING_TEXT } from '../../../contract/epicLinking';
import { refusePasswordSignIn, refuseRegistration, refuseRetiredLogin } from '../../http/legacyLogin';

const TOO_MANY = {
  login: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  register: 'Too many accounts created from here. Please try again later.',
  forgot: 'Too many password reset requests. Please try again later.',
  reset: 'Too many password reset attempts. Please try again later.',
};

/** The success answer of the auth endpoints, as the contract describes it. */
const OK = { 200: okResponseSchema };
const CREATED = { 201: okResponseSchema };

const ACCOUNT = access.user({ tag: 'Account' });

/** Legacy e-mail sign-in, registration, logout, password reset and the current user. */
export async function accountRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');

  const limit = (message: string, checks: Parameters<typeof enforceLimits>[2]) => enforceLimits(services, message, checks);

  async function endCurrentSession(request: FastifyRequest) {
    const token = sessionToken(request);
    if (token) await services.sessions.end(token);
  }

  /** A cookie of an ended session is useless: drop it so the browser stops sending it (requireUser then answers 401). */
  async function dropEndedSession(request: FastifyRequest, reply: FastifyReply) {
    if (sessionToken(request) && !(await sessionUser(request, services))) clearSessionCookie(reply, secure);
  }

  app.get('/user', { preHandler: dropEndedSession, schema: { response: { 200: currentUserSchema } }, config: ACCOUNT }, async (request) => {
    const user = toCurrentUser(request.user);
    // Staff the console would refuse until they set up a second factor (decision 046): said here so
    // /admin shows the setup in its place, with no call of its own.
    if (await services.secondFactor.staffNeedsSecondFactor(request.user, sessionToken(request)))
      return { ...user, secondFactorSetupRequired: true as const };
    return user;
  });

  const signIn = access.public('signing in', {
    tag: 'Account',
    limited: true,
    errors: {
      401: 'Wrong e-mail or password (invalid_credentials)',
      403: `${SUSPENDED}; or LEGACY_LOGIN refuses password sign-in here or for this account (password_sign_in_off)`,
    },
  });
  app.post(
    '/login',
    { schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } }, config: signIn },
    async (request, reply) => {
      const { email, password, rememberMe } = request.body;
      refuseRetiredLogin(config.runtime.legacyLogin);
      // Counted before scrypt, so attempts in flight at once cannot all pass a count read before any
      // of them failed. Only failures count per account (else anyone could lock a known address out
      // by signing in as it): a success gives its attempt back.
      const emailKey = `login:email:${normalizeEmail(email)}`;
      await limit(TOO_MANY.login, [
        [`login:ip:${request.ip}`, AUTH_RATE_LIMITS.loginPerIp],
        [emailKey, AUTH_RATE_LIMITS.loginPerEmail],
      ]);
      const user = await services.users.authenticate(email, password);
      if (!user) {
        services.metrics.signIn('password', 'failure');
        throw new AppError(401, 'invalid_credentials', 'Invalid email or password');
      }
      await services.rateLimiter.giveBack(emailKey);
      refusePasswordSignIn(config.runtime.legacyLogin, user);
      if (await services.secondFactor.hasSecondFactor(user.id)) {
        // No session yet: the browser's cookie names the sign-in, which a code completes
        // (POST /api/login/second-factor, decision 046); Remember me waits with it.
        const pending = await services.secondFactor.startSignIn(user.id, rememberMe);
        setSecondFactorCookie(reply, pending.token, pending.expiresAt, secure);
        // The second step offers "Use a passkey" when the account has one (decision 049).
        const passkey = (await services.passkeys.count(user.id)) > 0 ? { passkey: true as const } : {};
        return { ok: true as const, secondFactorRequired: true as const, ...passkey, message: SECOND_FACTOR_MESSAGES.askForCode };
      }
      await startSession(request, reply, services, { userId: user.id, persistent: rememberMe, secure, method: 'password' });
      services.metrics.signIn('password', 'success');
      return { ok: true as const, message: 'Signed in' };
    },
  );

  const register = access.public('creating an account', {
    tag: 'Account',
    limited: true,
    errors: {
      403: 'LEGACY_LOGIN is link-only or off: new accounts come through Epic (registration_closed)',
      409: 'The e-mail has an account already (email_taken)',
    },
  });
  app.post('/register', { schema: { body: registerRequestSchema, response: CREATED }, config: register }, async (request, reply) => {
    const { email, password } = request.body;
    refuseRegistration(config.runtime.legacyLogin);
    await limit(TOO_MANY.register, [
      [`register:ip:${request.ip}`, AUTH_RATE_LIMITS.registerPerIp],
      [`register:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.registerPerEmail],
    ]);
    // The account and its first session are one transaction: no account is left without it.
    const session = await services.users.registerWithPassword(email, password, (user, trx) =>
      services.sessions.signIn(sessionToken(request), user.id, false, 'password', trx, sessionOrigin(request)),
    );
    setSessionCookie(reply, session, secure);
    return reply.code(201).send({ ok: true as const, message: 'Account created' });
  });

  async function logout(request: FastifyRequest, reply: FastifyReply) {
    await endCurrentSession(request);
    clearSessionCookie(reply, secure);
  }

  const signOut = access.public('ends the session there is, if any', { tag: 'Account', security: SESSION_OPTIONAL });
  app.post('/logout', { schema: { response: OK }, config: signOut }, async (request, reply) => {
    await logout(request, reply);
    return { ok: true as const, message: 'Signed out' };
  });

  // The navigation bar's Logout is a plain link: a click on it is a same-origin navigation, which
  // ends the session and lands on the home page. Anything else (another site's link or redirect, a
  // same-site page, a typed address, a client that sends no fetch metadata) signs nobody out: it
  // lands on /logout, whose button asks to sign out with a POST.
  const logoutLink = access.public('the nav bar link: ends the session or leads to the /logout page', {
    tag: 'Account',
    security: SESSION_OPTIONAL,
    redirect:
      "The navigation bar's Logout link: from our own origin (Sec-Fetch-Site: same-origin) ends the session and goes to /; any other request ends nothing and goes to /logout, whose button signs out with POST /api/logout",
  });
  app.get('/logout', { config: logoutLink }, async (request, reply) => {
    if (request.headers['sec-fetch-site'] !== 'same-origin') return reply.redirect('/logout');
    await logout(request, reply);
    return reply.redirect('/');
  });

  const forgot = access.public('asking for a reset link while signed out', { tag: 'Account', limited: true });
  app.post('/forgot-password', { schema: { body: forgotPasswordRequestSchema, response: OK }, config: forgot }, async (request) => {
    const { email } = request.body;
    await limit(TOO_MANY.forgot, [
      [`forgot:ip:${request.ip}`, AUTH_RATE_LIMITS.forgotPerIp],
      [`forgot:email:${normalizeEmail(email)}`, AUTH_RATE_LIMITS.forgotPerEmail],
    ]);
    // LEGACY_LOGIN=off: no password to reset; an account without Epic is mailed its way in instead.
    if (config.runtime.legacyLogin === 'off') {
      services.epicLinking.requestSignInLink(email);
      return { ok: true as const, message: EPIC_LINKING_TEXT.linkSent };
    }
    services.passwordReset.request(email);
    return {
      ok: true as const,
      message: 'If an account exists for this email, a password reset link has been sent.',
    };
  });

  const reset = access.public("the reset link's token is the credential", { tag: 'Account', limited: true, errors: { 403: SUSPENDED } });
  app.post('/reset-password', { schema: { body: resetPasswordRequestSchema, response: OK }, config: reset }, async (request) => {
    await limit(TOO_MANY.reset, [[`reset:ip:${request.ip}`, AUTH_RATE_LIMITS.resetPerIp]]);
    await services.passwordReset.reset(request.body.token, request.body.newPassword);
    return { ok: true as const, message: 'Password reset successful. Please login with your new password.' };
  });
}
