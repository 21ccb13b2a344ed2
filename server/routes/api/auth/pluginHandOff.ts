import { z } from 'zod';
import { PKCE_VERIFIER, pluginPayloadSchema, signInOkSchema, storePayloadResponseSchema } from '../../../../contract/epic';
import { singleLine } from '../../../../contract/text';
import { pluginInstallId } from '../../../http/pluginInstall';
import { enforceLimits } from '../../../http/rateLimit';
import { signInToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { AUTH_RATE_LIMITS } from '../../../services/rateLimiter';
import { SIGN_IN_OPTIONAL } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = 'Too many code exchanges. Please wait a few minutes and try again.';

const payloadQuerySchema = z.object({
  code: z.string({ error: 'code is required' }).check(singleLine('code')).min(1, 'code is required').max(100, 'code is too long'),
  code_verifier: z
    .string({ error: 'code_verifier is required' })
    .regex(PKCE_VERIFIER, 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" or "~"'),
});

/** The plugin hand-off (client=ue, docs/plugin-sign-in.md): the one-time code, its cleanup and its exchange. */
export async function pluginHandOffRoutes(app: App, { services }: RouteContext) {
  const { epicSignIn, pluginHandOff } = services;

  const store = access.user({ tag: 'Plugin hand-off', security: [{ sessionCookie: [], signInCookie: [] }] });
  app.post('/ue-store-payload', { schema: { response: { 200: storePayloadResponseSchema } }, config: store }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const issued = await pluginHandOff.issueCode(await epicSignIn.flow(signInToken(request)), request.user);
    return { ok: true as const, ...issued };
  });

  const clear = access.public('the sign-in cookie', { tag: 'Plugin hand-off', security: SIGN_IN_OPTIONAL });
  app.post('/ue-clear', { schema: { response: { 200: signInOkSchema } }, config: clear }, async (request) => {
    await epicSignIn.clearPluginRequest(signInToken(request));
    return { ok: true as const, message: 'Plugin hand-off finished' };
  });

  // Called by the plugin, not a browser: no cookie, the code and its verifier are the credentials.
  // X-Sage-Install, if sent, is the install this plugin already is (a sign-in again keeps it).
  app.get(
    '/ue-payload',
    {
      schema: { querystring: payloadQuerySchema, response: { 200: pluginPayloadSchema } },
      config: access.public('the plugin: its one-time code and PKCE verifier', {
        tag: 'Plugin hand-off',
        limited: true,
        errors: { 403: 'The account was suspended after the code was issued; the code is spent (account_suspended)' },
      }),
    },
    async (request, reply) => {
      await enforceLimits(services, TOO_MANY, [[`plugin-exchange:ip:${request.ip}`, AUTH_RATE_LIMITS.pluginExchangePerIp]]);
      reply.header('cache-control', 'no-store');
      return pluginHandOff.redeem(request.query.code, request.query.code_verifier, pluginInstallId(request));
    },
  );
}
