import { sageBuildSchema } from '../../contract/builds';
import { runtimeConfigSchema } from '../../contract/config';
import { AppError } from '../errors';
import type { App, RouteContext } from '../http/types';

/** Health, the browser's runtime configuration and the current plugin build: no session needed. */
export async function publicRoutes(app: App, { config, services }: RouteContext) {
  app.get('/healthz', async (_request, reply) => {
    if (await services.databaseReachable()) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable' });
  });

  app.get('/api/config', { schema: { response: { 200: runtimeConfigSchema } } }, async () => config.runtime);

  app.get('/api/current-sage-build', { schema: { response: { 200: sageBuildSchema } } }, async () => {
    const build = await services.builds.current();
    if (!build) throw new AppError(404, 'no_build', 'No Sage build has been released yet');
    return build;
  });
}
