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

/** A user's usage as staff see it (issue 26): the same figures as the user's own, and credit grants and deductions. */
export async function adminUsageRoutes(app: App, { services }: RouteContext) {
  const { adminUsers, metering, credits, packRefunds } = services;

  // Each read answers 404 for an unknown user rather than an empty account.
  app.get('/users/:id/usage', { schema: { params: userParams, response: { 200: usageSummarySchema } } }, async (request) => {
    await adminUsers.get(request.params.id);
    return metering.summary(request.params.id);
  });

  app.get(
    '/users/:id/usage/history',
    { schema: { params: userParams, querystring: usageHistoryQuerySchema, response: { 200: usageHistorySchema } } },
    async (request) => {
      await adminUsers.get(request.params.id);
      return metering.history(request.params.id, request.query.days);
    },
  );

  app.get('/users/:id/usage.csv', { schema: { params: userParams } }, async (request, reply) => {
    await adminUsers.get(request.params.id);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="usage.csv"');
    return reply.send(metering.periodCsv(request.params.id));
  });

  // A grant (amount > 0) or a deduction (amount < 0), with its reason: 409 insufficient_credits below zero.
  app.post(
    '/users/:id/credits',
    { schema: { params: userParams, body: creditAdjustmentSchema, response: { 200: creditBalanceSchema } } },
    async (request) => credits.adjust(actorOf(request.user), request.params.id, request.body),
  );

  app.get('/users/:id/credit-packs', { schema: { params: userParams, response: { 200: creditPackPurchasesSchema } } }, async (request) => {
    await adminUsers.get(request.params.id);
    return packRefunds.list(request.params.id);
  });

  // Stripe refunds the payment; the pack's unspent credits are taken back. 404 for another user's purchase, 409 already_refunded.
  app.post(
    '/users/:id/credit-packs/:purchaseId/refund',
    { schema: { params: purchaseParams, response: { 200: creditPackRefundedSchema } } },
    async (request) => packRefunds.refund(actorOf(request.user), request.params.id, request.params.purchaseId),
  );
}

const purchaseParams = userParams.extend({ purchaseId: z.string().check(singleLine('purchaseId')).trim().min(1).max(100) });
