import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  accountEmailSchema,
  emailChangeRequestedSchema,
  type AccountEmail,
  type EmailChangeRequest,
  type EmailChangeRequested,
} from '../../contract/accountEmail';
import { getJson, post } from './client';

/** The signed-in user's e-mail (issue 27). */

export const ACCOUNT_EMAIL_QUERY_KEY = ['account', 'email'] as const;

/** `GET /api/account/email`: the address, whether it is verified, the linked Epic account, what a change takes. */
export const fetchAccountEmail = (): Promise<AccountEmail> => getJson('/api/account/email', accountEmailSchema);

export const accountEmailQuery = queryOptions({ queryKey: ACCOUNT_EMAIL_QUERY_KEY, queryFn: fetchAccountEmail });

export const useAccountEmail = () => useQuery(accountEmailQuery);

/**
 * `POST /api/account/email`: a link goes to the new address; a failure is an HttpError whose `code`
 * names it (`wrong_password`, `email_taken`, `sign_in_again`, …).
 */
export const requestEmailChange = (body: EmailChangeRequest): Promise<EmailChangeRequested> =>
  post('/api/account/email', emailChangeRequestedSchema, body);
