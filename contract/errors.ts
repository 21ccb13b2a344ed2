import { z } from 'zod';

/** Every 4xx/5xx answer of the API has this body. `error` is for programs, `message` for people. */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
});

/**
 * The `error` codes that more than one area throws and the screens branch on (an `HttpError`'s or
 * a failed call's `code`), named once for both sides. A code belonging to one flow is named in
 * that flow's contract module.
 */
export const ERROR_CODES = {
  /** 401: no session (a signed-out visitor, or a session that ended). */
  unauthorized: 'unauthorized',
  /** 403 "Admins only": signed in, but not as an admin. */
  forbidden: 'forbidden',
  /** 403 on any admin route: an admin whose staff role may not take the action (contract/staffRoles.ts `ROLE_REFUSAL`). */
  roleForbidden: 'role_forbidden',
  /** 403 on an organisation's route: a member whose role there may not take the action (contract/orgs.ts). */
  orgForbidden: 'org_forbidden',
  /** 409: the change would leave the product without an active admin (contract/staffRoles.ts `LAST_ADMIN_REFUSAL`, account deletion). */
  lastAdmin: 'last_admin',
  /** 403 on any admin route: staff signed in by password without a second factor (contract/secondFactor.ts `SECOND_FACTOR_REQUIRED`). */
  secondFactorRequired: 'second_factor_required',
  /** 404: no such record (a user, a message, a product) or endpoint. */
  notFound: 'not_found',
  /** 503: this server has no Stripe keys, so billing (plans, packs, invoices, refunds) is off. */
  billingNotConfigured: 'billing_not_configured',
} as const;
