import { queryOptions, useQuery } from '@tanstack/react-query';
import { passwordStatusSchema, type PasswordChangeRequest, type PasswordStatus } from '../../contract/accountPassword';
import { okResponseSchema } from '../../contract/auth';
import { getJson, post } from './client';

/** The signed-in user's own password (issue 27). */

export const PASSWORD_STATUS_QUERY_KEY = ['account', 'password'] as const;

/** `GET /api/account/password`: whether the account has a password (Epic accounts have none). */
export const fetchPasswordStatus = (): Promise<PasswordStatus> => getJson('/api/account/password', passwordStatusSchema);

export const passwordStatusQuery = queryOptions({ queryKey: PASSWORD_STATUS_QUERY_KEY, queryFn: fetchPasswordStatus });

export const usePasswordStatus = () => useQuery(passwordStatusQuery);

/**
 * `POST /api/account/password`: the server's words on success; a failure is an HttpError whose
 * `code` names it (`wrong_password`, …).
 */
export const changePassword = (body: PasswordChangeRequest) => post('/api/account/password', okResponseSchema, body);
