/**
 * The `/v1` endpoints of payments without Checkout: a card saved on a customer, a PaymentIntent
 * created and confirmed at once (on or off session), and an invoice made, finalized and paid with a
 * saved card (what automatic top-up does, so that each purchase is an invoice the customer can read).
 * A card pays, declines or asks for its holder as Stripe's test card does (cards.ts); a failed
 * payment answers Stripe's 402 `card_error`, and the payment it left is kept and told, as at Stripe.
 *
 * Events (only those the app subscribes to): `invoice.paid`, and `invoice.payment_failed` for a
 * declined payment or one that needs its holder.
 */
import type { ApiResult, Handler } from './api';
import { chargeFailure, testCardOfToken } from './cards';
import { invalidRequest, missingParam, newMetadata, StripeApiError } from './forms';
import type { StripeState } from './state';
import type { StripeCardFailure, StripeCustomer, StripeInvoice, StripePaymentIntent, StripePaymentMethod } from './types';
import type { PendingEvent } from './webhooks';

const EXPAND = ['expand'];

/**
 * The PaymentMethod a request names: a test card's token (`pm_card_visa`) is a new card each time,
 * as at Stripe; a stored one must be the customer's (or no one's yet).
 */
function paymentMethodOf(state: StripeState, id: string, customer: StripeCustomer | null, param: string): StripePaymentMethod {
  const card = testCardOfToken(id);
  if (card) return state.createPaymentMethod(null, card);
  const pm = state.get(state.paymentMethods, 'PaymentMethod', id, param);
  if (pm.customer !== null && pm.customer !== customer?.id) {
    throw invalidRequest(
      `The provided PaymentMethod ${id} belongs to another customer. It must be attached to the customer of this request.`,
      param,
    );
  }
  return pm;
}

/** Stripe's 402 for a card that failed, carrying the PaymentIntent it left, with the events it set off. */
function cardError(failure: StripeCardFailure, intent: StripePaymentIntent, events: PendingEvent[] = []): StripeApiError {
  return new StripeApiError(
    402,
    {
      type: 'card_error',
      code: failure.code,
      decline_code: failure.decline_code,
      message: failure.message,
      payment_intent: structuredClone(intent),
    },
    { events },
  );
}

/** `POST /v1/payment_methods/:id/attach`: a card saved on a customer (a test token saves a new card). */
const attachPaymentMethod: Handler = (state, { ids: [id = ''], params: p }) => {
  p.allowOnly(['customer', 'expand'], ['customer_account']);
  const customer = state.get(state.customers, 'customer', p.requiredString('customer'), 'customer');
  const pm = paymentMethodOf(state, id, customer, 'payment_method');
  pm.customer = customer.id;
  pm.billing_details.email ??= customer.email;
  pm.billing_details.name ??= customer.name;
  return { body: state.render(pm, p.strings('expand')) };
};

/**
 * `POST /v1/payment_intents` with `confirm=true`: the card is charged now. `off_session=true`: its
 * holder is not there, so a card that asks for them fails with `authentication_required`.
 */
const createPaymentIntent: Handler = (state, { params: p }) => {
  p.allowOnly(
    [
      'amount',
      'confirm',
      'currency',
      'customer',
      'description',
      'expand',
      'metadata',
      'off_session',
      'payment_method',
      'payment_method_types',
    ],
    ['automatic_payment_methods', 'capture_method', 'confirmation_method', 'error_on_requires_action', 'return_url', 'setup_future_usage'],
  );
  const amount = p.int('amount', { min: 50, max: 99_999_999 });
  if (amount === undefined) throw missingParam('amount');
  const currency = p.string('currency')?.toLowerCase();
  if (!currency) throw missingParam('currency');
  if (p.bool('confirm') !== true) {
    throw invalidRequest(
      'The Stripe fixture only implements PaymentIntents confirmed when created (confirm=true; extend server/devStripe).',
      'confirm',
    );
  }
  const customerId = p.string('customer');
  const customer = customerId ? state.get(state.customers, 'customer', customerId, 'customer') : null;
  const offSession = p.bool('off_session') ?? false;
  if (offSession && !customer) throw invalidRequest('When `off_session` is true, a `customer` is required.', 'customer');
  const pmId = p.string('payment_method');
  if (!pmId) throw missingParam('payment_method');
  const pm = paymentMethodOf(state, pmId, customer, 'payment_method');
  const failure = chargeFailure(state.cardOf(pm), !offSession);
  const intent = state.createPaymentIntent({
    amount,
    currency,
    customer: customer?.id ?? null,
    paymentMethod: pm.id,
    description: p.string('description') ?? null,
    metadata: newMetadata(p.metadata()),
    failure,
  });
  if (failure) throw cardError(failure, intent);
  return { body: state.render(intent, p.strings('expand')) };
};

// ---- invoices made through the API ---------------------------------------------------------

const INVOICE_KNOWN = [
  'account_tax_ids',
  'application_fee_amount',
  'automatic_tax',
  'custom_fields',
  'days_until_due',
  'default_source',
  'default_tax_rates',
  'discounts',
  'due_date',
  'footer',
  'from_invoice',
  'issuer',
  'number',
  'on_behalf_of',
  'payment_settings',
  'rendering',
  'shipping_cost',
  'shipping_details',
  'statement_descriptor',
  'subscription',
  'transfer_data',
];

/** `POST /v1/invoices`: a draft for a customer, charged automatically, with none of their pending items. */
const createInvoice: Handler = (state, { params: p }) => {
  p.allowOnly(
    [
      'auto_advance',
      'collection_method',
      'currency',
      'customer',
      'default_payment_method',
      'description',
      'expand',
      'metadata',
      'pending_invoice_items_behavior',
    ],
    INVOICE_KNOWN,
  );
  const customer = state.get(state.customers, 'customer', p.requiredString('customer'), 'customer');
  if (p.oneOf('collection_method', ['charge_automatically', 'send_invoice']) === 'send_invoice')
    throw invalidRequest(
      'The Stripe fixture only implements invoices charged automatically (extend server/devStripe).',
      'collection_method',
    );
  if (p.oneOf('pending_invoice_items_behavior', ['exclude', 'include']) !== 'exclude')
    throw invalidRequest(
      'The Stripe fixture only implements pending_invoice_items_behavior=exclude (extend server/devStripe).',
      'pending_invoice_items_behavior',
    );
  p.bool('auto_advance');
  const invoice = state.createDraftInvoice(customer, {
    currency: p.string('currency')?.toLowerCase() ?? 'usd',
    description: p.string('description') ?? null,
    metadata: newMetadata(p.metadata()),
  });
  const pm = p.string('default_payment_method');
  if (pm) invoice.default_payment_method = paymentMethodOf(state, pm, customer, 'default_payment_method').id;
  return { body: state.render(invoice, p.strings('expand')) };
};

/** An invoice of the API's that may still change. */
function draftInvoice(state: StripeState, id: string, param = 'id'): StripeInvoice {
  const invoice = state.get(state.invoices, 'invoice', id, param);
  if (invoice.status !== 'draft')
    throw invalidRequest(`This invoice is already finalized, you can't re-finalize a non-draft invoice.`, param, 'invoice_not_editable');
  return invoice;
}

/** `POST /v1/invoiceitems` onto a draft invoice: a one-time price (`pricing[price]`), its quantity. */
const createInvoiceItem: Handler = (state, { params: p }) => {
  p.allowOnly(
    ['customer', 'description', 'expand', 'invoice', 'metadata', 'pricing', 'quantity'],
    ['amount', 'currency', 'discountable', 'discounts', 'period', 'price_data', 'subscription', 'tax_behavior', 'tax_code', 'tax_rates'],
  );
  const customer = state.get(state.customers, 'customer', p.requiredString('customer'), 'customer');
  const invoiceId = p.string('invoice');
  if (!invoiceId) throw invalidRequest('The Stripe fixture only implements invoice items on a draft invoice (`invoice`).', 'invoice');
  const invoice = draftInvoice(state, invoiceId, 'invoice');
  if (invoice.customer !== customer.id) throw invalidRequest(`The invoice ${invoice.id} is not the customer's.`, 'invoice');
  const pricing = p.object('pricing')?.allowOnly(['price']);
  if (!pricing) throw invalidRequest('The Stripe fixture only implements invoice items of a price (`pricing[price]`).', 'pricing');
  const price = state.get(state.prices, 'price', pricing.requiredString('price'), 'pricing[price]');
  if (price.recurring)
    throw invalidRequest('The price specified is a recurring price: invoice items take one-time prices.', 'pricing[price]');
  if (price.currency !== invoice.currency)
    throw invalidRequest(`The price's currency (${price.currency}) is not the invoice's (${invoice.currency}).`, 'pricing[price]');
  const quantity = p.int('quantity', { min: 1, max: 999_999 }) ?? 1;
  const amount = price.unit_amount * quantity;
  state.addToInvoice(invoice, amount);
  const id = state.newId('ii', 24);
  state.track(id);
  const product = state.products.get(price.product);
  return {
    body: {
      id,
      object: 'invoiceitem',
      amount,
      currency: price.currency,
      customer: customer.id,
      description: p.string('description') ?? product?.name ?? null,
      invoice: invoice.id,
      livemode: false,
      metadata: newMetadata(p.metadata()),
      pricing: {
        price_details: { price: price.id, product: price.product },
        type: 'price_details',
        unit_amount_decimal: String(price.unit_amount),
      },
      quantity,
    },
  };
};

/** `POST /v1/invoices/:id/finalize`: the draft gets its number, page and PDF. */
const finalizeInvoice: Handler = (state, { ids: [id = ''], params: p }) => {
  p.allowOnly(['auto_advance', 'expand']);
  p.bool('auto_advance');
  const invoice = draftInvoice(state, id);
  state.finalizeInvoice(invoice);
  return { body: state.render(invoice, p.strings('expand')) };
};

/**
 * `POST /v1/invoices/:id/pay`: the open invoice is charged now, to `payment_method` or its default
 * (else the customer's). Off session by default, as at Stripe: a card that needs its holder fails.
 */
const payInvoice: Handler = (state, { ids: [id = ''], params: p }): ApiResult => {
  p.allowOnly(['expand', 'off_session', 'payment_method'], ['forgive', 'mandate', 'paid_out_of_band', 'source']);
  const invoice = state.get(state.invoices, 'invoice', id);
  if (invoice.status === 'paid') throw invalidRequest('Invoice is already paid', undefined, 'invoice_already_paid');
  if (invoice.status !== 'open') throw invalidRequest(`You can only pay an open invoice. This invoice is ${invoice.status}.`);
  const customer = state.get(state.customers, 'customer', invoice.customer);
  const pmId = p.string('payment_method') ?? invoice.default_payment_method ?? customer.invoice_settings.default_payment_method;
  if (!pmId)
    throw invalidRequest('Cannot charge a customer that has no active card: set a default payment method or pass one.', 'payment_method');
  const pm = paymentMethodOf(state, pmId, customer, 'payment_method');
  const failure = chargeFailure(state.cardOf(pm), !(p.bool('off_session') ?? true));
  const intent = state.createPaymentIntent({
    amount: invoice.amount_due,
    currency: invoice.currency,
    customer: customer.id,
    paymentMethod: pm.id,
    description: `Payment for Invoice ${invoice.number ?? invoice.id}`,
    failure,
  });
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (failure) throw cardError(failure, intent, [{ type: 'invoice.payment_failed', object: structuredClone(invoice) }]);
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.status_transitions.paid_at = intent.created;
  return { body: state.render(invoice, p.strings('expand')), events: [{ type: 'invoice.paid', object: invoice }] };
};

/** `POST /v1/invoices/:id/void`: an open invoice that will not be paid (a paid or void one cannot be). */
const voidInvoice: Handler = (state, { ids: [id = ''], params: p }) => {
  p.allowOnly(EXPAND);
  const invoice = state.get(state.invoices, 'invoice', id);
  if (invoice.status !== 'open') throw invalidRequest(`You can only void an open invoice. This invoice is ${invoice.status}.`);
  invoice.status = 'void';
  invoice.status_transitions.voided_at = Math.floor(Date.now() / 1000);
  return { body: state.render(invoice, p.strings('expand')) };
};

/** `GET /v1/payment_methods?customer=`: the customer's saved cards. */
const listPaymentMethods: Handler = (state, { params: p }) => {
  p.allowOnly(['customer', 'ending_before', 'expand', 'limit', 'starting_after', 'type'], ['customer_account']);
  const customer = state.get(state.customers, 'customer', p.requiredString('customer'), 'customer');
  p.oneOf('type', ['card']);
  const cards = [...state.paymentMethods.values()].filter((pm) => pm.customer === customer.id);
  return { body: state.page(cards, p, '/v1/payment_methods', 'PaymentMethod') };
};

const ID = '([^/]+)';
export const PAYMENT_ROUTES: [method: string, pattern: RegExp, handler: Handler][] = [
  ['POST', new RegExp(`^/v1/payment_methods/${ID}/attach$`), attachPaymentMethod],
  ['GET', /^\/v1\/payment_methods$/, listPaymentMethods],
  ['POST', /^\/v1\/payment_intents$/, createPaymentIntent],
  ['POST', /^\/v1\/invoices$/, createInvoice],
  ['POST', /^\/v1\/invoiceitems$/, createInvoiceItem],
  ['POST', new RegExp(`^/v1/invoices/${ID}/finalize$`), finalizeInvoice],
  ['POST', new RegExp(`^/v1/invoices/${ID}/pay$`), payInvoice],
  ['POST', new RegExp(`^/v1/invoices/${ID}/void$`), voidInvoice],
];
