import { topUpSchema, topUpSettingsSchema } from '../../../contract/topUp';
import type { App, RouteContext } from '../../http/types';
import { BILLING_OFF } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';

/** Automatic top-up (issue 39, decision 045): the dashboard's Usage section reads and saves the user's settings. */
export async function topUpRoutes(app: App, { services }: RouteContext) {
  const read = access.user({ tag: 'Usage' });
  app.get('/usage/top-up', { schema: { response: { 200: topUpSchema } }, config: read }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return services.topUps.view(request.user.id);
  });

  const save = access.user({
    tag: 'Usage',
    errors: {
      400: 'Not a credit pack on sale (unknown_pack), or a monthly cap under its price (cap_below_pack)',
      409: 'Turning top-up on needs a card saved by an earlier purchase (no_saved_card)',
      502: 'Stripe could not be read (payment_provider_error)',
      503: BILLING_OFF,
    },
  });
  app.put('/usage/top-up', { schema: { body: topUpSettingsSchema, response: { 200: topUpSchema } }, config: save }, async (request) =>
    services.topUps.save(request.user, request.body),
  );
}
