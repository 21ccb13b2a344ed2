import { sageBuildSchema } from '../../../contract/builds';
import { runtimeConfigSchema } from '../../../contract/config';
import { AppError } from '../../errors';
import type { App, RouteContext } from '../../http/types';

/** The browser's runtime configuration and the current plugin build (`/api/config`, `/api/current-sage-build`). */
export async function productRoutes(app: App, { config, services }: RouteContext) {
  app.get('/config', { schema: { response: { 200: runtimeConfigSchema } } }, async () => config.runtime);

  app.get('/current-sage-build', { schema: { response: { 200: sageBuildSchema } } }, async () => {
    const build = await services.builds.current();
    if (!build) throw new AppError(404, 'no_build', 'No Sage build has been released yet');
    return build;
  });
}
