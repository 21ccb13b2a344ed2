import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../../contract/errors';
import { accountInvoicesSchema } from '../../../contract/accountInvoices';
import { redirectResponseSchema } from '../../../contract/billing';
import {
  ORG_BILLING_ERRORS,
  billingDetailsSchema,
  orgBillingSchema,
  orgCheckoutSchema,
  seatCountSchema,
} from '../../../contract/orgBilling';
import { orgParamsSchema } from '../../../contract/orgs';
import { topUpSchema, topUpSettingsSchema } from '../../../contract/topUp';
import { z } from 'zod';
import type { App, RouteContext } from '../../http/types';
import { csvAttachment } from '../../http/apiDoc';
import { orgUsageSchema } from '../../../contract/orgUsage';
import { usageHistoryQuerySchema } from '../../../contract/usage';
import { access } from '../../http/endpointAccess';

const said = (refusal: { error: string; message: string }) => `${refusal.message} (${refusal.error})`;
const BILLING_OFF = `Billing is not set up on this server (${ERROR_CODES.billingNotConfigured})`;
const refreshQuerySchema = z.object({
  sessionId: z
    .string()
    .trim()
    .max(255)
    .regex(/^[A-Za-z0-9_]+$/, 'sessionId is not valid')
    .optional(),
});

/**
 * An organisation's bill (issue 38, decision 041): company details, a plan for N seats, the seat
 * count, credit packs for the shared pool, invoices (owner, billing: `manageBilling`); and what
 * it paid for its members (owner, admin, billing: `readUsage`).
 */
export async function orgBillingRoutes(app: App, { services }: RouteContext) {
  const { orgBilling } = services;
  const actor = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email });

  app.get(
    '/orgs/:id/billing',
    { schema: { params: orgParamsSchema, response: { 200: orgBillingSchema } }, config: access.org('manageBilling') },
    async (request) => orgBilling.billing(request.user.id, request.params.id),
  );

  app.put(
    '/orgs/:id/billing-details',
    {
      schema: { params: orgParamsSchema, body: billingDetailsSchema, response: { 200: orgBillingSchema } },
      config: access.org('manageBilling', { errors: { 503: BILLING_OFF } }),
    },
    async (request) => {
      await orgBilling.saveDetails(actor(request), request.params.id, request.body);
      return orgBilling.billing(request.user.id, request.params.id);
    },
  );

  app.post(
    '/orgs/:id/checkout',
    {
      schema: { params: orgParamsSchema, body: orgCheckoutSchema, response: { 200: redirectResponseSchema } },
      config: access.org('manageBilling', {
        errors: {
          400: 'An unknown price (unknown_price) or a return address of another site (invalid_return_url)',
          409: `${said(ORG_BILLING_ERRORS.detailsRequired)}; ${said(ORG_BILLING_ERRORS.alreadySubscribed)}`,
          503: BILLING_OFF,
        },
      }),
    },
    async (request) => ({ ok: true as const, url: await orgBilling.checkout(actor(request), request.params.id, request.body) }),
  );

  app.post(
    '/orgs/:id/billing/refresh',
    {
      schema: { params: orgParamsSchema, querystring: refreshQuerySchema, response: { 200: orgBillingSchema } },
      config: access.org('manageBilling'),
    },
    async (request) => {
      await orgBilling.refreshFor(request.user.id, request.params.id, request.query.sessionId);
      return orgBilling.billing(request.user.id, request.params.id);
    },
  );

  app.patch(
    '/orgs/:id/subscription',
    {
      schema: { params: orgParamsSchema, body: seatCountSchema, response: { 200: orgBillingSchema } },
      config: access.org('manageBilling', {
        errors: { 409: `${said(ORG_BILLING_ERRORS.notSubscribed)}; ${said(ORG_BILLING_ERRORS.seatsBelowAssigned)}`, 503: BILLING_OFF },
      }),
    },
    async (request) => {
      await orgBilling.changeSeats(actor(request), request.params.id, request.body.seats);
      return orgBilling.billing(request.user.id, request.params.id);
    },
  );

  app.get(
    '/orgs/:id/usage',
    {
      schema: { params: orgParamsSchema, querystring: usageHistoryQuerySchema, response: { 200: orgUsageSchema } },
      config: access.org('readUsage'),
    },
    async (request) => services.orgUsage.usage(request.user.id, request.params.id, request.query.days),
  );

  app.get(
    '/orgs/:id/usage/period.csv',
    {
      schema: { params: orgParamsSchema },
      config: access.org('readUsage', { ok: csvAttachment('The uses the organisation paid for this period, as a CSV attachment') }),
    },
    async (request, reply) => {
      const start = await services.orgUsage.periodStart(request.user.id, request.params.id);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="organisation-usage-${new Date(start).toISOString().slice(0, 10)}.csv"`);
      return reply.send(services.orgUsage.periodCsv(request.params.id, start));
    },
  );

  // Automatic top-up of the shared pool (issue 39, decision 045): the user's settings, for the studio.
  app.get(
    '/orgs/:id/top-up',
    { schema: { params: orgParamsSchema, response: { 200: topUpSchema } }, config: access.org('manageBilling') },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return services.orgTopUps.view(request.user.id, request.params.id);
    },
  );

  app.put(
    '/orgs/:id/top-up',
    {
      schema: { params: orgParamsSchema, body: topUpSettingsSchema, response: { 200: topUpSchema } },
      config: access.org('manageBilling', {
        errors: {
          400: 'Not a credit pack on sale (unknown_pack), or a monthly cap under its price (cap_below_pack)',
          409: "Turning top-up on needs a card saved by the studio's earlier pack purchase (no_saved_card)",
          502: 'Stripe could not be read (payment_provider_error)',
          503: BILLING_OFF,
        },
      }),
    },
    async (request) => services.orgTopUps.save(actor(request), request.params.id, request.body),
  );

  app.get(
    '/orgs/:id/invoices',
    {
      schema: { params: orgParamsSchema, response: { 200: accountInvoicesSchema } },
      config: access.org('manageBilling', { errors: { 503: BILLING_OFF } }),
    },
    async (request) => orgBilling.invoices(request.user.id, request.params.id),
  );
}
