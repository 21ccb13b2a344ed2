import { accountInvoicesSchema } from '../../../../contract/accountInvoices';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_INVOICE_RATE_LIMITS } from '../../../services/rateLimiter';
import { BILLING_OFF } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = 'Too many invoice requests. Please wait a few minutes and try again.';

/** The signed-in user's Stripe invoices (issue 27). */
export async function accountInvoiceRoutes(app: App, { services }: RouteContext) {
  const config = access.user({
    tag: 'Account',
    limited: true,
    errors: { 502: 'Stripe could not be read (payment_provider_error)', 503: BILLING_OFF },
  });
  app.get('/invoices', { schema: { response: { 200: accountInvoicesSchema } }, config }, async (request, reply) => {
    // Each read asks Stripe: bounded per user so a script cannot spend the product's Stripe quota.
    await enforceLimits(services, TOO_MANY, [[`account-invoices:user:${request.user.id}`, ACCOUNT_INVOICE_RATE_LIMITS.readsPerUser]]);
    reply.header('cache-control', 'no-store');
    return services.accountInvoices.list(request.user.id);
  });
}
