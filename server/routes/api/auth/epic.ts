import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  authStatusSchema,
  PKCE_S256_CHALLENGE,
  pluginVersionLabel,
  signInClientSchema,
  signInOkSchema,
  type AuthFailureReason,
} from '../../../../contract/epic';
import { checkLoopbackRedirect } from '../../../../contract/loopbackRedirect';
import { loginCompletedPath, type CallbackOutcome, type PluginRequest } from '../../../services/epicSignIn';
import { AUTH_RATE_LIMITS } from '../../../services/rateLimiter';
import { failurePage } from '../../../http/pageErrors';
import { enforceLimits } from '../../../http/rateLimit';
import { sessionOrigin, sessionToken, sessionUser, setSessionCookie, setSignInCookie, signInToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { singleLine } from '../../../../contract/text';
import { SIGN_IN, SIGN_IN_OPTIONAL } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = {
  start: 'Too many sign-in attempts. Please wait a few minutes and try again.',
};

const queryText = (max: number) => z.string().check(singleLine('A sign-in parameter')).max(max, `must be at most ${max} characters`);

const loginQuerySchema = z.object({
  client: signInClientSchema.default('web'),
  redirect_uri: queryText(4096).optional(),
  state: queryText(1024).optional(),
  code_challenge: queryText(256).optional(),
  code_challenge_method: queryText(16).optional(),
  // The plugin's own words, kept with its install (issue 27); optional, so older plugins sign in as before.
  engineVersion: pluginVersionLabel('engineVersion').optional(),
  pluginVersion: pluginVersionLabel('pluginVersion').optional(),
  // `link`: the signed-in user links an Epic account from the Account section (decision 047).
  intent: z.enum(['link']).optional(),
});

const callbackQuerySchema = z.object({
  code: queryText(4096).optional(),
  state: queryText(1024).optional(),
  error: queryText(256).optional(),
  error_description: queryText(4096).optional(),
  iss: queryText(2048).optional(),
});

/** The plugin's state is echoed to its loopback listener: printable ASCII, bounded. */
const PLUGIN_STATE = /^[\x21-\x7e]{1,512}$/;

export const failurePath = (reason: AuthFailureReason) => `/authentication_failed?reason=${reason}`;

/** Where a browser lands once its Epic account is linked: the plugin's hand-off, or the Account section. */
export const linkedPath = (client: 'web' | 'ue') => (client === 'ue' ? loginCompletedPath('ue') : '/dashboard?epic=linked#account');

/** Epic sign-in (OAuth 2.0 + PKCE) under `/api/auth`; its e-mail linking is in ../epicLink.ts, the plugin hand-off in pluginHandOff.ts. */
export async function epicRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const { epicSignIn } = services;

  /** Sends the browser where a callback's outcome leads, signing it in when it succeeded. */
  function land(reply: FastifyReply, outcome: CallbackOutcome) {
    if (outcome.kind === 'failed') {
      services.metrics.signIn('epic', 'failure');
      return reply.redirect(failurePath(outcome.reason));
    }
    // The pages of the link carry the client, so that Cancel and Back lead where it started.
    if (outcome.kind === 'link_email') return reply.redirect(`/epic_account_link?client=${outcome.client}`);
    if (outcome.kind === 'linked') {
      // Linked to an existing account (decision 047): signed in here only when an e-mailed link proved it.
      if (outcome.session) setSessionCookie(reply, outcome.session, secure);
      return reply.redirect(linkedPath(outcome.client));
    }
    // The service started the session (and ended this browser's earlier one) with the flow's last step.
    setSessionCookie(reply, outcome.session, secure);
    services.metrics.signIn('epic', 'success');
    return reply.redirect(loginCompletedPath(outcome.client));
  }

  /** Checks a plugin's hand-off request (product §5): the request, or the reason it is refused. */
  function pluginRequest(query: z.infer<typeof loginQuerySchema>): PluginRequest | AuthFailureReason {
    const redirect = checkLoopbackRedirect(query.redirect_uri ?? '');
    if (!redirect.ok) return 'invalid_redirect_uri';
    if (!query.state || !PLUGIN_STATE.test(query.state)) return 'invalid_plugin_request';
    if (!query.code_challenge || !PKCE_S256_CHALLENGE.test(query.code_challenge)) return 'invalid_plugin_request';
    if (query.code_challenge_method !== 'S256') return 'invalid_plugin_request';
    return {
      redirectUri: redirect.url.href,
      state: query.state,
      codeChallenge: query.code_challenge,
      engineVersion: query.engineVersion ?? null,
      pluginVersion: query.pluginVersion ?? null,
    };
  }

  // The navigations below are a person's browser: malformed queries (validated, attachValidation)
  // and failures land on the failure page rather than on a JSON error.
  const toFailurePage = failurePage(failurePath);

  app.get(
    '/login',
    {
      schema: { querystring: loginQuerySchema },
      attachValidation: true,
      errorHandler: toFailurePage,
      config: access.public('starts Epic sign-in (a redirect)', {
        tag: 'Epic sign-in',
        limited: true,
        redirect:
          'Starts Sign in with Epic (client=ue: the plugin hand-off, docs/plugin-sign-in.md; intent=link: the signed-in user links Epic, docs/epic-linking.md): to Epic, or to /authentication_failed',
      }),
    },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY.start, [[`epic-start:ip:${request.ip}`, AUTH_RATE_LIMITS.epicStartPerIp]]);
      if (request.validationError) {
        const fromPlugin = new URL(request.url, 'http://login.invalid').searchParams.get('client') === 'ue';
        // A web sign-in has nothing to get wrong but `client`: the page's unexpected-error text.
        return reply.redirect(fromPlugin ? failurePath('invalid_plugin_request') : '/authentication_failed');
      }
      let plugin: PluginRequest | null = null;
      if (request.query.client === 'ue') {
        const checked = pluginRequest(request.query);
        if (typeof checked === 'string') return reply.redirect(failurePath(checked));
        plugin = checked;
      }
      if (!epicSignIn.available) {
        request.log.warn('Sign in with Epic was requested but Epic is not configured (EPIC_CLIENT_ID)');
        return reply.redirect(failurePath('server_error'));
      }
      let link: { userId: string; signsIn: boolean } | undefined;
      if (request.query.intent === 'link') {
        const user = await sessionUser(request, services);
        if (!user) return reply.redirect('/login');
        if (user.epic_account_id !== null) return reply.redirect(failurePath('epic_already_linked'));
        link = { userId: user.id, signsIn: false };
      }
      const started = await epicSignIn.start(request.query.client, plugin, link);
      setSignInCookie(reply, started.token, started.expiresAt, secure);
      return reply.redirect(started.authorizeUrl);
    },
  );

  // Epic sends the browser back here (EPIC_REDIRECT_URI).
  app.get(
    '/callback',
    {
      schema: { querystring: callbackQuerySchema },
      attachValidation: true,
      errorHandler: toFailurePage,
      config: access.public('where Epic sends the browser back (a redirect)', {
        tag: 'Epic sign-in',
        security: SIGN_IN,
        redirect: "Epic's redirect back (EPIC_REDIRECT_URI): to the next sign-in step, or to /authentication_failed",
      }),
    },
    async (request, reply) => {
      // Not an answer our authorize request could have produced.
      if (request.validationError) return reply.redirect(failurePath('state_mismatch'));
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      return land(reply, await epicSignIn.finishCallback(signInToken(request), query, sessionToken(request), sessionOrigin(request)));
    },
  );

  const verifiedLink = access.public('ends Epic sign-in after e-mail verification (a redirect)', {
    tag: 'Epic sign-in',
    security: SIGN_IN,
    redirect: 'Finishes a sign-in whose e-mail was verified: to the next step, or to /authentication_failed',
  });
  app.get('/callback-internal', { errorHandler: toFailurePage, config: verifiedLink }, async (request, reply) =>
    land(reply, await epicSignIn.completeVerifiedLink(signInToken(request), sessionToken(request), sessionOrigin(request))),
  );

  const status = access.public('the sign-in cookie (a session is optional)', {
    tag: 'Epic sign-in',
    security: [{ sessionCookie: [] }, { signInCookie: [] }, {}],
  });
  app.get('/status', { schema: { response: { 200: authStatusSchema } }, config: status }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return epicSignIn.status(signInToken(request), await sessionUser(request, services));
  });

  const cancel = access.public('the sign-in cookie', { tag: 'Epic sign-in', security: SIGN_IN_OPTIONAL });
  app.post('/epic/cancel', { schema: { response: { 200: signInOkSchema } }, config: cancel }, async (request) => {
    await epicSignIn.cancel(signInToken(request));
    return { ok: true as const, message: 'Sign-in canceled' };
  });
}
