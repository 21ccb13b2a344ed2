import { releaseEmailsRequestSchema, releaseEmailsSchema } from '../../../../contract/releaseEmails';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';

/** Release e-mails (issue 41): whether the signed-in user is e-mailed when a build for their engine is released. */
export async function accountReleaseEmailRoutes(app: App, { services }: RouteContext) {
  const signedIn = access.user({ tag: 'Account' });

  app.get('/release-emails', { schema: { response: { 200: releaseEmailsSchema } }, config: signedIn }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return services.releaseMails.preference(request.user.id);
  });

  app.put(
    '/release-emails',
    { schema: { body: releaseEmailsRequestSchema, response: { 200: releaseEmailsSchema } }, config: signedIn },
    async (request) => services.releaseMails.setPreference({ id: request.user.id, email: request.user.email }, request.body.enabled),
  );
}
