import { z } from 'zod';
import {
  BILLING_MESSAGES,
  checkoutRequestSchema,
  productsResponseSchema,
  redirectResponseSchema,
  resumeRequestSchema,
  returnUrlRequestSchema,
  subscriptionStatusResponseSchema,
  updateSuccessQuerySchema,
  userSubscriptionsResponseSchema,
  verifySubscriptionResponseSchema,
  webhookReceivedSchema,
} from '../../../../contract/billing';
import type { User } from '../../../services/users';
import { AppError } from '../../../errors';
import { BILLING_RATE_LIMITS } from '../../../services/rateLimiter';
import { enforceLimits } from '../../../http/rateLimit';
import { billingNotConfigured } from '../../../services/billing/notConfigured';
import { sessionUser } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { BILLING_OFF, SESSION_OPTIONAL } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

const TOO_MANY = 'Too many billing requests. Please wait a few minutes and try again.';

/** Stripe's events are small, but bigger than the API's JSON documents. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

const REDIRECT = { 200: redirectResponseSchema };

const SIGNED_IN = access.user({ tag: 'Billing' });
const WRITE = access.user({ tag: 'Billing', limited: true, errors: { 503: BILLING_OFF } });

/** Plans, checkout, the customer portal and Stripe's webhooks (product §7 `/api/stripe/*`). */
export async function billingRoutes(app: App, { services }: RouteContext) {
  const { billing } = services;

  /** A signed-in user's billing write (the default deny let them in), counted per user. */
  async function writer(user: User): Promise<User> {
    if (!billing.enabled) throw billingNotConfigured();
    await enforceLimits(services, TOO_MANY, [[`billing:user:${user.id}`, BILLING_RATE_LIMITS.writesPerUser]]);
    return user;
  }

  const plans = access.public('the plans are shown to visitors', { tag: 'Billing' });
  app.get('/products', { schema: { response: { 200: productsResponseSchema } }, config: plans }, async () => ({
    ok: true as const,
    products: await billing.products(),
  }));

  const userSubscriptions = access.user({ tag: 'Billing', errors: { 404: 'The user has no subscription (no_subscription)' } });
  app.get(
    '/user-subscriptions',
    { schema: { response: { 200: userSubscriptionsResponseSchema } }, config: userSubscriptions },
    async (request, reply) => {
      const { user } = request;
      const { subscriptions, hasSubscription, hasDefaultPaymentMethod } = await billing.subscriptions(user.id);
      if (subscriptions.length === 0) throw new AppError(404, 'no_subscription', BILLING_MESSAGES.noSubscription);
      reply.header('cache-control', 'no-store');
      return { ok: true as const, hasSubscription, has_default_payment_method: hasDefaultPaymentMethod, subscriptions };
    },
  );

  app.get(
    '/subscription-status',
    { schema: { response: { 200: subscriptionStatusResponseSchema } }, config: SIGNED_IN },
    async (request, reply) => {
      const { user } = request;
      const { live, hasSubscription, trialEligible } = await billing.subscriptions(user.id);
      reply.header('cache-control', 'no-store');
      return { ok: true as const, hasSubscription, trialEligible, subscriptions: live };
    },
  );

  const verify = access.user({ tag: 'Billing', limited: true });
  app.post('/verify-subscription', { schema: { response: { 200: verifySubscriptionResponseSchema } }, config: verify }, async (request) => {
    const { user } = request;
    await enforceLimits(services, TOO_MANY, [[`billing:user:${user.id}`, BILLING_RATE_LIMITS.writesPerUser]]);
    return { ok: true as const, hasSubscription: await billing.verify(user.id) };
  });

  app.post('/create-checkout-session', { schema: { body: checkoutRequestSchema, response: REDIRECT }, config: WRITE }, async (request) => {
    const user = await writer(request.user);
    return { ok: true as const, url: await billing.checkout(user, request.body) };
  });

  app.post('/create-portal-session', { schema: { body: returnUrlRequestSchema, response: REDIRECT }, config: WRITE }, async (request) => {
    const user = await writer(request.user);
    return { ok: true as const, url: await billing.portal(user, request.body.returnUrl) };
  });

  app.post(
    '/create-payment-method-session',
    { schema: { body: returnUrlRequestSchema, response: REDIRECT }, config: WRITE },
    async (request) => {
      const user = await writer(request.user);
      return { ok: true as const, url: await billing.paymentMethodSession(user, request.body.returnUrl) };
    },
  );

  app.post('/resume-subscription', { schema: { body: resumeRequestSchema, response: REDIRECT }, config: WRITE }, async (request) => {
    const user = await writer(request.user);
    return { ok: true as const, url: await billing.resume(user, request.body.subscriptionId, request.body.returnUrl) };
  });

  // Where Stripe sends the browser back. It brings the mirror up to date first, so the page the
  // user lands on shows the change even before the webhook arrives; a failure there only waits for it.
  const returnQuery = updateSuccessQuerySchema.extend({
    session_id: z
      .string()
      .max(255)
      .regex(/^[A-Za-z0-9_]+$/)
      .optional(),
  });
  const back = access.public('where Stripe sends the browser back (a redirect; a session is optional)', {
    tag: 'Billing',
    security: SESSION_OPTIONAL,
    redirect:
      "Where Stripe sends the browser back: refreshes the user's subscriptions, then to the dashboard (client=ue: /subscription-update)",
  });
  app.get(
    '/subscription-update-success',
    { schema: { querystring: returnQuery }, attachValidation: true, config: back },
    async (request, reply) => {
      const raw = request.query as { client?: unknown };
      const query = request.validationError
        ? { client: raw.client === 'ue' ? ('ue' as const) : ('web' as const), session_id: undefined }
        : request.query;
      const user = await sessionUser(request, services);
      if (user) {
        const allowed = await services.rateLimiter.hit(`billing:user:${user.id}`, BILLING_RATE_LIMITS.writesPerUser);
        if (allowed.allowed) {
          await billing
            .applyReturn(user.id, query.session_id)
            .catch((err: unknown) => request.log.warn({ err }, 'refreshing billing on return failed'));
        } else {
          services.metrics.rateLimited('billing');
        }
      }
      return reply.redirect(
        query.client === 'ue' ? '/subscription-update?client=ue&updated=true' : '/dashboard?refresh=true#subscriptions',
      );
    },
  );

  // Stripe signs the exact bytes it sent: this scope keeps JSON bodies raw for the check.
  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => {
      done(null, body);
    });
    hooks.post(
      '/webhook',
      {
        bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
        schema: { response: { 200: webhookReceivedSchema } },
        config: access.public('Stripe: its signature of the body', {
          tag: 'Billing',
          security: [{ stripeSignature: [] }],
          errors: {
            400: 'The signature is missing or wrong (invalid_signature), or the signed body is no event (invalid_event)',
            503: BILLING_OFF,
          },
        }),
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
          throw new AppError(400, 'invalid_signature', 'The webhook signature is not valid');
        }
        if (!billing.enabled) throw billingNotConfigured();
        const { duplicate } = await billing.handleWebhook(request.body, signature);
        return { received: true as const, duplicate };
      },
    );
  });
}
