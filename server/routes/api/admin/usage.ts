import { z } from 'zod';
import { singleLine } from '../../../../contract/text';
import {
  creditAdjustmentSchema,
  creditBalanceSchema,
  creditPackPurchasesSchema,
  creditPackRefundedSchema,
  usageHistoryQuerySchema,
  usageHistorySchema,
  usageSummarySchema,
} from '../../../../contract/usage';
import { actorOf, userParams } from '../../../http/adminTarget';
import type { App, RouteContext } from '../../../http/types';
import { BILLING_OFF, csvAttachment, NO_SUCH_USER } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

/** A user's usage as staff see it (issue 26): the same figures as the user's own, and credit grants and deductions. */
export async function adminUsageRoutes(app: App, { services }: RouteContext) {
  const { adminUsers, metering, credits, packRefunds } = services;

  // Each read answers 404 for an unknown user rather than an empty account.
  const read = access.staff('read');
  app.get('/users/:id/usage', { schema: { params: userParams, response: { 200: usageSummarySchema } }, config: read }, async (request) => {
    await adminUsers.get(request.params.id);
    return metering.summary(request.params.id);
  });

  app.get(
    '/users/:id/usage/history',
    { schema: { params: userParams, querystring: usageHistoryQuerySchema, response: { 200: usageHistorySchema } }, config: read },
    async (request) => {
      await adminUsers.get(request.params.id);
      return metering.history(request.params.id, request.query.days);
    },
  );

  const csv = access.staff('read', {
    errors: { 404: NO_SUCH_USER },
    ok: csvAttachment("The user's uses of the current billing period, as a CSV attachment"),
  });
  app.get('/users/:id/usage.csv', { schema: { params: userParams }, config: csv }, async (request, reply) => {
    await adminUsers.get(request.params.id);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="usage.csv"');
    return reply.send(metering.periodCsv(request.params.id));
  });

  // A grant (amount > 0) or a deduction (amount < 0), with its reason: 409 insufficient_credits below zero.
  app.post(
    '/users/:id/credits',
    {
      schema: { params: userParams, body: creditAdjustmentSchema, response: { 200: creditBalanceSchema } },
      config: access.staff('adjustCredits', {
        errors: { 404: NO_SUCH_USER, 409: 'A deduction larger than the balance (insufficient_credits)' },
      }),
    },
    async (request) => credits.adjust(actorOf(request.user), request.params.id, request.body),
  );

  app.get(
    '/users/:id/credit-packs',
    { schema: { params: userParams, response: { 200: creditPackPurchasesSchema } }, config: read },
    async (request) => {
      await adminUsers.get(request.params.id);
      return packRefunds.list(request.params.id);
    },
  );

  // Stripe refunds the payment; the pack's unspent credits are taken back. 404 for another user's purchase, 409 already_refunded.
  app.post(
    '/users/:id/credit-packs/:purchaseId/refund',
    {
      schema: { params: purchaseParams, response: { 200: creditPackRefundedSchema } },
      config: access.staff('refundCredits', {
        errors: {
          404: 'No such user, or no such pack purchase of theirs (not_found)',
          409: 'The pack was refunded already (already_refunded), or Stripe holds no payment for it (not_refundable)',
          502: 'Stripe refused the refund (refund_refused) or failed (payment_provider_error)',
          503: BILLING_OFF,
        },
      }),
    },
    async (request) => packRefunds.refund(actorOf(request.user), request.params.id, request.params.purchaseId),
  );
}

const purchaseParams = userParams.extend({ purchaseId: z.string().check(singleLine('purchaseId')).trim().min(1).max(100) });
