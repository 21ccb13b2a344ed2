import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountInvoicesSchema, type AccountInvoices } from '../../contract/accountInvoices';
import { getJson } from './client';

/** The signed-in user's Stripe invoices (issue 27). */

export const ACCOUNT_INVOICES_QUERY_KEY = ['account', 'invoices'] as const;

/** `GET /api/account/invoices`: newest first. */
export const fetchAccountInvoices = (): Promise<AccountInvoices> => getJson('/api/account/invoices', accountInvoicesSchema);

export const accountInvoicesQuery = queryOptions({ queryKey: ACCOUNT_INVOICES_QUERY_KEY, queryFn: fetchAccountInvoices });

export const useAccountInvoices = () => useQuery(accountInvoicesQuery);
