import type { App, RouteContext } from '../http/types';
import { access } from '../http/endpointAccess';

/** `GET /healthz`: whether the process lives and reaches its database (plugins/readiness.ts has /readyz). */
export async function healthRoutes(app: App, { services }: RouteContext) {
  app.get('/healthz', { config: access.public('load balancers: whether the process lives') }, async (_request, reply) => {
    if (await services.databaseReachable()) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable' });
  });
}
