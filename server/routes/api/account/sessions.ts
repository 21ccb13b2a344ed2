import type { FastifyRequest } from 'fastify';
import {
  accountSessionParamsSchema,
  accountSessionsSchema,
  installForgottenSchema,
  otherSessionsEndedSchema,
  sessionEndedSchema,
} from '../../../../contract/accountSessions';
import { unauthorized } from '../../../errors';
import { clearSessionCookie, sessionToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';

/** "Where you're signed in" (issue 27): the signed-in user's own sessions and plugin installs. */
export async function accountSessionRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const { accountSessions } = services;
  const actor = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email });
  const signedIn = access.user({ tag: 'Account' });

  app.get('/sessions', { schema: { response: { 200: accountSessionsSchema } }, config: signedIn }, async (request) =>
    accountSessions.list(request.user.id, sessionToken(request)),
  );

  // Ending the asking browser's own session signs it out: its cookie goes too.
  app.delete(
    '/sessions/:id',
    {
      schema: { params: accountSessionParamsSchema, response: { 200: sessionEndedSchema } },
      config: access.user({ tag: 'Account', errors: { 404: 'The user has no session with this id (not_found)' } }),
    },
    async (request, reply) => {
      const { signedOut } = await accountSessions.end(actor(request), request.params.id, sessionToken(request));
      if (signedOut) clearSessionCookie(reply, secure);
      return { ok: true as const, signedOut };
    },
  );

  app.post('/sessions/end-others', { schema: { response: { 200: otherSessionsEndedSchema } }, config: signedIn }, async (request) => {
    // Signed in (the guard ran), so the browser has its session token.
    const keep = sessionToken(request);
    if (!keep) throw unauthorized();
    return { ok: true as const, ended: await accountSessions.endOthers(actor(request), keep) };
  });

  app.delete(
    '/installs/:id',
    {
      schema: { params: accountSessionParamsSchema, response: { 200: installForgottenSchema } },
      config: access.user({ tag: 'Account', errors: { 404: 'The user has no plugin install with this id (not_found)' } }),
    },
    async (request) => {
      await accountSessions.forgetInstall(actor(request), request.params.id);
      return { ok: true as const };
    },
  );
}
