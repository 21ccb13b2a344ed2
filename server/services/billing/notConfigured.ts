import { BILLING_MESSAGES } from '../../../contract/billing';
import { ERROR_CODES } from '../../../contract/errors';
import { AppError } from '../../errors';

/**
 * What every billing call answers on a server without Stripe keys (issue 36): "not set up here",
 * its own code, never the words of Stripe failing (502 `payment_provider_error`, stripeGateway.ts).
 * 503, not 501: billing is a setting of this deployment that its operator can turn on without a new
 * release, not a function the product lacks (501 says the server does not know the request), and
 * 503 is the one 5xx the API document and the resilience suite already expect of billing.
 */
export const billingNotConfigured = () => new AppError(503, ERROR_CODES.billingNotConfigured, BILLING_MESSAGES.notConfigured);
