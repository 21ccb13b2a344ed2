import { sageBuildSchema } from '../../../contract/builds';
import { runtimeConfigSchema } from '../../../contract/config';
import { AppError } from '../../errors';
import type { App, RouteContext } from '../../http/types';
import { access } from '../../http/endpointAccess';

/** The browser's runtime configuration and the current plugin build (`/api/config`, `/api/current-sage-build`). */
export async function productRoutes(app: App, { config, services }: RouteContext) {
  app.get(
    '/config',
    {
      schema: { response: { 200: runtimeConfigSchema } },
      config: access.public("the browser app's settings, read before anyone signs in", { tag: 'Product' }),
    },
    async () => config.runtime,
  );

  const currentBuild = access.public('the download page shows the current build to visitors', {
    tag: 'Product',
    errors: { 404: 'No build has been released yet (no_build)' },
  });
  app.get('/current-sage-build', { schema: { response: { 200: sageBuildSchema } }, config: currentBuild }, async () => {
    const build = await services.builds.current();
    if (!build) throw new AppError(404, 'no_build', 'No Sage build has been released yet');
    return build;
  });
}
