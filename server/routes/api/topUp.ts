import { topUpSchema, topUpSettingsSchema } from '../../../contract/topUp';
import type { App, RouteContext } from '../../http/types';
import { BILLING_OFF } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';
import { enforceLimits } from '../../http/rateLimit';
import { BILLING_RATE_LIMITS } from '../../services/rateLimiter';

const TOO_MANY = 'Too many billing requests. Please wait a few minutes and try again.';

/** Automatic top-up (issue 39, decision 045): the dashboard's Usage section reads and saves the user's settings. */
export async function topUpRoutes(app: App, { services }: RouteContext) {
  const read = access.user({ tag: 'Usage' });
  app.get('/usage/top-up', { schema: { response: { 200: topUpSchema } }, config: read }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return services.topUps.view(request.user.id);
  });

  // A billing write (it asks Stripe for the saved card, and may buy a pack): counted with the others.
  const save = access.user({
    tag: 'Usage',
    limited: true,
    errors: {
      400: 'Not a credit pack on sale (unknown_pack), or a monthly cap under its price (cap_below_pack)',
      409: 'Turning top-up on needs a card saved by an earlier purchase (no_saved_card)',
      502: 'Stripe could not be read (payment_provider_error)',
      503: BILLING_OFF,
    },
  });
  app.put('/usage/top-up', { schema: { body: topUpSettingsSchema, response: { 200: topUpSchema } }, config: save }, async (request) => {
    await enforceLimits(services, TOO_MANY, [[`billing:user:${request.user.id}`, BILLING_RATE_LIMITS.writesPerUser]]);
    return services.topUps.save(request.user, request.body);
  });
}
