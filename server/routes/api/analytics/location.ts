import { analyticsLocationSchema } from '../../../../contract/analytics';
import { AppError, notFound } from '../../../errors';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';

/** `GET /api/analytics/location`: the caller's location, looked up by the IP-location service. */
export async function analyticsLocationRoutes(app: App, { services }: RouteContext) {
  const config = access.public("a visitor's country for analytics", {
    tag: 'Product',
    errors: { 404: 'No IP-location provider is configured (not_found)', 502: 'The provider failed (bad_gateway)' },
  });
  app.get('/location', { schema: { response: { 200: analyticsLocationSchema } }, config }, async (request, reply) => {
    if (!services.ipLocation.configured) throw notFound('No IP-location provider is configured');
    reply.header('cache-control', 'private, max-age=3600');
    try {
      return await services.ipLocation.lookup(request.ip);
    } catch (err) {
      request.log.warn({ err }, 'IP-location lookup failed');
      throw new AppError(502, 'bad_gateway', 'The location could not be looked up');
    }
  });
}
