import { accountInvoicesSchema, type AccountInvoices } from '../../contract/accountInvoices';
import { redirectResponseSchema } from '../../contract/billing';
import { orgBillingSchema, type BillingDetailsInput, type OrgBilling } from '../../contract/orgBilling';
import { orgUsageSchema, type OrgUsage } from '../../contract/orgUsage';
import { topUpSchema, type TopUp, type TopUpSettings } from '../../contract/topUp';
import type { UsageRange } from '../../contract/usage';
import { getJson, patch, post, put } from './client';

/** An organisation's bill and usage (issue 38): its query keys sit under the organisation's, so any change to it reads them afresh. */
export const orgBillingKey = (orgId: string) => ['orgs', orgId, 'billing'] as const;
export const orgInvoicesKey = (orgId: string) => ['orgs', orgId, 'invoices'] as const;
export const orgUsageKey = (orgId: string, days: UsageRange) => ['orgs', orgId, 'usage', days] as const;

const org = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}`;
/** The period's uses as CSV: a plain link, the browser downloads it with the session cookie. */
export const orgUsageCsvPath = (orgId: string) => `${org(orgId)}/usage/period.csv`;

export const fetchOrgBilling = (orgId: string): Promise<OrgBilling> => getJson(`${org(orgId)}/billing`, orgBillingSchema);
export const saveBillingDetails = (orgId: string, details: BillingDetailsInput): Promise<OrgBilling> =>
  put(`${org(orgId)}/billing-details`, orgBillingSchema, details);
export const changeSeats = (orgId: string, seats: number): Promise<OrgBilling> =>
  patch(`${org(orgId)}/subscription`, orgBillingSchema, { seats });
/** The return from Checkout, applied now rather than when its webhook comes. */
export const refreshOrgBilling = (orgId: string, sessionId?: string): Promise<OrgBilling> =>
  post(`${org(orgId)}/billing/refresh${sessionId ? `?sessionId=${encodeURIComponent(sessionId)}` : ''}`, orgBillingSchema);
export const fetchOrgInvoices = (orgId: string): Promise<AccountInvoices> => getJson(`${org(orgId)}/invoices`, accountInvoicesSchema);
export const fetchOrgUsage = (orgId: string, days: UsageRange): Promise<OrgUsage> =>
  getJson(`${org(orgId)}/usage?days=${days}`, orgUsageSchema);

/** Checkout for a plan of `seats` seats or a credit pack; answers Stripe's page to go to. Back on the dashboard at this organisation. */
export async function orgCheckout(orgId: string, priceId: string, seats?: number): Promise<string> {
  const back = `${window.location.origin}/dashboard?org=${encodeURIComponent(orgId)}#organisations`;
  const answer = await post(`${org(orgId)}/checkout`, redirectResponseSchema, { priceId, seats, successUrl: back, cancelUrl: back });
  return answer.url;
}

/** Automatic top-up of the shared pool (issue 39): the user's settings and answer, for the studio. */
export const orgTopUpKey = (orgId: string) => ['orgs', orgId, 'top-up'] as const;
export const fetchOrgTopUp = (orgId: string): Promise<TopUp> => getJson(`${org(orgId)}/top-up`, topUpSchema);
export const saveOrgTopUp = (orgId: string, settings: TopUpSettings): Promise<TopUp> => put(`${org(orgId)}/top-up`, topUpSchema, settings);
